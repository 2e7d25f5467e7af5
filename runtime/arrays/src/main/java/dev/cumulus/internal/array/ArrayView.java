package dev.cumulus.internal.array;

import dev.cumulus.array.ArrayLayout;
import dev.cumulus.array.CacheState;
import dev.cumulus.array.Distribution;
import dev.cumulus.array.SharedArray;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * This node's view of one shared array: index arithmetic, the hit paths shared by the typed views, region copies,
 * and the counters behind the summary event. Typed subclasses add get/set for their element type.
 */
abstract sealed class ArrayView implements SharedArray
    permits DoubleArrayView, FloatArrayView, LongArrayView, IntArrayView {
    final ArrayRuntime runtime;
    final Geometry geometry;
    final ArrayCoherence coherence;
    final CacheEntry[] entries;
    final int rows;
    final int cols;
    final int blockRows;
    final int blockCols;
    final int partitionCols;
    final int rowShift;
    final int colShift;
    final int rowMask;
    final int colMask;
    final LongAdder readMisses = new LongAdder();
    final LongAdder writeMisses = new LongAdder();
    final LongAdder bytesMoved = new LongAdder();
    final LongAdder invalidations = new LongAdder();
    /** Hits on this node, counted without synchronization (approximate under contention; read by the summary). */
    long hits;
    long reportedHits;
    long reportedReadMisses;
    long reportedWriteMisses;
    long reportedBytes;
    long reportedInvalidations;

    ArrayView(ArrayRuntime runtime, ArrayCoherence coherence) {
        this.runtime = runtime;
        this.coherence = coherence;
        this.geometry = coherence.geometry;
        this.entries = coherence.entries;
        this.rows = geometry.rows;
        this.cols = geometry.cols;
        this.blockRows = geometry.blockRows;
        this.blockCols = geometry.blockCols;
        this.partitionCols = geometry.partitionCols;
        this.rowShift = geometry.rowShift;
        this.colShift = geometry.colShift;
        this.rowMask = blockRows - 1;
        this.colMask = blockCols - 1;
    }

    ArraySpec spec() {
        return geometry.spec;
    }

    // ---------------------------------------------------------------- index arithmetic (hot)

    final void check(int i, int j) {
        if (i < 0 || j < 0 || i >= rows || j >= cols) {
            geometry.checkIndex(i, j);
        }
    }

    final void check1(int i) {
        if (rows != 1 || i < 0 || i >= cols) {
            geometry.checkIndex1(i);
        }
    }

    /** Checks a region of this array without a buffer (the caller allocates one of {@code nRows * nCols}). */
    final void checkRegion(int row, int col, int nRows, int nCols) {
        geometry.checkRegion(row, col, nRows, nCols, Integer.MAX_VALUE);
    }

    final void requireBuffer(Object buffer, String method) {
        if (buffer == null) {
            throw new NullPointerException("shared array '" + name() + "': " + method + "'s buffer is null; give an "
                + "array of at least rows * cols elements");
        }
    }

    final int part(int i, int j) {
        if (rowShift >= 0) {
            return (i >>> rowShift) * partitionCols + (j >>> colShift);
        }
        return (i / blockRows) * partitionCols + j / blockCols;
    }

    final int offset(int i, int j) {
        if (rowShift >= 0) {
            return ((i & rowMask) << colShift) | (j & colMask);
        }
        return (i % blockRows) * blockCols + j % blockCols;
    }

    /** Slow path: waits for the access to run on this node's copy. */
    final Object access(int p, Access a, Function<Object, Object> body) {
        return runtime.access(this, p, a, body);
    }

    final CompletableFuture<Object> accessAsync(int p, Access a, Function<Object, Object> body) {
        return runtime.accessAsync(this, p, a, body);
    }

    // ---------------------------------------------------------------- regions

    /** Copies a region into {@code into} (a primitive array of this kind). */
    final void readRegion(int row, int col, int nRows, int nCols, Object into, int intoLength) {
        geometry.checkRegion(row, col, nRows, nCols, intoLength);
        forEachPartition(row, col, nRows, nCols, (p, r0, c0, r1, c1) -> {
            CacheEntry e = entries[p];
            Object d = e.readable();
            if (d != null) {
                hits++;
                copyOut(d, p, r0, c0, r1, c1, row, col, nCols, into);
            } else {
                access(p, Access.READ, data -> {
                    copyOut(data, p, r0, c0, r1, c1, row, col, nCols, into);
                    return null;
                });
            }
        });
    }

    /** Writes a region from {@code from}. */
    final void writeRegion(int row, int col, int nRows, int nCols, Object from, int fromLength) {
        geometry.checkRegion(row, col, nRows, nCols, fromLength);
        forEachPartition(row, col, nRows, nCols, (p, r0, c0, r1, c1) -> {
            CacheEntry e = entries[p];
            synchronized (e) {
                if (e.state() == CacheState.EXCLUSIVE) {
                    hits++;
                    copyIn(e.data(), p, r0, c0, r1, c1, row, col, nCols, from);
                    return;
                }
            }
            access(p, Access.WRITE, data -> {
                copyIn(data, p, r0, c0, r1, c1, row, col, nCols, from);
                return null;
            });
        });
    }

    private interface PartitionRegion {
        void accept(int p, int r0, int c0, int r1, int c1);
    }

    private void forEachPartition(int row, int col, int nRows, int nCols, PartitionRegion action) {
        if (nRows == 0 || nCols == 0) {
            return;
        }
        int pr0 = row / blockRows;
        int pr1 = (row + nRows - 1) / blockRows;
        int pc0 = col / blockCols;
        int pc1 = (col + nCols - 1) / blockCols;
        for (int pr = pr0; pr <= pr1; pr++) {
            int r0 = Math.max(row, pr * blockRows);
            int r1 = Math.min(row + nRows, (pr + 1) * blockRows);
            for (int pc = pc0; pc <= pc1; pc++) {
                int c0 = Math.max(col, pc * blockCols);
                int c1 = Math.min(col + nCols, (pc + 1) * blockCols);
                action.accept(pr * partitionCols + pc, r0, c0, r1, c1);
            }
        }
    }

    private void copyOut(Object data, int p, int r0, int c0, int r1, int c1, int row, int col, int nCols, Object into) {
        int pRow = (p / partitionCols) * blockRows;
        int pCol = (p % partitionCols) * blockCols;
        for (int r = r0; r < r1; r++) {
            System.arraycopy(data, (r - pRow) * blockCols + (c0 - pCol), into, (r - row) * nCols + (c0 - col), c1 - c0);
        }
    }

    private void copyIn(Object data, int p, int r0, int c0, int r1, int c1, int row, int col, int nCols, Object from) {
        int pRow = (p / partitionCols) * blockRows;
        int pCol = (p % partitionCols) * blockCols;
        for (int r = r0; r < r1; r++) {
            System.arraycopy(from, (r - row) * nCols + (c0 - col), data, (r - pRow) * blockCols + (c0 - pCol), c1 - c0);
        }
    }

    final <T> CompletableFuture<T> async(Supplier<T> task) {
        return runtime.async(task);
    }

    // ---------------------------------------------------------------- SharedArray

    @Override
    public String name() {
        return geometry.spec.name();
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public int blockRows() {
        return blockRows;
    }

    @Override
    public int blockCols() {
        return blockCols;
    }

    @Override
    public Distribution distribution() {
        return geometry.spec.distribution();
    }

    @Override
    public int partitions() {
        return geometry.partitions;
    }

    @Override
    public int partitionOf(int i) {
        geometry.checkIndex1(i);
        return geometry.partitionOf(0, i);
    }

    @Override
    public int partitionOf(int i, int j) {
        return geometry.partitionOf(i, j);
    }

    @Override
    public int firstRowOf(int partition) {
        return geometry.firstRow(partition);
    }

    @Override
    public int firstColOf(int partition) {
        return geometry.firstCol(partition);
    }

    @Override
    public int homeOf(int partition) {
        return geometry.home(partition);
    }

    @Override
    public CacheState cacheState(int partition) {
        geometry.checkPartition(partition);
        return entries[partition].stateNow();
    }

    @Override
    public void requestPartitionCopy(int partition) {
        geometry.checkPartition(partition);
        if (entries[partition].readable() == null) {
            access(partition, Access.READ, d -> null);
        }
    }

    @Override
    public void acquirePartition(int partition) {
        geometry.checkPartition(partition);
        access(partition, Access.WRITE, d -> null);
    }

    @Override
    public CompletableFuture<Void> requestPartitionCopyAsync(int partition) {
        geometry.checkPartition(partition);
        return accessAsync(partition, Access.READ, d -> null).thenApply(x -> null);
    }

    @Override
    public CompletableFuture<Void> acquirePartitionAsync(int partition) {
        geometry.checkPartition(partition);
        return accessAsync(partition, Access.WRITE, d -> null).thenApply(x -> null);
    }

    @Override
    public ArrayLayout layout(int threadsPerNode) {
        return rows == 1
            ? new ArrayLayout(coherence.self, geometry.nodes, threadsPerNode, cols, blockCols)
            : new ArrayLayout(coherence.self, geometry.nodes, threadsPerNode, rows, blockRows);
    }

    @Override
    public String toString() {
        return "SharedArray '" + name() + "' " + geometry.spec.describe() + " on node " + coherence.self;
    }
}
