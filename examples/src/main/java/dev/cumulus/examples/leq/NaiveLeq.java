package dev.cumulus.examples.leq;

import dev.cumulus.Cluster;

/**
 * LEQ, naive version (Manta §4.5): one remote {@code Gather} object on node 0 does the gather-to-all and the
 * reduce-to-all. After each sweep every node hands it its part of the new x and its largest change, waits for the
 * maximum over all nodes, then fetches the whole new x.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.leq.NaiveLeq [SIZE] [SEED]</pre>
 */
public final class NaiveLeq {
    private NaiveLeq() {
    }

    /** Gather-to-all and reduce-to-all as a remote object. Rounds alternate between two slots. */
    public interface Gather {
        /** Adds a part of x and its change; returns the largest change of all nodes once every node has added. */
        double reduce(int round, int first, double[] part, double change) throws InterruptedException;

        /** The whole x of {@code round} (call after {@code reduce} returned). */
        double[] vector(int round);
    }

    private static final class GatherObject implements Gather {
        private final int nodes;
        private final double[][] x;
        private final double[] max = new double[2];
        private final int[] arrived = new int[2];
        private final int[] round = {-1, -1};

        GatherObject(int n, int nodes) {
            this.nodes = nodes;
            this.x = new double[2][n];
        }

        @Override
        public synchronized double reduce(int r, int first, double[] part, double change) throws InterruptedException {
            int s = r & 1;
            if (round[s] != r) {
                round[s] = r;
                arrived[s] = 0;
                max[s] = 0;
            }
            System.arraycopy(part, 0, x[s], first, part.length);
            max[s] = Math.max(max[s], change);
            if (++arrived[s] == nodes) {
                notifyAll();
            }
            while (arrived[s] < nodes) {
                wait();
            }
            return max[s];
        }

        @Override
        public synchronized double[] vector(int r) {
            return x[r & 1].clone();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Leq.main(args, NaiveLeq::run);
    }

    /** The SPMD body; every node ends with the whole solution. */
    public static Leq.Result run(Cluster cluster, int size, long seed) throws InterruptedException {
        LeqProblem problem = new LeqProblem(size, seed);
        int me = cluster.nodeId();
        int first = LeqProblem.firstRow(me, cluster.size(), size);
        double[][] equations = problem.equations(first, LeqProblem.firstRow(me + 1, cluster.size(), size));
        Gather gather = me == 0
            ? cluster.export(new GatherObject(size, cluster.size()), Gather.class, "leq-gather")
            : cluster.lookup("leq-gather", Gather.class);
        cluster.barrier();
        long start = System.nanoTime();
        double[] x = new double[size];
        double[] part = new double[equations.length];
        int sweep = 0;
        double change;
        do {
            double mine = LeqProblem.sweep(equations, first, x, part);
            change = gather.reduce(sweep, first, part, mine);
            x = gather.vector(sweep);
            sweep++;
        } while (change >= LeqProblem.STEP_TOLERANCE && sweep < LeqProblem.MAX_SWEEPS);
        cluster.barrier();
        long parallelNs = System.nanoTime() - start;
        return Leq.result("naive", cluster, problem, x, sweep, parallelNs);
    }
}
