package dev.cumulus.examples.heat;

/**
 * The heat diffusion problem of Babylon §3: a plate of {@code rows × cols} interior cells, evenly at
 * {@link #INITIAL} degrees, with a constant heat source on each edge (one fixed row or column of cells around the
 * interior: {@link #TOP}, {@link #BOTTOM}, {@link #LEFT}, {@link #RIGHT}). Each Jacobi sweep sets every interior
 * cell to the average of its four neighbours from the previous sweep.
 *
 * <p>The grid is {@code (rows + 2) × (cols + 2)}: row 0 and row {@code rows + 1}, column 0 and column
 * {@code cols + 1} are the fixed edges. Every parallel version relaxes its rows with {@link #relaxRow}, the same
 * arithmetic in the same order as {@link #jacobi}, so a correct run equals the sequential one bit for bit.
 */
public final class HeatGrid {
    public static final double INITIAL = 20.0;
    public static final double TOP = 100.0;
    public static final double BOTTOM = 0.0;
    public static final double LEFT = 75.0;
    public static final double RIGHT = 50.0;

    private HeatGrid() {
    }

    /** The plate before the first sweep: interior at {@link #INITIAL}, edges at their sources' temperature. */
    public static double[][] initial(int rows, int cols) {
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("the plate needs at least one interior cell, not " + rows + "x" + cols);
        }
        double[][] g = new double[rows + 2][cols + 2];
        for (int i = 0; i < rows + 2; i++) {
            for (int j = 0; j < cols + 2; j++) {
                g[i][j] = i == 0 ? TOP : i == rows + 1 ? BOTTOM : j == 0 ? LEFT : j == cols + 1 ? RIGHT : INITIAL;
            }
        }
        return g;
    }

    /**
     * One sweep of one row: {@code out}'s interior cells become the average of their four neighbours in
     * {@code above}, {@code row} and {@code below}; the fixed edge columns are copied.
     */
    public static void relaxRow(double[] above, double[] row, double[] below, double[] out) {
        int last = row.length - 1;
        out[0] = row[0];
        out[last] = row[last];
        for (int j = 1; j < last; j++) {
            out[j] = (above[j] + below[j] + row[j - 1] + row[j + 1]) * 0.25;
        }
    }

    /** The sequential solver: {@code sweeps} Jacobi sweeps of a copy of {@code grid}. */
    public static double[][] jacobi(double[][] grid, int sweeps) {
        double[][] src = copy(grid);
        double[][] dst = copy(grid);
        for (int s = 0; s < sweeps; s++) {
            for (int i = 1; i < src.length - 1; i++) {
                relaxRow(src[i - 1], src[i], src[i + 1], dst[i]);
            }
            double[][] t = src;
            src = dst;
            dst = t;
        }
        return src;
    }

    /** The first interior row of block {@code b} of {@code blocks} (interior rows are 1..rows). */
    public static int firstRow(int b, int blocks, int rows) {
        return 1 + (int) ((long) b * rows / blocks);
    }

    /** Rows {@code from} (inclusive) to {@code to} (exclusive) of {@code grid}, copied. */
    public static double[][] rows(double[][] grid, int from, int to) {
        double[][] r = new double[to - from][];
        for (int i = from; i < to; i++) {
            r[i - from] = grid[i].clone();
        }
        return r;
    }

    public static double[][] copy(double[][] grid) {
        return rows(grid, 0, grid.length);
    }

    /**
     * How {@code actual} differs from {@code expected}: the largest absolute difference and the number of cells that
     * are not bit-for-bit equal (0 when they are identical).
     */
    public static Difference compare(double[][] actual, double[][] expected) {
        if (actual.length != expected.length) {
            return new Difference(Double.POSITIVE_INFINITY, Long.MAX_VALUE);
        }
        double max = 0;
        long differing = 0;
        for (int i = 0; i < expected.length; i++) {
            if (actual[i] == null || actual[i].length != expected[i].length) {
                return new Difference(Double.POSITIVE_INFINITY, Long.MAX_VALUE);
            }
            for (int j = 0; j < expected[i].length; j++) {
                if (Double.doubleToLongBits(actual[i][j]) != Double.doubleToLongBits(expected[i][j])) {
                    differing++;
                    max = Math.max(max, Math.abs(actual[i][j] - expected[i][j]));
                }
            }
        }
        return new Difference(max, differing);
    }

    /** The outcome of {@link #compare}; {@link #exact()} is what the examples call verified. */
    public record Difference(double maxAbs, long cells) {
        public boolean exact() {
            return cells == 0;
        }
    }
}
