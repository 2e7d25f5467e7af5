package dev.cumulus.internal.migration;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A remote object moved to another node (or tried to); recorded on the node it left. */
@Name(MigrationEvent.NAME)
@Label("Object Migration")
@Category({"Cumulus", "Remote objects"})
@Description("A remote object moved from one node to another")
@StackTrace(false)
public final class MigrationEvent extends Event {
    public static final String NAME = "dev.cumulus.Migration";

    @Label("Object")
    @Description("Name the object was exported under")
    public String object;

    @Label("Kind")
    @Description("IDLE, DELAYED or SAFE_POINT")
    public String kind;

    @Label("From Node")
    public int fromNode;

    @Label("To Node")
    public int toNode;

    @Label("State Bytes")
    @DataAmount
    public long stateBytes;

    @Label("Pause")
    @Description("How long calls of the object were held: from closing its gate to serving on the new node")
    @Timespan
    public long pauseNs;

    @Label("Calls Held")
    @Description("Calls that waited for the move: handed to the new node with the object, or run here if it stayed")
    public int callsHeld;

    @Label("Reason")
    @Description("Why it moved: requested, or rebalance with the caller share that decided it")
    public String reason;

    @Label("Outcome")
    @Description("moved, or why it did not")
    public String outcome;
}
