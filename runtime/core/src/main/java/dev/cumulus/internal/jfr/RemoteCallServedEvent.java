package dev.cumulus.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One remote call as the node that ran it saw it; the event's duration is from the moment the call started to run
 * (after its object's gate let it in) until its reply was sent. {@code callerNode} and {@code callId} name the
 * caller's {@link RemoteCallEvent} of the same call, so a report can put the two on one timeline.
 */
@Name(RemoteCallServedEvent.NAME)
@Label("Remote Call Served")
@Category({"Cumulus", "Remote objects"})
@Description("A remote call run by the node that holds its object, from the start of the method to the reply")
@StackTrace(false)
public final class RemoteCallServedEvent extends Event {
    public static final String NAME = "dev.cumulus.RemoteCallServed";

    @Label("Caller Node")
    public int callerNode;

    @Label("Serving Node")
    public int servingNode;

    @Label("Call Id")
    @Description("The caller's id of the call (unique per caller node); its Remote Call event carries the same")
    public long callId;

    @Label("Object")
    public String object;

    @Label("Method")
    public String method;

    @Label("Deferred Reply")
    @Description("The method handed its reply to another thread: the event ends when the method returned")
    public boolean deferred;

    @Label("Outcome")
    @Description("ok or exception")
    public String outcome;
}
