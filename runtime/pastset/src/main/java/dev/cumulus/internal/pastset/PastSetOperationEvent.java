package dev.cumulus.internal.pastset;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A move or observe that crossed nodes, as its caller saw it: the event's duration is the whole operation (send,
 * wait at the home node, reply). Local operations are not recorded one by one; they are counted in
 * {@link PastSetSummaryEvent}.
 */
@Name(PastSetOperationEvent.NAME)
@Label("PastSet Remote Operation")
@Category({"Cumulus", "PastSet"})
@Description("A move or observe on an element that lives on another node")
@StackTrace(false)
public final class PastSetOperationEvent extends Event {
    public static final String NAME = "dev.cumulus.PastSetOperation";

    @Label("Element")
    @Description("The element's template key and space")
    public String element;

    @Label("Operation")
    @Description("move, observe or observe-index")
    public String operation;

    @Label("Caller Node")
    public int callerNode;

    @Label("Home Node")
    public int homeNode;

    @Label("Tuple Bytes")
    @DataAmount
    public long bytes;

    @Label("Blocked Time")
    @Description("How long the operation waited at the home node (flow control or no tuple yet)")
    @Timespan
    public long blockedNs;

    @Label("Outcome")
    @Description("ok or error")
    public String outcome;
}
