package dev.cumulus.internal.service;

import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.internal.cluster.NodeRuntime;
import dev.cumulus.internal.launch.LaunchConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;

/**
 * The main class of a standing cluster's server nodes ({@code cumulus cluster start}): it joins the cluster, waits
 * until every server has joined, and then serves the cluster's clients until its process is stopped. Node 0 then
 * writes {@link #SERVING_MARKER} into the run directory, which tells the cluster's keeper that the cluster serves.
 *
 * <p>The program's own thread only waits: the node's threads poll and run the calls.
 */
public final class StandingServer {
    /** The file node 0 writes into the run directory once every server has joined. */
    public static final String SERVING_MARKER = "serving";

    private StandingServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path runDir = LaunchConfig.fromProperties(System.getProperties()).runDir();
        Cluster cluster = NodeRuntime.serveFromLaunch(ServedClients::serving);
        cluster.barrier();
        if (cluster.nodeId() == 0) {
            markServing(runDir);
        }
        new CountDownLatch(1).await(); // served until the keeper stops this process
    }

    /** Writes the marker atomically, so a reader sees it whole or not at all. */
    static void markServing(Path runDir) {
        try {
            Path tmp = runDir.resolve(SERVING_MARKER + ".tmp");
            Files.writeString(tmp, ProcessHandle.current().pid() + "\n");
            Files.move(tmp, runDir.resolve(SERVING_MARKER), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new CumulusException("server node 0 cannot write " + runDir.resolve(SERVING_MARKER)
                + " to tell the keeper the cluster serves: " + e.getMessage(), e);
        }
    }
}
