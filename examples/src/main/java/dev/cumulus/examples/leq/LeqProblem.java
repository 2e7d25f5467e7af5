package dev.cumulus.examples.leq;

import java.util.SplittableRandom;

/**
 * The part of LEQ all three versions share (Manta §4.5): a random, strictly diagonally dominant system {@code Ax = b},
 * one Jacobi sweep over a block of rows, and the sequential Jacobi solver the results are checked against.
 *
 * <p>Row {@code i} is drawn from its own random stream (seed and {@code i}), so a node can make just its own rows.
 * Off-diagonal entries are uniform in [0, 1); the diagonal is twice their sum plus one, so Jacobi converges by about a
 * factor 2 per sweep (some 40 sweeps to the step tolerance; with entries of both signs it would take far fewer).
 */
public final class LeqProblem {
    /** Jacobi stops when no component of x moved by this much or more in the last sweep. */
    public static final double STEP_TOLERANCE = 1e-12;
    /** A solution is accepted when {@code max |Ax - b|} is below this. */
    public static final double RESIDUAL_TOLERANCE = 1e-8;
    /** A result must match sequential Jacobi this closely, component by component. */
    public static final double MATCH_TOLERANCE = 1e-9;
    public static final int MAX_SWEEPS = 1000;

    private final int n;
    private final long seed;

    public LeqProblem(int n, long seed) {
        this.n = n;
        this.seed = seed;
    }

    public int size() {
        return n;
    }

    /** Row {@code i} of A followed by b[i] in the last slot. */
    private double[] equation(int i) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
        double[] e = new double[n + 1];
        double off = 0;
        for (int j = 0; j < n; j++) {
            if (j != i) {
                e[j] = random.nextDouble();
                off += Math.abs(e[j]);
            }
        }
        e[i] = 2 * off + 1;
        e[n] = random.nextDouble(-1, 1) * n;
        return e;
    }

    /** Equations {@code from} (inclusive) to {@code to} (exclusive): row of A, then b, in each. */
    public double[][] equations(int from, int to) {
        double[][] rows = new double[to - from][];
        for (int i = from; i < to; i++) {
            rows[i - from] = equation(i);
        }
        return rows;
    }

    /** The first equation of node {@code node}'s block. */
    public static int firstRow(int node, int nodes, int n) {
        return (int) ((long) node * n / nodes);
    }

    /**
     * One Jacobi sweep over a block of equations starting at row {@code first}: writes the new components into
     * {@code out} and returns the largest change of a component.
     */
    public static double sweep(double[][] equations, int first, double[] x, double[] out) {
        int n = x.length;
        double change = 0;
        for (int r = 0; r < equations.length; r++) {
            double[] e = equations[r];
            int i = first + r;
            double sum = 0;
            for (int j = 0; j < n; j++) {
                if (j != i) {
                    sum += e[j] * x[j];
                }
            }
            double next = (e[n] - sum) / e[i];
            change = Math.max(change, Math.abs(next - x[i]));
            out[r] = next;
        }
        return change;
    }

    /** A solution and the number of sweeps it took. */
    public record Solution(double[] x, int sweeps) {
    }

    /** Sequential Jacobi from x = 0 with the same stopping rule as the parallel versions. */
    public Solution solveSequentially() {
        double[][] all = equations(0, n);
        double[] x = new double[n];
        for (int sweep = 1; ; sweep++) {
            double[] next = new double[n];
            double change = sweep(all, 0, x, next);
            x = next;
            if (change < STEP_TOLERANCE || sweep == MAX_SWEEPS) {
                return new Solution(x, sweep);
            }
        }
    }

    /** {@code max |Ax - b|}. */
    public double residual(double[] x) {
        double worst = 0;
        for (int i = 0; i < n; i++) {
            double[] e = equation(i);
            double ax = 0;
            for (int j = 0; j < n; j++) {
                ax += e[j] * x[j];
            }
            worst = Math.max(worst, Math.abs(ax - e[n]));
        }
        return worst;
    }
}
