package dev.cumulus.internal.singlevm;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The single-VM mode wrote back one object's dirty fields at a release (monitor exit, wait, volatile write, thread
 * end); the duration is the write-back call that carried them to the home, its acknowledgement included (one call per
 * home carries every object of that home, each with its own event: {@link #callObjects} says how many share the
 * duration).
 */
@Name(SingleVmWriteBackEvent.NAME)
@Label("Single-VM Write-Back")
@Category({"Cumulus", "Single VM"})
@Description("A release sent an object's dirty fields (or a large array's dirty block) to its home")
@StackTrace(false)
public final class SingleVmWriteBackEvent extends Event {
    public static final String NAME = "dev.cumulus.SingleVmWriteBack";

    @Label("Node")
    public int node;

    @Label("Home Node")
    public int homeNode;

    @Label("Class")
    @Description("The object's class (an array's type), or the class whose static fields were written")
    public String className;

    @Label("Fields")
    @Description("The fields written back, separated by commas; [] for array elements")
    public String fields;

    @Label("Entries")
    @Description("Fields or elements written back")
    public int entries;

    @Label("Objects In Call")
    @Description("Objects (and array blocks) the same write-back call carried, each with an event of the call's duration")
    public int callObjects;
}
