package dev.cumulus.array;

import java.util.Objects;

/**
 * What a shared array looks like: its size, its partition size (the unit of caching and coherence) and how the
 * partitions get home nodes. Immutable; every method that changes something returns a new shape, checked as it is
 * built.
 *
 * <pre>{@code
 * SharedDoubleArray a = cluster.sharedDoubleArray("A", ArrayShape.of(rows, cols).blocks(32, 32));
 * SharedDoubleArray lu = cluster.sharedDoubleArray("LU",
 *     ArrayShape.of(n, n).blocks(32, 32).distribution(Distribution.BLOCK_CYCLIC));
 * SharedLongArray counts = cluster.sharedLongArray("counts", ArrayShape.of(1024));   // 1-D, one band per node
 * SharedIntArray flags = cluster.sharedIntArray("flags", ArrayShape.of(1024).blocks(64));
 * }</pre>
 *
 * <p>{@link #of(int)} is a one-row array, indexed by {@code i} alone as well as by {@code (0, i)}. Partitions must
 * divide the array exactly. Without {@link #blocks}, the array gets one band per node along its first index (rows;
 * the elements of a one-row array): the largest size that divides that dimension and is at most
 * {@code ceil(extent / nodes)}; a band spans all columns. The default distribution is {@link Distribution#BLOCK}.
 *
 * <p>Every node creates a given name with the same shape; default blocks count as the size they resolve to.
 */
public final class ArrayShape {
    private final int rows;
    private final int cols;
    private final int blockRows;
    private final int blockCols;
    private final Distribution distribution;

    private ArrayShape(int rows, int cols, int blockRows, int blockCols, Distribution distribution) {
        this.rows = rows;
        this.cols = cols;
        this.blockRows = blockRows;
        this.blockCols = blockCols;
        this.distribution = distribution;
    }

    /**
     * A one-row array of {@code length} elements with default blocks.
     *
     * @throws IllegalArgumentException if {@code length < 1}
     */
    public static ArrayShape of(int length) {
        if (length < 1) {
            throw new IllegalArgumentException("shared array length " + length + " is empty or negative; give at "
                + "least 1");
        }
        return new ArrayShape(1, length, 0, 0, Distribution.BLOCK);
    }

    /**
     * A {@code rows x cols} array with default blocks.
     *
     * @throws IllegalArgumentException if a dimension is below 1 or the array has more than 2^31-1 elements
     */
    public static ArrayShape of(int rows, int cols) {
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("shared array shape " + rows + "x" + cols + " is empty or negative; "
                + "rows and columns must be at least 1");
        }
        if ((long) rows * cols > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("shared array shape " + rows + "x" + cols + " has "
                + (long) rows * cols + " elements, more than 2^31-1; split the data over several arrays");
        }
        return new ArrayShape(rows, cols, 0, 0, Distribution.BLOCK);
    }

    /**
     * This shape in partitions of {@code blockRows x blockCols} elements.
     *
     * @throws IllegalArgumentException if a partition dimension is below 1, larger than the array's or does not
     *                                  divide it
     */
    public ArrayShape blocks(int blockRows, int blockCols) {
        if (blockRows < 1 || blockCols < 1 || blockRows > rows || blockCols > cols) {
            throw new IllegalArgumentException("shared array partition " + blockRows + "x" + blockCols
                + " must be at least 1x1 and at most the array's " + rows + "x" + cols);
        }
        if (rows % blockRows != 0 || cols % blockCols != 0) {
            throw new IllegalArgumentException("shared array partition " + blockRows + "x" + blockCols
                + " does not divide the array's " + rows + "x" + cols + "; choose a partition size that divides "
                + "each dimension");
        }
        return new ArrayShape(rows, cols, blockRows, blockCols, distribution);
    }

    /**
     * This one-row shape in partitions of {@code blockLength} elements.
     *
     * @throws UnsupportedOperationException if the shape has more than one row (give {@code blocks(rows, cols)})
     * @throws IllegalArgumentException      if {@code blockLength} is below 1, above the length or does not divide it
     */
    public ArrayShape blocks(int blockLength) {
        if (rows != 1) {
            throw new UnsupportedOperationException("shared array shape " + rows + "x" + cols + " has " + rows
                + " rows; give its partition size as blocks(blockRows, blockCols)");
        }
        return blocks(1, blockLength);
    }

    /**
     * This shape with its partitions' home nodes given by {@code distribution}.
     *
     * @throws NullPointerException if {@code distribution} is null
     */
    public ArrayShape distribution(Distribution distribution) {
        Objects.requireNonNull(distribution, "shared array distribution is null; give Distribution.BLOCK or "
            + "Distribution.BLOCK_CYCLIC");
        return new ArrayShape(rows, cols, blockRows, blockCols, distribution);
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    /** Rows per partition, or 0 if {@link #hasBlocks() no blocks were given}. */
    public int blockRows() {
        return blockRows;
    }

    /** Columns per partition, or 0 if {@link #hasBlocks() no blocks were given}. */
    public int blockCols() {
        return blockCols;
    }

    /** Whether {@link #blocks} chose the partition size; otherwise it is one band per node (see above). */
    public boolean hasBlocks() {
        return blockRows > 0;
    }

    public Distribution distribution() {
        return distribution;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArrayShape s && rows == s.rows && cols == s.cols && blockRows == s.blockRows
            && blockCols == s.blockCols && distribution == s.distribution;
    }

    @Override
    public int hashCode() {
        return Objects.hash(rows, cols, blockRows, blockCols, distribution);
    }

    /** {@code 512x512 in 32x32 blocks, BLOCK}, or {@code 512x512 in one band per node, BLOCK}. */
    @Override
    public String toString() {
        return rows + "x" + cols + (hasBlocks() ? " in " + blockRows + "x" + blockCols + " blocks, "
            : " in one band per node, ") + distribution;
    }
}
