package dev.cumulus.examples.tsp;

import dev.cumulus.Cluster;

/**
 * TSP, replicated version (Manta §4.1): the naive program with the minimum as a replicated {@link Minimum}. Every
 * node reads its own replica before pruning (no communication); a shorter tour is broadcast with {@code set}.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.tsp.ReplicatedTsp [CITIES] [SEED]</pre>
 */
public final class ReplicatedTsp {
    private ReplicatedTsp() {
    }

    public static void main(String[] args) {
        Tsp.main(args, ReplicatedTsp::run);
    }

    /** The SPMD body; every node returns the same result. */
    public static Tsp.Result run(Cluster cluster, int cities, long seed) {
        TspProblem problem = TspProblem.random(cities, seed);
        Minimum minimum = cluster.replicated("tsp-minimum", Minimum::new);
        Tsp.JobQueue queue = Tsp.jobQueue(cluster, problem);
        cluster.barrier();
        long start = System.nanoTime();
        int done = 0;
        for (int[] job = queue.next(); job != null; job = queue.next()) {
            problem.search(job, minimum::get, minimum::set);
            done++;
        }
        cluster.barrier();
        long parallelNs = System.nanoTime() - start;
        return Tsp.result("replicated", cluster, problem, minimum.get(), parallelNs, done);
    }
}
