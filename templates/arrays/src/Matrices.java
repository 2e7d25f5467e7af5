package {{package}};

import java.util.Random;

/** Dense matrix helpers (row-major {@code double[][]}). */
public final class Matrices {
    private Matrices() {
    }

    static double[][] random(int rows, int cols, long seed) {
        Random r = new Random(seed);
        double[][] m = new double[rows][cols];
        for (double[] row : m) {
            for (int j = 0; j < cols; j++) {
                row[j] = r.nextDouble() - 0.5;
            }
        }
        return m;
    }

    static double[][] multiply(double[][] a, double[][] b) {
        int n = a.length;
        int k = b.length;
        int m = k == 0 ? 0 : b[0].length;
        double[][] c = new double[n][m];
        for (int i = 0; i < n; i++) {
            double[] ci = c[i];
            for (int p = 0; p < k; p++) {
                double aip = a[i][p];
                double[] bp = b[p];
                for (int j = 0; j < m; j++) {
                    ci[j] += aip * bp[j];
                }
            }
        }
        return c;
    }

    /** One row of {@code A × B}: {@code rowA × b}. */
    static double[] multiplyRow(double[] rowA, double[][] b) {
        int m = b.length == 0 ? 0 : b[0].length;
        double[] row = new double[m];
        for (int p = 0; p < rowA.length; p++) {
            double aip = rowA[p];
            double[] bp = b[p];
            for (int j = 0; j < m; j++) {
                row[j] += aip * bp[j];
            }
        }
        return row;
    }

    static double maxAbsDifference(double[][] x, double[][] y) {
        double max = 0;
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < x[i].length; j++) {
                max = Math.max(max, Math.abs(x[i][j] - y[i][j]));
            }
        }
        return max;
    }
}
