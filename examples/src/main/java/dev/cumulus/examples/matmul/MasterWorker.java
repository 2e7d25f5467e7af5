package dev.cumulus.examples.matmul;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;

/**
 * Babylon's master-worker matrix multiplication (§5) on remote objects and asynchronous tickets.
 *
 * <p>Node 0 is the master: it creates one {@link MatrixWorker} on every other node with {@code remoteNew}, sends
 * each a band of rows of A together with all of B through an asynchronous ticket, collects the bands of C with
 * {@code getResult}, and checks C against the sequential product. With one node the master's own node does the work.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.matmul.MasterWorker [SIZE] [SEED]</pre>
 */
public final class MasterWorker {
    private MasterWorker() {
    }

    /** What the master measured. */
    public record Result(int size, int workers, double maxError, long parallelNs, long sequentialNs) {
        public boolean verified() {
            return maxError < 1e-9;
        }
    }

    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 384;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 42;
        try (Cluster cluster = Cluster.join()) {
            Result r = run(cluster, size, seed);
            if (r != null) {
                System.out.printf("C = A x B for %dx%d on %d workers: %.1f ms (sequential %.1f ms, speedup %.2f); "
                        + "max |C - C_seq| = %.2e: %s%n", r.size(), r.size(), r.workers(), r.parallelNs() / 1e6,
                    r.sequentialNs() / 1e6, (double) r.sequentialNs() / r.parallelNs(), r.maxError(),
                    r.verified() ? "verified" : "WRONG");
                if (!r.verified()) {
                    System.exit(1);
                }
            }
        }
    }

    /** The SPMD body: the master's result on node 0, {@code null} elsewhere. */
    public static Result run(Cluster cluster, int size, long seed) {
        Result result = null;
        if (cluster.nodeId() == 0) {
            result = master(cluster, size, seed);
        }
        cluster.barrier();
        return result;
    }

    private static Result master(Cluster cluster, int size, long seed) {
        double[][] a = Matrices.random(size, size, seed);
        double[][] b = Matrices.random(size, size, seed + 1);
        int workers = Math.max(1, cluster.size() - 1);
        MatrixWorker[] worker = new MatrixWorker[workers];
        for (int w = 0; w < workers; w++) {
            int node = cluster.size() == 1 ? 0 : w + 1;
            worker[w] = cluster.remoteNew(MatrixWorkerImpl.class, MatrixWorker.class, "matrix-worker-" + w, node);
        }

        long start = System.nanoTime();
        MatrixWorker[] tickets = new MatrixWorker[workers];
        for (int w = 0; w < workers; w++) {
            tickets[w] = AsyncTicket.newTicket(worker[w]);
            tickets[w].multiply(Matrices.rows(a, band(w, workers, size), band(w + 1, workers, size)), b);
        }
        double[][] c = new double[size][];
        for (int w = 0; w < workers; w++) {
            double[][] part = AsyncTicket.getResult(tickets[w]);
            System.arraycopy(part, 0, c, band(w, workers, size), part.length);
        }
        long parallelNs = System.nanoTime() - start;

        long seqStart = System.nanoTime();
        double[][] expected = Matrices.multiply(a, b);
        long sequentialNs = System.nanoTime() - seqStart;
        return new Result(size, workers, Matrices.maxAbsDifference(c, expected), parallelNs, sequentialNs);
    }

    private static int band(int w, int workers, int size) {
        return (int) ((long) w * size / workers);
    }
}
