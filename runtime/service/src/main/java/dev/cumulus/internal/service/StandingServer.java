package dev.cumulus.internal.service;

import dev.cumulus.Cluster;
import dev.cumulus.internal.launch.NodeRuntime;

import java.util.concurrent.CountDownLatch;

/**
 * The main class of a standing cluster's server nodes ({@code cumulus cluster start}): it joins the cluster, waits
 * until every server has joined, and then serves the cluster's clients until its process is stopped. Node 0 then
 * prints {@link #SERVING_LINE} on its standard output, which tells the cluster's keeper that the cluster serves
 * (node 0 may run on another host: its output comes back over its ssh session).
 *
 * <p>The program's own thread only waits: the node's threads poll and run the calls.
 */
public final class StandingServer {
    /** The line node 0 prints once every server has joined. */
    public static final String SERVING_LINE = "cumulus: every server of the standing cluster serves";

    private StandingServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        Cluster cluster = NodeRuntime.serveFromLaunch(ServedClients::serving);
        cluster.barrier();
        if (cluster.nodeId() == 0) {
            System.out.println(SERVING_LINE);
            System.out.flush();
        }
        new CountDownLatch(1).await(); // served until the keeper stops this process
    }
}
