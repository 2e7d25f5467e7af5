package dev.cumulus;

/**
 * n nodes as threads of one JVM, with the same semantics and protocol code as a real cluster. For tests and quick
 * experiments:
 * <pre>{@code LocalCluster.run(4, cluster -> { ... });}</pre>
 */
public final class LocalCluster {
    private LocalCluster() {
    }

    /** The code every node runs. */
    @FunctionalInterface
    public interface NodeBody {
        void run(Cluster cluster) throws Exception;
    }

    /**
     * Runs {@code body} on {@code nodes} nodes and returns when all have finished. If any node throws, the others
     * are stopped and the first failure is rethrown (wrapped in a {@link CumulusException} if checked).
     */
    public static void run(int nodes, NodeBody body) {
        throw new UnsupportedOperationException("work in progress");
    }
}
