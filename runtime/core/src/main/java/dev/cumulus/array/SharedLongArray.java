package dev.cumulus.array;

import java.util.concurrent.CompletableFuture;

/**
 * A shared array of {@code long}, created by {@code cluster.sharedLongArray(name, ArrayShape.of(rows, cols))}.
 *
 * @see SharedArray for consistency, indices, partitions and the exceptions every method throws
 */
public interface SharedLongArray extends SharedArray {
    /** Element {@code i} of a one-row array. */
    long get(int i);

    /** Element {@code (i, j)}. */
    long get(int i, int j);

    /** Sets element {@code i} of a one-row array. */
    void set(int i, long value);

    /** Sets element {@code (i, j)}. */
    void set(int i, int j, long value);

    /**
     * Copies the {@code rows x cols} region starting at {@code (row, col)} into {@code into} (row-major, length at
     * least {@code rows * cols}); the region may span partitions.
     */
    void readBlock(int row, int col, int rows, int cols, long[] into);

    /** {@link #readBlock(int, int, int, int, long[])} into a new array of {@code rows * cols} elements. */
    long[] readBlock(int row, int col, int rows, int cols);

    /** Writes {@code from} (row-major) into the {@code rows x cols} region starting at {@code (row, col)}. */
    void writeBlock(int row, int col, int rows, int cols, long[] from);

    /** {@link #get(int, int)} without waiting for a miss. */
    CompletableFuture<Long> getAsync(int i, int j);

    /** {@link #set(int, int, long)} without waiting for a miss; a later barrier on this node waits for it. */
    CompletableFuture<Void> setAsync(int i, int j, long value);

    /** {@link #readBlock(int, int, int, int)} without waiting. */
    CompletableFuture<long[]> readBlockAsync(int row, int col, int rows, int cols);

    /** {@link #writeBlock(int, int, int, int, long[])} without waiting ({@code from} is copied first). */
    CompletableFuture<Void> writeBlockAsync(int row, int col, int rows, int cols, long[] from);
}
