package dev.cumulus.examples.asp;

import dev.cumulus.Cluster;

/**
 * ASP, naive version (Manta §4.2): one remote {@code Broadcast} object on node 0. In iteration {@code k} the owner of
 * row {@code k} stores it there; every other node fetches it with a remote call that blocks until the row is there.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.asp.NaiveAsp [SIZE] [SEED]</pre>
 */
public final class NaiveAsp {
    private NaiveAsp() {
    }

    /** The rows of the distance matrix, one per iteration, as a remote object. */
    public interface Broadcast {
        void send(int k, int[] row);

        int[] receive(int k) throws InterruptedException;
    }

    private static final class RowTable implements Broadcast {
        private final int[][] table;

        RowTable(int n) {
            table = new int[n][];
        }

        @Override
        public synchronized void send(int k, int[] row) {
            table[k] = row;
            notifyAll();
        }

        @Override
        public synchronized int[] receive(int k) throws InterruptedException {
            while (table[k] == null) {
                wait();
            }
            return table[k];
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Asp.main(args, NaiveAsp::run);
    }

    /** The SPMD body: this node's rows, checked. */
    public static Asp.Result run(Cluster cluster, int size, long seed) throws InterruptedException {
        AspProblem problem = AspProblem.random(size, seed);
        int me = cluster.nodeId();
        int first = AspProblem.firstRow(me, cluster.size(), size);
        int[][] rows = problem.rows(first, AspProblem.firstRow(me + 1, cluster.size(), size));
        Broadcast broadcast = me == 0
            ? cluster.export(new RowTable(size), Broadcast.class, "asp-broadcast")
            : cluster.lookup("asp-broadcast", Broadcast.class);
        cluster.barrier();
        long start = System.nanoTime();
        for (int k = 0; k < size; k++) {
            int[] rowK;
            if (AspProblem.owner(k, cluster.size(), size) == me) {
                rowK = rows[k - first];
                broadcast.send(k, rowK.clone());
            } else {
                rowK = broadcast.receive(k);
            }
            AspProblem.relax(rows, k, rowK);
        }
        cluster.barrier();
        long parallelNs = System.nanoTime() - start;
        return Asp.result("naive", cluster, problem, rows, first, parallelNs);
    }
}
