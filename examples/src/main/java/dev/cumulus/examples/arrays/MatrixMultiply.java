package dev.cumulus.examples.arrays;

import dev.cumulus.Barrier;
import dev.cumulus.Cluster;
import dev.cumulus.array.ArrayLayout;
import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.SharedDoubleArray;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * DSA Figure 3: C = A x B on shared arrays, rows split over every worker thread of every node with the array's
 * layout ({@code startingIndexAtThread}/{@code maxIndexAtThread}), inner products read with the sequential program's
 * indices. Each node initializes its own rows of A and B, a tree barrier starts the workers together, and node 0
 * checks C against a sequential product.
 *
 * <pre>cumulus run --nodes 2 -cp examples/target/classes dev.cumulus.examples.arrays.MatrixMultiply [N] [BLOCK] [THREADS]</pre>
 */
public final class MatrixMultiply {
    private MatrixMultiply() {
    }

    /** What node 0 measured; {@code maxError} compares with the sequential product. */
    public record Result(int size, int block, int threadsPerNode, long parallelNs, double maxError) {
        public boolean verified() {
            return maxError < 1e-9;
        }
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 128;
        int block = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        try (Cluster cluster = Cluster.join()) {
            Result r = run(cluster, n, block, threads);
            if (r != null) {
                System.out.printf("C = A x B, %dx%d in %dx%d partitions, %d threads per node: %.1f ms; "
                        + "max |C - C_seq| = %.2e: %s%n", n, n, block, block, threads, r.parallelNs() / 1e6,
                    r.maxError(), r.verified() ? "verified" : "WRONG");
                if (!r.verified()) {
                    System.exit(1);
                }
            }
        }
    }

    static double a(int i, int j) {
        return ((i * 31 + j * 17) % 23) / 23.0 - 0.5;
    }

    static double b(int i, int j) {
        return ((i * 7 + j * 29) % 19) / 19.0 - 0.5;
    }

    /** The SPMD body: node 0's result, {@code null} elsewhere. */
    public static Result run(Cluster cluster, int n, int block, int threadsPerNode) throws InterruptedException {
        String tag = n + "x" + block + "x" + threadsPerNode;
        ArrayShape bands = ArrayShape.of(n, n).blocks(block, n);
        SharedDoubleArray matrixA = cluster.sharedDoubleArray("mm-A-" + tag, bands);
        SharedDoubleArray matrixB = cluster.sharedDoubleArray("mm-B-" + tag, bands);
        SharedDoubleArray result = cluster.sharedDoubleArray("mm-C-" + tag, bands);
        Barrier stage = cluster.barrier("mm-stage-" + tag, threadsPerNode);
        ArrayLayout layout = matrixA.layout(threadsPerNode);
        // every node initializes its own rows (whole-row partitions: a row band lives on its home)
        for (int i = layout.nodeStart(); i < layout.nodeEnd(); i++) {
            double[] rowA = new double[n];
            double[] rowB = new double[n];
            for (int j = 0; j < n; j++) {
                rowA[j] = a(i, j);
                rowB[j] = b(i, j);
            }
            matrixA.writeBlock(i, 0, 1, n, rowA);
            matrixB.writeBlock(i, 0, 1, n, rowB);
        }
        long[] start = new long[1];
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        for (int t = 0; t < threadsPerNode; t++) {
            int me = t;
            workers.add(Thread.ofPlatform().name("mm-worker-" + cluster.nodeId() + "-" + t).start(() -> {
                try {
                    stage.await(); // all threads across the nodes start together
                    if (me == 0) {
                        start[0] = System.nanoTime();
                    }
                    double[] column = new double[n];
                    for (int i = layout.startingIndexAtThread(me); i < layout.maxIndexAtThread(me); i++) {
                        double[] rowA = matrixA.readBlock(i, 0, 1, n);
                        double[] rowC = new double[n];
                        for (int j = 0; j < n; j++) {
                            matrixB.readBlock(0, j, n, 1, column);
                            double sum = 0;
                            for (int k = 0; k < n; k++) {
                                sum += rowA[k] * column[k];
                            }
                            rowC[j] = sum;
                        }
                        result.writeBlock(i, 0, 1, n, rowC);
                    }
                    stage.await();
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a worker failed", failures.getFirst());
        }
        long parallelNs = System.nanoTime() - start[0];
        Result r = null;
        if (cluster.nodeId() == 0) {
            double maxError = 0;
            for (int i = 0; i < n; i++) {
                double[] row = result.readBlock(i, 0, 1, n);
                for (int j = 0; j < n; j++) {
                    double expected = 0;
                    for (int k = 0; k < n; k++) {
                        expected += a(i, k) * b(k, j);
                    }
                    maxError = Math.max(maxError, Math.abs(row[j] - expected));
                }
            }
            r = new Result(n, block, threadsPerNode, parallelNs, maxError);
        }
        cluster.barrier();
        return r;
    }
}
