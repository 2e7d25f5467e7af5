package dev.cumulus.array;

import java.util.concurrent.CompletableFuture;

/**
 * A shared array of {@code int}, created by {@code cluster.sharedIntArray(name, ArrayShape.of(rows, cols))}.
 *
 * @see SharedArray for consistency, indices, partitions and the exceptions every method throws
 */
public interface SharedIntArray extends SharedArray {
    /** Element {@code i} of a one-row array. */
    int get(int i);

    /** Element {@code (i, j)}. */
    int get(int i, int j);

    /** Sets element {@code i} of a one-row array. */
    void set(int i, int value);

    /** Sets element {@code (i, j)}. */
    void set(int i, int j, int value);

    /**
     * Copies the {@code rows x cols} region starting at {@code (row, col)} into {@code into} (row-major, length at
     * least {@code rows * cols}); the region may span partitions.
     */
    void readBlock(int row, int col, int rows, int cols, int[] into);

    /** {@link #readBlock(int, int, int, int, int[])} into a new array of {@code rows * cols} elements. */
    int[] readBlock(int row, int col, int rows, int cols);

    /** Writes {@code from} (row-major) into the {@code rows x cols} region starting at {@code (row, col)}. */
    void writeBlock(int row, int col, int rows, int cols, int[] from);

    /** {@link #get(int, int)} without waiting for a miss. */
    CompletableFuture<Integer> getAsync(int i, int j);

    /** {@link #set(int, int, int)} without waiting for a miss; a later barrier on this node waits for it. */
    CompletableFuture<Void> setAsync(int i, int j, int value);

    /** {@link #readBlock(int, int, int, int)} without waiting. */
    CompletableFuture<int[]> readBlockAsync(int row, int col, int rows, int cols);

    /** {@link #writeBlock(int, int, int, int, int[])} without waiting ({@code from} is copied first). */
    CompletableFuture<Void> writeBlockAsync(int row, int col, int rows, int cols, int[] from);
}
