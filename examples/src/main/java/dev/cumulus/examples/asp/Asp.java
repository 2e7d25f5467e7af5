package dev.cumulus.examples.asp;

import dev.cumulus.Cluster;

/** What the three ASP versions share besides the problem: the result and the {@code main}. */
public final class Asp {
    private Asp() {
    }

    public static final int DEFAULT_SIZE = 300;
    public static final long DEFAULT_SEED = 42;

    /** One node's outcome: its block of rows and how many of them differ from sequential Floyd–Warshall. */
    public record Result(String version, int size, int nodes, int node, int firstRow, int rows, int wrongRows,
                         long parallelNs) {
        public boolean verified() {
            return wrongRows == 0;
        }
    }

    /** The SPMD body of a version. */
    @FunctionalInterface
    public interface Version {
        Result run(Cluster cluster, int size, long seed) throws InterruptedException;
    }

    static Result result(String version, Cluster cluster, AspProblem problem, int[][] rows, int firstRow,
                         long parallelNs) {
        return new Result(version, problem.size(), cluster.size(), cluster.nodeId(), firstRow, rows.length,
            problem.wrongRows(rows, firstRow), parallelNs);
    }

    /** {@code main} of every version: {@code [SIZE] [SEED]}; every node checks and prints its rows, exits 1 if wrong. */
    static void main(String[] args, Version version) throws InterruptedException {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_SIZE;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : DEFAULT_SEED;
        try (Cluster cluster = Cluster.join()) {
            Result r = version.run(cluster, size, seed);
            System.out.printf("ASP %s, %d vertices (seed %d) on %d nodes: %.1f ms; rows %d..%d against "
                    + "Floyd-Warshall: %s%n", r.version(), r.size(), seed, r.nodes(), r.parallelNs() / 1e6,
                r.firstRow(), r.firstRow() + r.rows() - 1,
                r.verified() ? "verified" : "WRONG (" + r.wrongRows() + " rows differ)");
            if (!r.verified()) {
                System.exit(1);
            }
        }
    }
}
