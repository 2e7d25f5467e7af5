package dev.cumulus.examples.jacobi;

/**
 * The two grids of a Jacobi relaxation, {@code n} by {@code n} each, as arrays of rows: sweep {@code k} reads grid
 * {@code k % 2} and writes grid {@code (k + 1) % 2}. The boundary (first and last row and column) is fixed: the top
 * row is 1, the rest 0. Rows are set by whoever {@link #makeRow makes} them (a sweeper, for its band).
 */
final class Grid {
    final int n;
    final double[][][] grids;

    Grid(int n) {
        if (n < 3) {
            throw new IllegalArgumentException("a grid needs at least 3 rows, got " + n);
        }
        this.n = n;
        this.grids = new double[][][] {new double[n][], new double[n][]};
    }

    /** Makes row {@code r} of both grids with its boundary values. */
    void makeRow(int r) {
        for (double[][] g : grids) {
            double[] row = new double[n];
            for (int c = 0; r == 0 && c < n; c++) {
                row[c] = 1.0; // a loop, not Arrays.fill: the program's own stores are the ones the single VM tracks
            }
            g[r] = row;
        }
    }

    /** One sweep of rows {@code from} (inclusive) to {@code to} (exclusive) of grid {@code src % 2} into the other. */
    void sweep(int sweep, int from, int to) {
        double[][] src = grids[sweep % 2];
        double[][] dst = grids[(sweep + 1) % 2];
        for (int r = Math.max(1, from); r < Math.min(n - 1, to); r++) {
            double[] up = src[r - 1];
            double[] row = src[r];
            double[] down = src[r + 1];
            double[] out = dst[r];
            for (int c = 1; c < n - 1; c++) {
                out[c] = 0.25 * (up[c] + down[c] + row[c - 1] + row[c + 1]);
            }
        }
    }

    /** The grid after {@code sweeps} sweeps. */
    double[][] result(int sweeps) {
        return grids[sweeps % 2];
    }
}
