package dev.cumulus.examples.tsp;

import dev.cumulus.Cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * TSP, manually optimized version (Manta §4.1): every node keeps its own copy of the minimum in a plain field, read
 * without a call. A node that finds a shorter tour calls the central minimum on node 0, which holds remote references
 * to every node's copy and updates each of them before it returns.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.tsp.OptimizedTsp [CITIES] [SEED]</pre>
 */
public final class OptimizedTsp {
    private OptimizedTsp() {
    }

    /** A node's copy of the minimum, updated remotely by the central minimum. */
    public interface MinimumCopy {
        void update(int length);
    }

    /** The central minimum on node 0. */
    public interface CentralMinimum {
        void set(int length);
    }

    private static final class Copy implements MinimumCopy {
        private volatile int minimum = Integer.MAX_VALUE;

        @Override
        public synchronized void update(int length) {
            if (length < minimum) {
                minimum = length;
            }
        }
    }

    private static final class Central implements CentralMinimum {
        private final List<MinimumCopy> copies;
        private int minimum = Integer.MAX_VALUE;

        Central(List<MinimumCopy> copies) {
            this.copies = copies;
        }

        @Override
        public synchronized void set(int length) {
            if (length < minimum) {
                minimum = length;
                for (MinimumCopy copy : copies) {
                    copy.update(length);
                }
            }
        }
    }

    public static void main(String[] args) {
        Tsp.main(args, OptimizedTsp::run);
    }

    /** The SPMD body; every node returns the same result. */
    public static Tsp.Result run(Cluster cluster, int cities, long seed) {
        TspProblem problem = TspProblem.random(cities, seed);
        Copy local = new Copy();
        cluster.export(local, MinimumCopy.class, "tsp-copy-" + cluster.nodeId());
        CentralMinimum central;
        if (cluster.nodeId() == 0) {
            List<MinimumCopy> copies = new ArrayList<>();
            for (int node = 0; node < cluster.size(); node++) {
                copies.add(cluster.lookup("tsp-copy-" + node, MinimumCopy.class));
            }
            central = cluster.export(new Central(copies), CentralMinimum.class, "tsp-central");
        } else {
            central = cluster.lookup("tsp-central", CentralMinimum.class);
        }
        Tsp.JobQueue queue = Tsp.jobQueue(cluster, problem);
        cluster.barrier();
        long start = System.nanoTime();
        int done = 0;
        for (int[] job = queue.next(); job != null; job = queue.next()) {
            problem.search(job, () -> local.minimum, central::set);
            done++;
        }
        cluster.barrier();
        long parallelNs = System.nanoTime() - start;
        return Tsp.result("optimized", cluster, problem, local.minimum, parallelNs, done);
    }
}
