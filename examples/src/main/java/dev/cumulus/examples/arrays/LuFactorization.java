package dev.cumulus.examples.arrays;

import dev.cumulus.Barrier;
import dev.cumulus.Cluster;
import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.Distribution;
import dev.cumulus.array.SharedDoubleArray;

/**
 * DSA §4.5.1: LU factorization (no pivoting, of a diagonally dominant matrix) on a shared array with a
 * two-dimensional block-cyclic distribution, owner computes: at step k the home of each partition scales its part of
 * column k, a barrier, then updates its part of the trailing submatrix, a barrier. Partitions of the shrinking active
 * region stay spread over all nodes, which is why block-cyclic balances LU. L (unit diagonal, below) and U (on and
 * above the diagonal) overwrite A; node 0 checks L x U against the original.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.arrays.LuFactorization [N] [BLOCK]</pre>
 */
public final class LuFactorization {
    private LuFactorization() {
    }

    public record Result(int size, int block, long parallelNs, double maxError) {
        public boolean verified() {
            return maxError < 1e-8;
        }
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 96;
        int block = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        try (Cluster cluster = Cluster.join()) {
            Result r = run(cluster, n, block);
            if (r != null) {
                System.out.printf("LU of %dx%d, %dx%d block-cyclic partitions on %d nodes: %.1f ms; "
                        + "max |LU - A| = %.2e: %s%n", n, n, block, block, cluster.size(), r.parallelNs() / 1e6,
                    r.maxError(), r.verified() ? "verified" : "WRONG");
                if (!r.verified()) {
                    System.exit(1);
                }
            }
        }
    }

    static double original(int i, int j, int n) {
        return i == j ? n + 1.0 : ((i * 13 + j * 7) % 11) / 11.0;
    }

    public static Result run(Cluster cluster, int n, int block) {
        int me = cluster.nodeId();
        SharedDoubleArray a = cluster.sharedDoubleArray("lu-" + n + "-" + block,
            ArrayShape.of(n, n).blocks(block, block).distribution(Distribution.BLOCK_CYCLIC));
        Barrier step = cluster.barrier("lu-step-" + n + "-" + block);
        for (int p = 0; p < a.partitions(); p++) {
            if (a.homeOf(p) == me) {
                int r0 = a.firstRowOf(p);
                int c0 = a.firstColOf(p);
                double[] data = new double[block * block];
                for (int i = 0; i < block; i++) {
                    for (int j = 0; j < block; j++) {
                        data[i * block + j] = original(r0 + i, c0 + j, n);
                    }
                }
                a.writeBlock(r0, c0, block, block, data);
            }
        }
        step.await();
        long start = System.nanoTime();
        for (int k = 0; k < n - 1; k++) {
            double pivot = a.get(k, k);
            for (int i = k + 1; i < n; i++) {
                if (a.homeOf(a.partitionOf(i, k)) == me) {
                    a.set(i, k, a.get(i, k) / pivot);
                }
            }
            step.await();
            for (int i = k + 1; i < n; i++) {
                for (int j = k + 1; j < n; j++) {
                    if (a.homeOf(a.partitionOf(i, j)) == me) {
                        a.set(i, j, a.get(i, j) - a.get(i, k) * a.get(k, j));
                    }
                }
            }
            step.await();
        }
        long parallelNs = System.nanoTime() - start;
        Result r = null;
        if (me == 0) {
            double[] lu = a.readBlock(0, 0, n, n);
            double maxError = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double sum = 0;
                    for (int k = 0; k <= Math.min(i, j); k++) {
                        double l = k == i ? 1 : lu[i * n + k];
                        sum += l * lu[k * n + j];
                    }
                    maxError = Math.max(maxError, Math.abs(sum - original(i, j, n)));
                }
            }
            r = new Result(n, block, parallelNs, maxError);
        }
        step.await();
        return r;
    }
}
