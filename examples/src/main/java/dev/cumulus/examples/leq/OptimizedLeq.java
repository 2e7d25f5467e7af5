package dev.cumulus.examples.leq;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * LEQ, manually optimized version (Manta §4.5): an explicit all-gather over remote calls. Every node exports an
 * inbox; after each sweep it sends its part of x and its largest change straight to every other node's inbox
 * (asynchronous calls, all at once), then assembles x and the maximum change locally from its own inbox.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.leq.OptimizedLeq [SIZE] [SEED]</pre>
 */
public final class OptimizedLeq {
    private OptimizedLeq() {
    }

    /** A node's inbox for the other nodes' parts. Rounds alternate between two slots. */
    public interface Inbox {
        void deliver(int round, int first, double[] part, double change);
    }

    private static final class Slots implements Inbox {
        private final int nodes;
        private final double[][] x;
        private final double[] max = new double[2];
        private final int[] arrived = new int[2];
        private final int[] round = {-1, -1};

        Slots(int n, int nodes) {
            this.nodes = nodes;
            this.x = new double[2][n];
        }

        @Override
        public synchronized void deliver(int r, int first, double[] part, double change) {
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
        }

        synchronized double reduce(int r) throws InterruptedException {
            int s = r & 1;
            while (round[s] != r || arrived[s] < nodes) {
                wait();
            }
            return max[s];
        }

        synchronized double[] vector(int r) {
            return x[r & 1].clone();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Leq.main(args, OptimizedLeq::run);
    }

    /** The SPMD body; every node ends with the whole solution. */
    public static Leq.Result run(Cluster cluster, int size, long seed) throws InterruptedException {
        LeqProblem problem = new LeqProblem(size, seed);
        int me = cluster.nodeId();
        int first = LeqProblem.firstRow(me, cluster.size(), size);
        double[][] equations = problem.equations(first, LeqProblem.firstRow(me + 1, cluster.size(), size));
        Slots inbox = new Slots(size, cluster.size());
        cluster.export(inbox, Inbox.class, "leq-inbox-" + me);
        List<Inbox> others = new ArrayList<>();
        for (int node = 0; node < cluster.size(); node++) {
            if (node != me) {
                others.add(cluster.lookup("leq-inbox-" + node, Inbox.class));
            }
        }
        cluster.barrier();
        long start = System.nanoTime();
        double[] x = new double[size];
        int sweep = 0;
        double change;
        do {
            double[] part = new double[equations.length];
            double mine = LeqProblem.sweep(equations, first, x, part);
            List<Inbox> sends = new ArrayList<>();
            for (Inbox other : others) {
                Inbox ticket = AsyncTicket.newTicket(other);
                ticket.deliver(sweep, first, part, mine);
                sends.add(ticket);
            }
            inbox.deliver(sweep, first, part, mine);
            change = inbox.reduce(sweep);
            x = inbox.vector(sweep);
            for (Inbox ticket : sends) {
                AsyncTicket.getResult(ticket);
            }
            sweep++;
        } while (change >= LeqProblem.STEP_TOLERANCE && sweep < LeqProblem.MAX_SWEEPS);
        cluster.barrier();
        long parallelNs = System.nanoTime() - start;
        return Leq.result("optimized", cluster, problem, x, sweep, parallelNs);
    }
}
