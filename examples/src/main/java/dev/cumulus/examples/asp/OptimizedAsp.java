package dev.cumulus.examples.asp;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * ASP, manually optimized version (Manta §4.2): every node keeps its own table of rows, a remote object, and row
 * {@code k} travels down a binary tree rooted at its owner. A node stores a row it is handed, then forwards it to its
 * two children in that tree; the owner starts its sends asynchronously and goes on, so the rows of consecutive
 * iterations are pipelined.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.asp.OptimizedAsp [SIZE] [SEED]</pre>
 */
public final class OptimizedAsp {
    private OptimizedAsp() {
    }

    /** A node's table of rows, filled by its parent in each row's broadcast tree. */
    public interface RowTable {
        void deliver(int k, int[] row);
    }

    private static final class Table implements RowTable {
        private final int[][] table;
        private final int me;
        private final int n;
        private volatile List<RowTable> peers;

        Table(int n, int me) {
            this.table = new int[n][];
            this.me = me;
            this.n = n;
        }

        /** Called with every node's table before the barrier that precedes the first delivery. */
        void connect(List<RowTable> peers) {
            this.peers = peers;
        }

        @Override
        public void deliver(int k, int[] row) {
            synchronized (this) {
                table[k] = row;
                notifyAll();
            }
            for (RowTable child : children(AspProblem.owner(k, peers.size(), n))) {
                child.deliver(k, row);
            }
        }

        synchronized int[] take(int k) throws InterruptedException {
            while (table[k] == null) {
                wait();
            }
            return table[k];
        }

        /** The children of this node in the binary tree rooted at {@code root}. */
        List<RowTable> children(int root) {
            int size = peers.size();
            int rank = (me - root + size) % size;
            List<RowTable> children = new ArrayList<>(2);
            for (int child = 2 * rank + 1; child <= 2 * rank + 2 && child < size; child++) {
                children.add(peers.get((child + root) % size));
            }
            return children;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Asp.main(args, OptimizedAsp::run);
    }

    /** The SPMD body: this node's rows, checked. */
    public static Asp.Result run(Cluster cluster, int size, long seed) throws InterruptedException {
        AspProblem problem = AspProblem.random(size, seed);
        int me = cluster.nodeId();
        int first = AspProblem.firstRow(me, cluster.size(), size);
        int[][] rows = problem.rows(first, AspProblem.firstRow(me + 1, cluster.size(), size));
        Table table = new Table(size, me);
        cluster.export(table, RowTable.class, "asp-rows-" + me);
        List<RowTable> peers = new ArrayList<>();
        for (int node = 0; node < cluster.size(); node++) {
            peers.add(cluster.lookup("asp-rows-" + node, RowTable.class));
        }
        table.connect(peers);
        cluster.barrier();
        long start = System.nanoTime();
        List<RowTable> sends = new ArrayList<>();
        for (int k = 0; k < size; k++) {
            int[] rowK;
            if (AspProblem.owner(k, cluster.size(), size) == me) {
                rowK = rows[k - first];
                int[] copy = rowK.clone();
                for (RowTable child : table.children(me)) {
                    RowTable ticket = AsyncTicket.newTicket(child);
                    ticket.deliver(k, copy);
                    sends.add(ticket);
                }
            } else {
                rowK = table.take(k);
            }
            AspProblem.relax(rows, k, rowK);
        }
        for (RowTable ticket : sends) {
            AsyncTicket.getResult(ticket);
        }
        cluster.barrier();
        long parallelNs = System.nanoTime() - start;
        return Asp.result("optimized", cluster, problem, rows, first, parallelNs);
    }
}
