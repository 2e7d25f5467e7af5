package dev.cumulus.examples.arrays;

import dev.cumulus.Barrier;
import dev.cumulus.Cluster;
import dev.cumulus.array.ArrayLayout;
import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.SharedDoubleArray;
import java.util.Arrays;

/**
 * A Jacobi stencil on two shared grids: every node updates its band of rows (partitions of whole rows, homed on it)
 * from the old grid into the new one, reading its neighbours' boundary rows through the coherence protocol, then a
 * barrier and the grids swap roles. The boundary is fixed (1 on the top edge, 0 elsewhere). Node 0 compares the
 * result with a sequential run.
 *
 * <pre>cumulus run --nodes 2 -cp examples/target/classes dev.cumulus.examples.arrays.Jacobi [N] [ITERATIONS]</pre>
 */
public final class Jacobi {
    private Jacobi() {
    }

    public record Result(int size, int iterations, long parallelNs, double maxError, double center) {
        public boolean verified() {
            return maxError < 1e-12;
        }
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 128;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        try (Cluster cluster = Cluster.join()) {
            Result r = run(cluster, n, iterations);
            if (r != null) {
                System.out.printf("Jacobi %dx%d, %d iterations on %d nodes: %.1f ms; center %.6f; "
                        + "max |u - u_seq| = %.2e: %s%n", n, n, iterations, cluster.size(), r.parallelNs() / 1e6,
                    r.center(), r.maxError(), r.verified() ? "verified" : "WRONG");
                if (!r.verified()) {
                    System.exit(1);
                }
            }
        }
    }

    public static Result run(Cluster cluster, int n, int iterations) {
        int rowsPerBlock = n / Math.max(1, cluster.size() * 2) > 0 && n % (cluster.size() * 2) == 0
            ? n / (cluster.size() * 2) : 1;
        ArrayShape bands = ArrayShape.of(n, n).blocks(rowsPerBlock, n);
        SharedDoubleArray[] grid = {
            cluster.sharedDoubleArray("jacobi-u-" + n, bands),
            cluster.sharedDoubleArray("jacobi-v-" + n, bands)};
        Barrier sweep = cluster.barrier("jacobi-sweep-" + n);
        ArrayLayout layout = grid[0].layout();
        int lo = layout.nodeStart();
        int hi = layout.nodeEnd();
        double[] top = new double[n];
        Arrays.fill(top, 1.0);
        if (lo == 0) {
            grid[0].writeBlock(0, 0, 1, n, top);
            grid[1].writeBlock(0, 0, 1, n, top);
        }
        sweep.await();
        long start = System.nanoTime();
        for (int it = 0; it < iterations; it++) {
            SharedDoubleArray from = grid[it % 2];
            SharedDoubleArray to = grid[(it + 1) % 2];
            int first = Math.max(1, lo);
            int last = Math.min(n - 1, hi);
            if (first < last) {
                double[] rows = from.readBlock(first - 1, 0, last - first + 2, n);
                double[] out = new double[(last - first) * n];
                for (int i = first; i < last; i++) {
                    int r = i - first + 1;
                    for (int j = 1; j < n - 1; j++) {
                        out[(i - first) * n + j] = 0.25 * (rows[(r - 1) * n + j] + rows[(r + 1) * n + j]
                            + rows[r * n + j - 1] + rows[r * n + j + 1]);
                    }
                }
                to.writeBlock(first, 0, last - first, n, out);
            }
            sweep.await();
        }
        long parallelNs = System.nanoTime() - start;
        Result r = null;
        if (cluster.nodeId() == 0) {
            double[] got = grid[iterations % 2].readBlock(0, 0, n, n);
            double[] expected = sequential(n, iterations);
            double maxError = 0;
            for (int k = 0; k < got.length; k++) {
                maxError = Math.max(maxError, Math.abs(got[k] - expected[k]));
            }
            r = new Result(n, iterations, parallelNs, maxError, got[(n / 2) * n + n / 2]);
        }
        sweep.await();
        return r;
    }

    static double[] sequential(int n, int iterations) {
        double[] u = new double[n * n];
        for (int j = 0; j < n; j++) {
            u[j] = 1.0;
        }
        double[] v = u.clone();
        for (int it = 0; it < iterations; it++) {
            for (int i = 1; i < n - 1; i++) {
                for (int j = 1; j < n - 1; j++) {
                    v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
                }
            }
            double[] t = u;
            u = v;
            v = t;
        }
        return u;
    }
}
