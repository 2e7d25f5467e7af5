package dev.cumulus.internal.array;

import dev.cumulus.array.CacheState;
import dev.cumulus.array.SharedLongArray;

import java.util.concurrent.CompletableFuture;

/**
 * This node's view of a {@code long} shared array. A read hit is an index check, a load of the partition's copy and
 * an array read.
 */
final class LongArrayView extends ArrayView implements SharedLongArray {
    /** Per partition, the copy a read hit may use, or null (see {@link CacheEntry}). */
    private final long[][] copies;

    LongArrayView(ArrayRuntime runtime, ArrayCoherence coherence) {
        super(runtime, coherence);
        this.copies = (long[][]) coherence.copies;
    }

    @Override
    public long get(int i) {
        check1(i);
        return read(0, i);
    }

    @Override
    public long get(int i, int j) {
        check(i, j);
        return read(i, j);
    }

    private long read(int i, int j) {
        int p = part(i, j);
        int off = offset(i, j);
        long[] d = copies[p];
        if (d != null) {
            hits++;
            return d[off];
        }
        return (Long) access(p, Access.READ, data -> ((long[]) data)[off]);
    }

    @Override
    public void set(int i, long value) {
        check1(i);
        write(0, i, value);
    }

    @Override
    public void set(int i, int j, long value) {
        check(i, j);
        write(i, j, value);
    }

    private void write(int i, int j, long value) {
        int p = part(i, j);
        int off = offset(i, j);
        CacheEntry e = entries[p];
        synchronized (e) {
            if (e.state() == CacheState.EXCLUSIVE) {
                ((long[]) e.data())[off] = value;
                hits++;
                return;
            }
        }
        access(p, Access.WRITE, data -> {
            ((long[]) data)[off] = value;
            return null;
        });
    }

    @Override
    public void readBlock(int row, int col, int rows, int cols, long[] into) {
        requireBuffer(into, "readBlock");
        readRegion(row, col, rows, cols, into, into.length);
    }

    @Override
    public long[] readBlock(int row, int col, int rows, int cols) {
        checkRegion(row, col, rows, cols);
        long[] into = new long[rows * cols];
        readRegion(row, col, rows, cols, into, into.length);
        return into;
    }

    @Override
    public void writeBlock(int row, int col, int rows, int cols, long[] from) {
        requireBuffer(from, "writeBlock");
        writeRegion(row, col, rows, cols, from, from.length);
    }

    @Override
    public CompletableFuture<Long> getAsync(int i, int j) {
        check(i, j);
        int p = part(i, j);
        int off = offset(i, j);
        long[] d = copies[p];
        if (d != null) {
            hits++;
            return CompletableFuture.completedFuture(d[off]);
        }
        return accessAsync(p, Access.READ, data -> ((long[]) data)[off]).thenApply(v -> (Long) v);
    }

    @Override
    public CompletableFuture<Void> setAsync(int i, int j, long value) {
        check(i, j);
        int p = part(i, j);
        int off = offset(i, j);
        return accessAsync(p, Access.WRITE, data -> {
            ((long[]) data)[off] = value;
            return null;
        }).thenApply(v -> null);
    }

    @Override
    public CompletableFuture<long[]> readBlockAsync(int row, int col, int rows, int cols) {
        checkRegion(row, col, rows, cols);
        return async(() -> readBlock(row, col, rows, cols));
    }

    @Override
    public CompletableFuture<Void> writeBlockAsync(int row, int col, int rows, int cols, long[] from) {
        requireBuffer(from, "writeBlockAsync");
        geometry.checkRegion(row, col, rows, cols, from.length);
        long[] copy = from.clone();
        return async(() -> {
            writeBlock(row, col, rows, cols, copy);
            return null;
        });
    }
}
