package {{package}};

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;

/**
 * C = A × B, master-worker. Node 0 creates a {@link BandWorker} on every other node, sends each a band of rows of A
 * and all of B through an asynchronous ticket, gathers the bands of C and checks C against a sequential product.
 *
 * <p>Note: this template will switch to distributed shared arrays ({@code cluster.sharedDoubleArray("A", rows, cols,
 * 32, 32)}, blocks with home nodes, barriers) once that API is in the runtime; the program's shape (bands of rows per
 * node, a barrier, a check on node 0) stays the same.
 *
 * <pre>cumulus run --nodes {{nodes}} -cp target/classes {{package}}.Main [SIZE] [SEED]</pre>
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : {{size}};
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 42;
        try (Cluster cluster = Cluster.join()) {
            if (cluster.nodeId() == 0) {
                master(cluster, size, seed);
            }
            cluster.barrier();                       // workers serve calls until the master is done
        }
    }

    private static void master(Cluster cluster, int size, long seed) {
        double[][] a = Matrices.random(size, size, seed);
        double[][] b = Matrices.random(size, size, seed + 1);
        int workers = Math.max(1, cluster.size() - 1);
        BandWorker[] worker = new BandWorker[workers];
        for (int w = 0; w < workers; w++) {
            int node = cluster.size() == 1 ? 0 : w + 1;
            worker[w] = cluster.remoteNew(BandWorkerImpl.class, BandWorker.class, "band-worker-" + w, node);
        }

        long start = System.nanoTime();
        BandWorker[] tickets = new BandWorker[workers];
        for (int w = 0; w < workers; w++) {
            tickets[w] = AsyncTicket.newTicket(worker[w]);
            tickets[w].multiply(Matrices.rows(a, band(w, workers, size), band(w + 1, workers, size)), b);  // async
        }
        double[][] c = new double[size][];
        for (int w = 0; w < workers; w++) {
            double[][] part = AsyncTicket.getResult(tickets[w]);
            System.arraycopy(part, 0, c, band(w, workers, size), part.length);
        }
        long parallelMs = (System.nanoTime() - start) / 1_000_000;

        double error = Matrices.maxAbsDifference(c, Matrices.multiply(a, b));
        boolean ok = error < 1e-9;
        System.out.printf("C = A x B: %s (%dx%d on %d workers, %d ms, max error %.1e)%n",
            ok ? "verified" : "WRONG", size, size, workers, parallelMs, error);
        if (!ok) {
            System.exit(1);
        }
    }

    private static int band(int w, int workers, int size) {
        return (int) ((long) w * size / workers);
    }
}
