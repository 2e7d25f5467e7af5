package dev.cumulus.array;

import java.util.concurrent.CompletableFuture;

/**
 * A shared array of {@code float}, created by {@code cluster.sharedFloatArray(name, ArrayShape.of(rows, cols))}.
 *
 * @see SharedArray for consistency, indices, partitions and the exceptions every method throws
 */
public interface SharedFloatArray extends SharedArray {
    /** Element {@code i} of a one-row array. */
    float get(int i);

    /** Element {@code (i, j)}. */
    float get(int i, int j);

    /** Sets element {@code i} of a one-row array. */
    void set(int i, float value);

    /** Sets element {@code (i, j)}. */
    void set(int i, int j, float value);

    /**
     * Copies the {@code rows x cols} region starting at {@code (row, col)} into {@code into} (row-major, length at
     * least {@code rows * cols}); the region may span partitions.
     */
    void readBlock(int row, int col, int rows, int cols, float[] into);

    /** {@link #readBlock(int, int, int, int, float[])} into a new array of {@code rows * cols} elements. */
    float[] readBlock(int row, int col, int rows, int cols);

    /** Writes {@code from} (row-major) into the {@code rows x cols} region starting at {@code (row, col)}. */
    void writeBlock(int row, int col, int rows, int cols, float[] from);

    /** {@link #get(int, int)} without waiting for a miss. */
    CompletableFuture<Float> getAsync(int i, int j);

    /** {@link #set(int, int, float)} without waiting for a miss; a later barrier on this node waits for it. */
    CompletableFuture<Void> setAsync(int i, int j, float value);

    /** {@link #readBlock(int, int, int, int)} without waiting. */
    CompletableFuture<float[]> readBlockAsync(int row, int col, int rows, int cols);

    /** {@link #writeBlock(int, int, int, int, float[])} without waiting ({@code from} is copied first). */
    CompletableFuture<Void> writeBlockAsync(int row, int col, int rows, int cols, float[] from);
}
