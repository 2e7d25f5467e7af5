package dev.cumulus;

import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.cluster.NodeCluster;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.transport.FrameSealing;
import dev.cumulus.internal.transport.TransportContext;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * n nodes as threads of one JVM, with the same semantics and protocol code as a real cluster (one shared Aeron
 * driver, IPC streams). For tests and quick experiments:
 * <pre>{@code LocalCluster.run(4, cluster -> { ... });}</pre>
 */
public final class LocalCluster {
    /** Most nodes one JVM runs. */
    public static final int MAX_NODES = 64;
    private static final long STOP_WAIT_MS = 10_000;

    private LocalCluster() {
    }

    /** The code every node runs. */
    @FunctionalInterface
    public interface NodeBody {
        void run(Cluster cluster) throws Exception;
    }

    /**
     * Runs {@code body} on {@code nodes} nodes, each on its own thread, and returns when all have finished; each
     * node's cluster is closed after its body returns. If any node throws, the cluster fails (fail-stop: blocked
     * barriers and calls on the other nodes throw) and the first failure is rethrown — wrapped in a
     * {@link CumulusException} if it is checked.
     */
    public static void run(int nodes, NodeBody body) {
        run(nodes, NodeSettings.DEFAULT_IDLE_STRATEGY, body);
    }

    /** {@link #run(int, NodeBody)} with an idle strategy for the nodes' agent threads (see {@code cumulus run --idle}). */
    public static void run(int nodes, String idleStrategy, NodeBody body) {
        if (nodes < 1 || nodes > MAX_NODES) {
            throw new CumulusException("LocalCluster runs 1 to " + MAX_NODES + " nodes, not " + nodes);
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        NodeCluster.beforeInProcessCluster(loader); // the body's lambdas load cloud classes: the agent comes first
        String runId = "local-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        NodeCluster[] members = new NodeCluster[nodes];
        Thread[] threads = new Thread[nodes];
        try (DriverHost driver = DriverHost.start(DriverHost.defaultDirectory(runId), true)) {
            // its own secret: the run is these nodes (over IPC, in an owner-only driver directory, nothing is sealed)
            TransportContext transport = new TransportContext(driver.directory(), false, false, List.of(), 1000,
                TransportContext.runTagOf(runId), TransportContext.DEFAULT_DATA_TERM_LENGTH, TransportContext.DEFAULT_MAX_MESSAGE_BYTES,
                RunSecret.generate(), FrameSealing.MAC);
            try {
                for (int i = 0; i < nodes; i++) {
                    members[i] = NodeCluster.start(NodeSettings.of(i, nodes,
                            NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS, NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS,
                            idleStrategy, nodes, System.getProperties()),
                        transport, loader, null);
                }
                for (int i = 0; i < nodes; i++) {
                    NodeCluster node = members[i];
                    threads[i] = Thread.ofPlatform().name("cumulus-local-node-" + i).start(() -> runNode(node, body,
                        failures));
                }
                for (Thread t : threads) {
                    t.join();
                }
            } finally {
                stop(members, threads, failures);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while the local cluster ran", e);
        }
        if (!failures.isEmpty()) {
            Throwable first = failures.getFirst();
            for (Throwable other : failures.subList(1, failures.size())) {
                if (other != first) {
                    first.addSuppressed(other);
                }
            }
            if (first instanceof RuntimeException r) {
                throw r;
            }
            if (first instanceof Error e) {
                throw e;
            }
            throw new CumulusException("a node failed: " + first, first);
        }
    }

    private static void runNode(NodeCluster node, NodeBody body, List<Throwable> failures) {
        try {
            node.awaitJoined();
            body.run(node);
            node.close();
        } catch (Throwable t) {
            // The root cause goes first; the failures it causes on other nodes follow it. A node that only died of
            // another's failure does not announce a failure of its own: the others must learn the root cause, not
            // whichever of the two announcements they happen to poll first.
            if (t instanceof NodeFailedException && node.failure() != null && node.failure().nodeId() != node.nodeId()) {
                failures.add(t);
            } else {
                failures.addFirst(t);
                node.failSelf("node " + node.nodeId() + " threw " + t);
            }
        }
    }

    private static void stop(NodeCluster[] members, Thread[] threads, List<Throwable> failures)
        throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MS);
        for (int i = 0; i < threads.length; i++) {
            Thread t = threads[i];
            if (t == null) {
                continue;
            }
            if (t.isAlive()) {
                t.interrupt();
            }
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                failures.add(new CumulusException("node " + i + " did not stop within " + STOP_WAIT_MS
                    + " ms after the cluster ended; its thread is still running"));
            }
        }
        for (NodeCluster m : members) {
            if (m != null) {
                m.leave();
            }
        }
    }
}
