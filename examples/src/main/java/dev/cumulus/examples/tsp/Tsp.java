package dev.cumulus.examples.tsp;

import dev.cumulus.Cluster;

import java.util.ArrayDeque;
import java.util.List;

/** What the three TSP versions share besides the problem: the job queue on node 0, the result and the {@code main}. */
public final class Tsp {
    private Tsp() {
    }

    /** Default number of cities and seed when {@code main} gets no arguments. */
    public static final int DEFAULT_CITIES = 12;
    public static final long DEFAULT_SEED = 42;

    /** The job queue (Manta §4.1): a remote object on node 0 that hands out partial tours until none are left. */
    public interface JobQueue {
        /** The next partial tour, or {@code null} when all jobs are taken. */
        int[] next();
    }

    private static final class Jobs implements JobQueue {
        private final ArrayDeque<int[]> jobs;

        Jobs(List<int[]> jobs) {
            this.jobs = new ArrayDeque<>(jobs);
        }

        @Override
        public synchronized int[] next() {
            return jobs.poll();
        }
    }

    /** Collective: node 0 exports the job queue for {@code problem}, the others look it up. */
    public static JobQueue jobQueue(Cluster cluster, TspProblem problem) {
        return cluster.nodeId() == 0
            ? cluster.export(new Jobs(problem.jobs()), JobQueue.class, "tsp-jobs")
            : cluster.lookup("tsp-jobs", JobQueue.class);
    }

    /** One node's outcome: the tour length it ended with, and the optimum the sequential solver found. */
    public record Result(String version, int cities, int nodes, int length, int optimum, long parallelNs,
                         int jobsDone) {
        public boolean verified() {
            return length == optimum;
        }
    }

    /** The SPMD body of a version. */
    @FunctionalInterface
    public interface Version {
        Result run(Cluster cluster, int cities, long seed);
    }

    /** Checks {@code length} against the sequential optimum. */
    static Result result(String version, Cluster cluster, TspProblem problem, int length, long parallelNs,
                         int jobsDone) {
        return new Result(version, problem.cities(), cluster.size(), length, problem.solveSequentially(), parallelNs,
            jobsDone);
    }

    /** {@code main} of every version: {@code [CITIES] [SEED]}; prints on node 0, exits 1 on any node that is wrong. */
    static void main(String[] args, Version version) {
        int cities = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_CITIES;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : DEFAULT_SEED;
        try (Cluster cluster = Cluster.join()) {
            Result r = version.run(cluster, cities, seed);
            if (cluster.nodeId() == 0 || !r.verified()) {
                System.out.printf("TSP %s, %d cities (seed %d) on %d nodes: shortest tour %d (sequential optimum %d) "
                        + "in %.1f ms, %d jobs on this node: %s%n", r.version(), r.cities(), seed, r.nodes(),
                    r.length(), r.optimum(), r.parallelNs() / 1e6, r.jobsDone(), r.verified() ? "verified" : "WRONG");
            }
            if (!r.verified()) {
                System.exit(1);
            }
        }
    }
}
