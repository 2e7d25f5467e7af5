package dev.cumulus.examples.jacobi;

/**
 * Jacobi relaxation of the Laplace equation on an N by N grid (top edge 1, other edges 0) by THREADS threads, each
 * owning a band of rows, meeting at a barrier built from a monitor after every sweep. Plain Java threads and monitors:
 * run it with {@code java} or, unchanged, with {@code cumulus run --single-vm --nodes K}. Checks its result against a
 * sequential relaxation (the same arithmetic, so the grids must be equal bit for bit) and prints a checksum; exits
 * with an exception if they differ.
 *
 * <p>Usage: {@code Jacobi [N [SWEEPS [THREADS]]]} (defaults: 128, 100, 4).
 */
public final class Jacobi {
    private Jacobi() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 128;
        int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        if (threads < 1 || threads > n) {
            throw new IllegalArgumentException("THREADS must be 1.." + n + ", got " + threads);
        }
        long t0 = System.nanoTime();
        Grid grid = new Grid(n);
        MonitorBarrier barrier = new MonitorBarrier(threads);
        Sweeper[] sweepers = new Sweeper[threads];
        for (int i = 0; i < threads; i++) {
            sweepers[i] = new Sweeper("sweeper-" + i, grid, barrier, i * n / threads, (i + 1) * n / threads, sweeps);
            sweepers[i].start();
        }
        for (Sweeper s : sweepers) {
            s.join();
        }
        long parallelMs = (System.nanoTime() - t0) / 1_000_000;
        double[][] parallel = grid.result(sweeps);
        double[][] sequential = sequential(n, sweeps);
        // element by element in the program's own code: with --single-vm, JDK code such as Arrays.equals would read
        // a row that another node wrote as this node last fetched it (docs/design/SINGLEVM.md, Limits)
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                if (Double.compare(parallel[r][c], sequential[r][c]) != 0) {
                    throw new IllegalStateException("cell " + r + "," + c + " is " + parallel[r][c]
                        + ", the sequential relaxation's " + sequential[r][c]);
                }
            }
        }
        System.out.printf("jacobi %dx%d, %d sweeps, %d threads: checksum %.12f (equal to the sequential relaxation) "
            + "in %d ms%n", n, n, sweeps, threads, checksum(parallel), parallelMs);
    }

    /** The same relaxation on one thread. */
    static double[][] sequential(int n, int sweeps) {
        Grid g = new Grid(n);
        for (int r = 0; r < n; r++) {
            g.makeRow(r);
        }
        for (int k = 0; k < sweeps; k++) {
            g.sweep(k, 0, n);
        }
        return g.result(sweeps);
    }

    static double checksum(double[][] grid) {
        double sum = 0;
        for (double[] row : grid) {
            for (double v : row) {
                sum += v;
            }
        }
        return sum;
    }
}
