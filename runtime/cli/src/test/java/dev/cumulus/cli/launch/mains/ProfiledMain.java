package dev.cumulus.cli.launch.mains;

import dev.cumulus.internal.jfr.NodeLifecycleEvent;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import dev.cumulus.internal.launch.LaunchConfig;

/**
 * Records the events a real node would, without the cluster runtime: a lifecycle "joined", then 10 calls of
 * counter.add (every other one asynchronous) from this node to node 0, 2 calls of registry.lookup, then "left".
 */
public final class ProfiledMain {
    private ProfiledMain() {
    }

    public static void main(String[] args) {
        int me = LaunchConfig.fromProperties(System.getProperties()).nodeId();
        NodeLifecycleEvent.record(me, "joined", me, "");
        for (int i = 0; i < 10; i++) {
            call(me, "counter", "add", i % 2 == 0, 64, 16);
        }
        for (int i = 0; i < 2; i++) {
            call(me, "registry", "lookup", false, 100, 200);
        }
        NodeLifecycleEvent.record(me, "left", me, "done");
        System.out.println("recorded");
    }

    private static void call(int me, String object, String method, boolean async, long req, long reply) {
        RemoteCallEvent e = new RemoteCallEvent();
        e.begin();
        e.callerNode = me;
        e.targetNode = 0;
        e.object = object;
        e.method = method;
        e.async = async;
        e.requestBytes = req;
        e.replyBytes = reply;
        e.outcome = "ok";
        e.end();
        e.commit();
    }
}
