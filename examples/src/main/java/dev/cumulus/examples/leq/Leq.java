package dev.cumulus.examples.leq;

import dev.cumulus.Cluster;

/** What the three LEQ versions share besides the problem: the result and the {@code main}. */
public final class Leq {
    private Leq() {
    }

    public static final int DEFAULT_SIZE = 1000;
    public static final long DEFAULT_SEED = 42;

    /** One node's outcome: the solution it ended with, checked against sequential Jacobi. */
    public record Result(String version, int size, int nodes, int sweeps, int sequentialSweeps, double residual,
                         double maxDifference, long parallelNs) {
        public boolean verified() {
            return sweeps == sequentialSweeps && residual < LeqProblem.RESIDUAL_TOLERANCE
                && maxDifference <= LeqProblem.MATCH_TOLERANCE;
        }
    }

    /** The SPMD body of a version. */
    @FunctionalInterface
    public interface Version {
        Result run(Cluster cluster, int size, long seed) throws InterruptedException;
    }

    static Result result(String version, Cluster cluster, LeqProblem problem, double[] x, int sweeps,
                         long parallelNs) {
        LeqProblem.Solution expected = problem.solveSequentially();
        double difference = 0;
        for (int i = 0; i < x.length; i++) {
            difference = Math.max(difference, Math.abs(x[i] - expected.x()[i]));
        }
        return new Result(version, problem.size(), cluster.size(), sweeps, expected.sweeps(), problem.residual(x),
            difference, parallelNs);
    }

    /** {@code main} of every version: {@code [SIZE] [SEED]}; prints on node 0, exits 1 on any node that is wrong. */
    static void main(String[] args, Version version) throws InterruptedException {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_SIZE;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : DEFAULT_SEED;
        try (Cluster cluster = Cluster.join()) {
            Result r = version.run(cluster, size, seed);
            if (cluster.nodeId() == 0 || !r.verified()) {
                System.out.printf("LEQ %s, %d equations (seed %d) on %d nodes: %d sweeps (sequential %d) in %.1f ms; "
                        + "max |Ax - b| = %.1e, max |x - x_seq| = %.1e: %s%n", r.version(), r.size(), seed, r.nodes(),
                    r.sweeps(), r.sequentialSweeps(), r.parallelNs() / 1e6, r.residual(), r.maxDifference(),
                    r.verified() ? "verified" : "WRONG");
            }
            if (!r.verified()) {
                System.exit(1);
            }
        }
    }
}
