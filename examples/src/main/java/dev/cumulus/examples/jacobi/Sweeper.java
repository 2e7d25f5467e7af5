package dev.cumulus.examples.jacobi;

/** Relaxes one band of rows: makes its rows, then sweeps them, meeting the other sweepers at the barrier each time. */
final class Sweeper extends Thread {
    private final Grid grid;
    private final MonitorBarrier barrier;
    private final int from;
    private final int to;
    private final int sweeps;

    Sweeper(String name, Grid grid, MonitorBarrier barrier, int from, int to, int sweeps) {
        super(name);
        this.grid = grid;
        this.barrier = barrier;
        this.from = from;
        this.to = to;
        this.sweeps = sweeps;
    }

    @Override
    public void run() {
        try {
            for (int r = from; r < to; r++) {
                grid.makeRow(r);
            }
            barrier.await();
            for (int k = 0; k < sweeps; k++) {
                grid.sweep(k, from, to);
                barrier.await();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(getName() + " was interrupted", e);
        }
    }
}
