package dev.cumulus.internal.singlevm;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The single-VM mode took the cluster-wide monitor of an object homed on another node (a {@code synchronized} of the
 * program, or the re-acquisition after a {@code wait}); the duration is the wait for the grant.
 */
@Name(SingleVmLockWaitEvent.NAME)
@Label("Single-VM Remote Lock")
@Category({"Cumulus", "Single VM"})
@Description("A thread took the monitor of an object homed on another node; the duration is the wait for the grant")
@StackTrace(false)
public final class SingleVmLockWaitEvent extends Event {
    public static final String NAME = "dev.cumulus.SingleVmLockWait";

    @Label("Node")
    public int node;

    @Label("Home Node")
    public int homeNode;

    @Label("Class")
    @Description("The class of the object whose monitor it is (java.lang.Class for a static synchronized method)")
    public String className;
}
