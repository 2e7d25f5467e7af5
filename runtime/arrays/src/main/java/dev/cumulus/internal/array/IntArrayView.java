package dev.cumulus.internal.array;

import dev.cumulus.array.CacheState;
import dev.cumulus.array.SharedIntArray;

import java.util.concurrent.CompletableFuture;

/**
 * This node's view of a {@code int} shared array. A read hit is an index check, a load of the partition's copy and
 * an array read.
 */
final class IntArrayView extends ArrayView implements SharedIntArray {
    /** Per partition, the copy a read hit may use, or null (see {@link CacheEntry}). */
    private final int[][] copies;

    IntArrayView(ArrayRuntime runtime, ArrayCoherence coherence) {
        super(runtime, coherence);
        this.copies = (int[][]) coherence.copies;
    }

    @Override
    public int get(int i) {
        check1(i);
        return read(0, i);
    }

    @Override
    public int get(int i, int j) {
        check(i, j);
        return read(i, j);
    }

    private int read(int i, int j) {
        int p = part(i, j);
        int off = offset(i, j);
        int[] d = copies[p];
        if (d != null) {
            hits++;
            return d[off];
        }
        return (Integer) access(p, Access.READ, data -> ((int[]) data)[off]);
    }

    @Override
    public void set(int i, int value) {
        check1(i);
        write(0, i, value);
    }

    @Override
    public void set(int i, int j, int value) {
        check(i, j);
        write(i, j, value);
    }

    private void write(int i, int j, int value) {
        int p = part(i, j);
        int off = offset(i, j);
        CacheEntry e = entries[p];
        synchronized (e) {
            if (e.state() == CacheState.EXCLUSIVE) {
                ((int[]) e.data())[off] = value;
                hits++;
                return;
            }
        }
        access(p, Access.WRITE, data -> {
            ((int[]) data)[off] = value;
            return null;
        });
    }

    @Override
    public void readBlock(int row, int col, int rows, int cols, int[] into) {
        requireBuffer(into, "readBlock");
        readRegion(row, col, rows, cols, into, into.length);
    }

    @Override
    public int[] readBlock(int row, int col, int rows, int cols) {
        checkRegion(row, col, rows, cols);
        int[] into = new int[rows * cols];
        readRegion(row, col, rows, cols, into, into.length);
        return into;
    }

    @Override
    public void writeBlock(int row, int col, int rows, int cols, int[] from) {
        requireBuffer(from, "writeBlock");
        writeRegion(row, col, rows, cols, from, from.length);
    }

    @Override
    public CompletableFuture<Integer> getAsync(int i, int j) {
        check(i, j);
        int p = part(i, j);
        int off = offset(i, j);
        int[] d = copies[p];
        if (d != null) {
            hits++;
            return CompletableFuture.completedFuture(d[off]);
        }
        return accessAsync(p, Access.READ, data -> ((int[]) data)[off]).thenApply(v -> (Integer) v);
    }

    @Override
    public CompletableFuture<Void> setAsync(int i, int j, int value) {
        check(i, j);
        int p = part(i, j);
        int off = offset(i, j);
        return accessAsync(p, Access.WRITE, data -> {
            ((int[]) data)[off] = value;
            return null;
        }).thenApply(v -> null);
    }

    @Override
    public CompletableFuture<int[]> readBlockAsync(int row, int col, int rows, int cols) {
        checkRegion(row, col, rows, cols);
        return async(() -> readBlock(row, col, rows, cols));
    }

    @Override
    public CompletableFuture<Void> writeBlockAsync(int row, int col, int rows, int cols, int[] from) {
        requireBuffer(from, "writeBlockAsync");
        geometry.checkRegion(row, col, rows, cols, from.length);
        int[] copy = from.clone();
        return async(() -> {
            writeBlock(row, col, rows, cols, copy);
            return null;
        });
    }
}
