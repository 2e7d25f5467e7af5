package dev.cumulus.examples.matmul;

import java.util.Arrays;
import java.util.SplittableRandom;

/** The sequential kernel both the master-worker and the baseline use. */
public final class Matrices {
    private Matrices() {
    }

    /** {@code a × b}, i-k-j loop order (streams rows of b). */
    public static double[][] multiply(double[][] a, double[][] b) {
        int n = a.length;
        int m = b.length;
        int p = b[0].length;
        double[][] c = new double[n][p];
        for (int i = 0; i < n; i++) {
            double[] ci = c[i];
            for (int k = 0; k < m; k++) {
                double aik = a[i][k];
                double[] bk = b[k];
                for (int j = 0; j < p; j++) {
                    ci[j] += aik * bk[j];
                }
            }
        }
        return c;
    }

    public static double[][] random(int rows, int cols, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] m = new double[rows][cols];
        for (double[] row : m) {
            for (int j = 0; j < cols; j++) {
                row[j] = r.nextDouble(-1, 1);
            }
        }
        return m;
    }

    public static double maxAbsDifference(double[][] x, double[][] y) {
        double max = 0;
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < x[i].length; j++) {
                max = Math.max(max, Math.abs(x[i][j] - y[i][j]));
            }
        }
        return max;
    }

    public static double[][] rows(double[][] m, int from, int to) {
        return Arrays.copyOfRange(m, from, to);
    }
}
