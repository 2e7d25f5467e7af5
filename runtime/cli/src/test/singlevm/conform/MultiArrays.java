package conform;

/**
 * Multi-dimensional and jagged arrays: a {@code long[][]} and an {@code int[][][]} made by main in one
 * {@code new}, rows of a jagged array allocated by threads on other nodes, a {@code Object[][]} of program objects;
 * every thread writes its own rows, main sums after join.
 */
final class MultiArrays implements Conform.Case {
    record P(int x, int y) {
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        long[][] grid = new long[6][7];
        int[][][] cube = new int[3][4][5];
        double[][] jagged = new double[6][];
        P[][] points = new P[6][];
        int n = 3;
        Thread[] ts = new Thread[n];
        for (int k = 0; k < n; k++) {
            int me = k;
            ts[k] = new Thread(() -> {
                for (int r = me; r < grid.length; r += n) {
                    for (int c = 0; c < grid[r].length; c++) {
                        grid[r][c] = (long) r * 100 + c;
                    }
                    jagged[r] = new double[r + 1];
                    for (int c = 0; c <= r; c++) {
                        jagged[r][c] = r + c / 4.0;
                    }
                    points[r] = new P[r % 3 + 1];
                    for (int c = 0; c < points[r].length; c++) {
                        points[r][c] = new P(r, c);
                    }
                }
                int[][] plane = cube[me];
                for (int y = 0; y < plane.length; y++) {
                    for (int z = 0; z < plane[y].length; z++) {
                        plane[y][z] = me * 100 + y * 10 + z;
                    }
                }
            });
        }
        Conform.startJoin(ts);
        long g = 0;
        for (long[] row : grid) {
            for (long v : row) {
                g += v;
            }
        }
        long c3 = 0;
        for (int[][] plane : cube) {
            for (int[] row : plane) {
                for (int v : row) {
                    c3 = c3 * 31 + v;
                }
            }
        }
        StringBuilder j = new StringBuilder();
        for (double[] row : jagged) {
            double s = 0;
            for (double v : row) {
                s += v;
            }
            j.append(row.length).append(':').append(s).append(' ');
        }
        StringBuilder p = new StringBuilder();
        for (P[] row : points) {
            p.append(row[row.length - 1]).append(' ');
        }
        out.println("grid=" + g + " cube=" + c3 + " class=" + cube.getClass().getSimpleName() + " "
            + cube[2][3].length);
        out.println("jagged " + j.toString().trim());
        out.println("points " + p.toString().trim());
    }
}
