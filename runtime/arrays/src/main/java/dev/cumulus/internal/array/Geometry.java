package dev.cumulus.internal.array;

import dev.cumulus.array.Distribution;

/** Index arithmetic of one array: partitions, offsets inside a partition, home nodes. Immutable. */
final class Geometry {
    final ArraySpec spec;
    final int rows;
    final int cols;
    final int blockRows;
    final int blockCols;
    final int partitionRows;
    final int partitionCols;
    final int partitions;
    final int blockLength;
    final int nodes;
    /** log2 of the block sizes when both are powers of two (fast path), else -1. */
    final int rowShift;
    final int colShift;
    private final int gridRows;
    private final int gridCols;

    Geometry(ArraySpec spec, int nodes) {
        this.spec = spec;
        this.rows = spec.rows();
        this.cols = spec.cols();
        this.blockRows = spec.blockRows();
        this.blockCols = spec.blockCols();
        this.partitionRows = rows / blockRows;
        this.partitionCols = cols / blockCols;
        this.partitions = partitionRows * partitionCols;
        this.blockLength = blockRows * blockCols;
        this.nodes = nodes;
        boolean pow2 = Integer.bitCount(blockRows) == 1 && Integer.bitCount(blockCols) == 1;
        this.rowShift = pow2 ? Integer.numberOfTrailingZeros(blockRows) : -1;
        this.colShift = pow2 ? Integer.numberOfTrailingZeros(blockCols) : -1;
        int gr = (int) Math.sqrt(nodes);
        while (nodes % gr != 0) {
            gr--;
        }
        this.gridRows = gr;
        this.gridCols = nodes / gr;
    }

    int home(int p) {
        checkPartition(p);
        if (spec.distribution() == Distribution.BLOCK) {
            return (int) ((long) p * nodes / partitions);
        }
        if (partitionRows == 1) {
            return p % nodes;
        }
        int pi = p / partitionCols;
        int pj = p % partitionCols;
        return (pi % gridRows) * gridCols + (pj % gridCols);
    }

    int partitionOf(int i, int j) {
        checkIndex(i, j);
        return (i / blockRows) * partitionCols + j / blockCols;
    }

    int firstRow(int p) {
        checkPartition(p);
        return (p / partitionCols) * blockRows;
    }

    int firstCol(int p) {
        checkPartition(p);
        return (p % partitionCols) * blockCols;
    }

    void checkIndex(int i, int j) {
        if (i < 0 || i >= rows) {
            throw outOfBounds("index (" + i + ", " + j + ")", "row " + i, rows, "rows");
        }
        if (j < 0 || j >= cols) {
            throw outOfBounds("index (" + i + ", " + j + ")", "column " + j, cols, "columns");
        }
    }

    void checkIndex1(int i) {
        if (rows != 1) {
            throw new UnsupportedOperationException("shared array '" + spec.name() + "' has " + rows
                + " rows; index it with (i, j), or create it with one row (ArrayShape.of(length)) to index it with i"
                + " alone");
        }
        if (i < 0 || i >= cols) {
            throw new IndexOutOfBoundsException("shared array '" + spec.name() + "': index " + i
                + " out of bounds for length " + cols + " (valid 0.." + (cols - 1) + ")");
        }
    }

    /** A region of {@code nRows x nCols} at {@code (row, col)} to or from a buffer of {@code bufferLength}. */
    void checkRegion(int row, int col, int nRows, int nCols, int bufferLength) {
        if (nRows < 0 || nCols < 0) {
            throw new IndexOutOfBoundsException("shared array '" + spec.name() + "': "
                + region(row, col, nRows, nCols) + " has a negative size; give 0 or more rows and columns");
        }
        if (row < 0 || (long) row + nRows > rows) {
            throw outOfBounds(region(row, col, nRows, nCols), span("row", row, nRows), rows, "rows");
        }
        if (col < 0 || (long) col + nCols > cols) {
            throw outOfBounds(region(row, col, nRows, nCols), span("column", col, nCols), cols, "columns");
        }
        if ((long) nRows * nCols > bufferLength) {
            throw new IndexOutOfBoundsException("shared array '" + spec.name() + "': "
                + region(row, col, nRows, nCols) + " needs " + ((long) nRows * nCols)
                + " elements but the buffer's length is " + bufferLength + "; give a buffer of at least rows * cols elements");
        }
    }

    void checkPartition(int p) {
        if (p < 0 || p >= partitions) {
            throw new IndexOutOfBoundsException("shared array '" + spec.name() + "': partition " + p
                + " out of bounds for " + partitions + " partitions (valid 0.." + (partitions - 1) + ")");
        }
    }

    private static String region(int row, int col, int nRows, int nCols) {
        return "region " + nRows + "x" + nCols + " at (" + row + ", " + col + ")";
    }

    /** {@code rows 3..4}, or {@code row 5} for an empty span. */
    private static String span(String unit, int first, int count) {
        return count <= 1 ? unit + " " + first : unit + "s " + first + ".." + ((long) first + count - 1);
    }

    private IndexOutOfBoundsException outOfBounds(String what, String which, int bound, String unit) {
        return new IndexOutOfBoundsException("shared array '" + spec.name() + "': " + what + " out of bounds: "
            + which + " outside 0.." + (bound - 1) + " (the array is " + rows + "x" + cols + ", " + bound + " "
            + unit + ")");
    }
}
