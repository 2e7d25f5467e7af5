package dev.cumulus.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** One remote call as its caller saw it; the event's duration is the call's latency (send to reply). */
@Name(RemoteCallEvent.NAME)
@Label("Remote Call")
@Category({"Cumulus", "Remote objects"})
@Description("A call through a remote-object proxy, from send to reply")
@StackTrace(false)
public final class RemoteCallEvent extends Event {
    public static final String NAME = "dev.cumulus.RemoteCall";

    @Label("Caller Node")
    public int callerNode;

    @Label("Target Node")
    public int targetNode;

    @Label("Call Id")
    @Description("This node's id of the call (unique per node); the serving node's Remote Call Served event carries the same")
    public long callId;

    @Label("Object")
    @Description("Name the object was exported under")
    public String object;

    @Label("Method")
    public String method;

    @Label("Request Bytes")
    @DataAmount
    public long requestBytes;

    @Label("Reply Bytes")
    @DataAmount
    public long replyBytes;

    @Label("Asynchronous")
    public boolean async;

    @Label("Outcome")
    @Description("ok, exception, timeout, node-failed, or moved (the object had migrated: the call was sent on to its new node, a call event of its own)")
    public String outcome;
}
