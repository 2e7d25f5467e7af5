package dev.cumulus.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A change in a node's life: joined, left, a peer failed, or this node failed. */
@Name(NodeLifecycleEvent.NAME)
@Label("Node Lifecycle")
@Category({"Cumulus", "Cluster"})
@StackTrace(false)
public final class NodeLifecycleEvent extends Event {
    public static final String NAME = "dev.cumulus.NodeLifecycle";

    @Label("Node")
    public int node;

    @Label("Phase")
    @Description("joined, left, peer-failed or failed")
    public String phase;

    @Label("Subject Node")
    @Description("The node the phase is about (the failed peer for peer-failed)")
    public int subject;

    @Label("Detail")
    public String detail;

    /** Records a lifecycle change now. */
    public static void record(int node, String phase, int subject, String detail) {
        NodeLifecycleEvent e = new NodeLifecycleEvent();
        if (e.isEnabled()) {
            e.node = node;
            e.phase = phase;
            e.subject = subject;
            e.detail = detail;
            e.commit();
        }
    }
}
