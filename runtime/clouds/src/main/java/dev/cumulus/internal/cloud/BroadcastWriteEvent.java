package dev.cumulus.internal.cloud;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A write on a replicated object, from the call to its application on the caller's replica (the event's duration). */
@Name(BroadcastWriteEvent.NAME)
@Label("Replicated Write")
@Category({"Cumulus", "Replication"})
@Description("A write method shipped through the totally ordered broadcast; duration = time to local apply")
@StackTrace(false)
public final class BroadcastWriteEvent extends Event {
    public static final String NAME = "dev.cumulus.BroadcastWrite";

    @Label("Node")
    public int node;

    @Label("Cloud")
    public String cloud;

    @Label("Method")
    public String method;

    @Label("Sequence Number")
    public long seq;

    @Label("Bytes")
    @DataAmount
    public long bytes;
}
