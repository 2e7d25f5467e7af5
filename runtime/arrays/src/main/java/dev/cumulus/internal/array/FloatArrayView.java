package dev.cumulus.internal.array;

import dev.cumulus.array.CacheState;
import dev.cumulus.array.SharedFloatArray;

import java.util.concurrent.CompletableFuture;

/**
 * This node's view of a {@code float} shared array. A read hit is an index check, a load of the partition's copy and
 * an array read.
 */
final class FloatArrayView extends ArrayView implements SharedFloatArray {
    /** Per partition, the copy a read hit may use, or null (see {@link CacheEntry}). */
    private final float[][] copies;

    FloatArrayView(ArrayRuntime runtime, ArrayCoherence coherence) {
        super(runtime, coherence);
        this.copies = (float[][]) coherence.copies;
    }

    @Override
    public float get(int i) {
        check1(i);
        return read(0, i);
    }

    @Override
    public float get(int i, int j) {
        check(i, j);
        return read(i, j);
    }

    private float read(int i, int j) {
        int p = part(i, j);
        int off = offset(i, j);
        float[] d = copies[p];
        if (d != null) {
            hits++;
            return d[off];
        }
        return (Float) access(p, Access.READ, data -> ((float[]) data)[off]);
    }

    @Override
    public void set(int i, float value) {
        check1(i);
        write(0, i, value);
    }

    @Override
    public void set(int i, int j, float value) {
        check(i, j);
        write(i, j, value);
    }

    private void write(int i, int j, float value) {
        int p = part(i, j);
        int off = offset(i, j);
        CacheEntry e = entries[p];
        synchronized (e) {
            if (e.state() == CacheState.EXCLUSIVE) {
                ((float[]) e.data())[off] = value;
                hits++;
                return;
            }
        }
        access(p, Access.WRITE, data -> {
            ((float[]) data)[off] = value;
            return null;
        });
    }

    @Override
    public void readBlock(int row, int col, int rows, int cols, float[] into) {
        requireBuffer(into, "readBlock");
        readRegion(row, col, rows, cols, into, into.length);
    }

    @Override
    public float[] readBlock(int row, int col, int rows, int cols) {
        checkRegion(row, col, rows, cols);
        float[] into = new float[rows * cols];
        readRegion(row, col, rows, cols, into, into.length);
        return into;
    }

    @Override
    public void writeBlock(int row, int col, int rows, int cols, float[] from) {
        requireBuffer(from, "writeBlock");
        writeRegion(row, col, rows, cols, from, from.length);
    }

    @Override
    public CompletableFuture<Float> getAsync(int i, int j) {
        check(i, j);
        int p = part(i, j);
        int off = offset(i, j);
        float[] d = copies[p];
        if (d != null) {
            hits++;
            return CompletableFuture.completedFuture(d[off]);
        }
        return accessAsync(p, Access.READ, data -> ((float[]) data)[off]).thenApply(v -> (Float) v);
    }

    @Override
    public CompletableFuture<Void> setAsync(int i, int j, float value) {
        check(i, j);
        int p = part(i, j);
        int off = offset(i, j);
        return accessAsync(p, Access.WRITE, data -> {
            ((float[]) data)[off] = value;
            return null;
        }).thenApply(v -> null);
    }

    @Override
    public CompletableFuture<float[]> readBlockAsync(int row, int col, int rows, int cols) {
        checkRegion(row, col, rows, cols);
        return async(() -> readBlock(row, col, rows, cols));
    }

    @Override
    public CompletableFuture<Void> writeBlockAsync(int row, int col, int rows, int cols, float[] from) {
        requireBuffer(from, "writeBlockAsync");
        geometry.checkRegion(row, col, rows, cols, from.length);
        float[] copy = from.clone();
        return async(() -> {
            writeBlock(row, col, rows, cols, copy);
            return null;
        });
    }
}
