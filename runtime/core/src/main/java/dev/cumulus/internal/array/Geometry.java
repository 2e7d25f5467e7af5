package dev.cumulus.internal.array;

import dev.cumulus.CumulusException;
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
        if (i < 0 || j < 0 || i >= rows || j >= cols) {
            throw new CumulusException("shared array '" + spec.name() + "': index (" + i + ", " + j
                + ") is outside its bounds 0.." + (rows - 1) + " x 0.." + (cols - 1));
        }
    }

    void checkIndex1(int i) {
        if (rows != 1) {
            throw new CumulusException("shared array '" + spec.name() + "' has " + rows
                + " rows; index it with (i, j), or create it with one row to index it with i alone");
        }
        if (i < 0 || i >= cols) {
            throw new CumulusException("shared array '" + spec.name() + "': index " + i
                + " is outside its bounds 0.." + (cols - 1));
        }
    }

    void checkRegion(int row, int col, int nRows, int nCols, int bufferLength) {
        if (nRows < 0 || nCols < 0 || row < 0 || col < 0 || (long) row + nRows > rows || (long) col + nCols > cols) {
            throw new CumulusException("shared array '" + spec.name() + "': region " + nRows + "x" + nCols + " at ("
                + row + ", " + col + ") is outside its bounds " + rows + "x" + cols);
        }
        if ((long) nRows * nCols > bufferLength) {
            throw new CumulusException("shared array '" + spec.name() + "': region " + nRows + "x" + nCols
                + " needs " + ((long) nRows * nCols) + " elements but the buffer holds " + bufferLength);
        }
    }

    void checkPartition(int p) {
        if (p < 0 || p >= partitions) {
            throw new CumulusException("shared array '" + spec.name() + "': partition " + p
                + " is outside 0.." + (partitions - 1));
        }
    }
}
