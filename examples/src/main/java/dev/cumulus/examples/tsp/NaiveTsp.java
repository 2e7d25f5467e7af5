package dev.cumulus.examples.tsp;

import dev.cumulus.Cluster;

/**
 * TSP, naive version (Manta §4.1): the minimum is one remote object on node 0; every node reads it with a remote call
 * at every step of its search and sets it when it finds a shorter tour.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.tsp.NaiveTsp [CITIES] [SEED]</pre>
 */
public final class NaiveTsp {
    private NaiveTsp() {
    }

    /** The shared minimum as a remote object. */
    public interface SharedMinimum {
        int get();

        void set(int length);
    }

    private static final class MinimumObject implements SharedMinimum {
        private int minimum = Integer.MAX_VALUE;

        @Override
        public synchronized int get() {
            return minimum;
        }

        @Override
        public synchronized void set(int length) {
            if (length < minimum) {
                minimum = length;
            }
        }
    }

    public static void main(String[] args) {
        Tsp.main(args, NaiveTsp::run);
    }

    /** The SPMD body; every node returns the same result. */
    public static Tsp.Result run(Cluster cluster, int cities, long seed) {
        TspProblem problem = TspProblem.random(cities, seed);
        SharedMinimum minimum = cluster.nodeId() == 0
            ? cluster.export(new MinimumObject(), SharedMinimum.class, "tsp-minimum")
            : cluster.lookup("tsp-minimum", SharedMinimum.class);
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
        return Tsp.result("naive", cluster, problem, minimum.get(), parallelNs, done);
    }
}
