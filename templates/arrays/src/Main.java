package {{package}};

import dev.cumulus.Barrier;
import dev.cumulus.Cluster;
import dev.cumulus.array.ArrayLayout;
import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.SharedDoubleArray;

/**
 * C = A × B on distributed shared arrays. A, B and C are {@code cluster.sharedDoubleArray}s split into bands of
 * whole rows, each band with a home node. Every node fills its own rows of A and B, a barrier waits for all of them,
 * every node computes its own rows of C (reading the rows of B that live elsewhere through the coherence protocol), a
 * second barrier waits for C, and node 0 checks C against a sequential product.
 *
 * <pre>cumulus run --nodes {{nodes}} -cp target/classes {{package}}.Main [SIZE] [BLOCK] [SEED]</pre>
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : {{size}};
        int block = args.length > 1 ? Integer.parseInt(args[1]) : Math.max(1, Math.min(16, size));
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 42;
        try (Cluster cluster = Cluster.join()) {
            // collective: every node creates the same arrays and barrier (same names, same shapes)
            ArrayShape bands = ArrayShape.of(size, size).blocks(block, size);   // bands of `block` whole rows
            SharedDoubleArray a = cluster.sharedDoubleArray("A", bands);
            SharedDoubleArray b = cluster.sharedDoubleArray("B", bands);
            SharedDoubleArray c = cluster.sharedDoubleArray("C", bands);
            Barrier stage = cluster.barrier("stage");
            ArrayLayout mine = a.layout();                 // this node's rows: its partitions of A, B and C

            // 1. every node writes its own rows of A and B (the same deterministic matrices on every node)
            double[][] fullA = Matrices.random(size, size, seed);
            double[][] fullB = Matrices.random(size, size, seed + 1);
            for (int i = mine.nodeStart(); i < mine.nodeEnd(); i++) {
                a.writeBlock(i, 0, 1, size, fullA[i]);
                b.writeBlock(i, 0, 1, size, fullB[i]);
            }
            stage.await();

            // 2. every node computes its rows of C from its rows of A and all of B
            long start = System.nanoTime();
            double[][] localB = new double[size][];
            for (int p = 0; p < size; p++) {
                localB[p] = b.readBlock(p, 0, 1, size);   // remote rows come through the array's cache
            }
            for (int i = mine.nodeStart(); i < mine.nodeEnd(); i++) {
                double[] rowA = a.readBlock(i, 0, 1, size);
                c.writeBlock(i, 0, 1, size, Matrices.multiplyRow(rowA, localB));
            }
            stage.await();
            long parallelMs = (System.nanoTime() - start) / 1_000_000;

            // 3. node 0 reads C and checks it against the sequential product
            if (cluster.nodeId() == 0) {
                double[][] result = new double[size][];
                for (int i = 0; i < size; i++) {
                    result[i] = c.readBlock(i, 0, 1, size);
                }
                double error = Matrices.maxAbsDifference(result, Matrices.multiply(fullA, fullB));
                boolean ok = error < 1e-9;
                System.out.printf("C = A x B: %s (%dx%d, row blocks of %d, on %d nodes, %d ms, max error %.1e)%n",
                    ok ? "verified" : "WRONG", size, size, block, cluster.size(), parallelMs, error);
                if (!ok) {
                    System.exit(1);
                }
            }
            stage.await();                                 // nobody leaves while node 0 still reads C
        }
    }
}
