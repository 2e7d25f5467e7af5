package dev.cumulus.internal.pastset;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * Once a second, per element held by this node that saw activity in that second: operation counts (local and
 * remote), time spent blocked, and the First/Last pointers. Fed by counters on the element, never one event per
 * operation.
 */
@Name(PastSetSummaryEvent.NAME)
@Label("PastSet Element Summary")
@Category({"Cumulus", "PastSet"})
@Description("Per-element activity on its home node over the last period")
@Period("1 s")
@StackTrace(false)
public final class PastSetSummaryEvent extends Event {
    public static final String NAME = "dev.cumulus.PastSetSummary";

    @Label("Home Node")
    public int node;

    @Label("Element")
    public String element;

    @Label("Moves")
    public long moves;

    @Label("Observes")
    public long observes;

    @Label("Remote Operations")
    @Description("Of the moves and observes, those that came from other nodes")
    public long remoteOperations;

    @Label("Blocked Time")
    @Description("Total time operations on the element waited in this period")
    @Timespan
    public long blockedNs;

    @Label("Waiting Now")
    @Description("Operations blocked on the element when the summary was taken")
    public int waiting;

    @Label("First")
    public long first;

    @Label("Last")
    public long last;

    @Label("Distance")
    @Description("Unobserved tuples: Last - First + 1 (bounded by DeltaValue)")
    public long distance;

    @Label("Kept Tuples")
    public long kept;
}
