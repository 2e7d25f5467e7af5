package dev.cumulus.examples.heat;

/**
 * Babylon's {@code GridDiffuserImpl} (Figure 2). {@link #diffuse} runs in one thread while neighbours' calls of
 * {@link #edge} run in others and wait on this object's monitor until the sweep they ask for is done; the worker
 * keeps the edge rows of its last two sweeps, because a neighbour is never more than one sweep behind it (it cannot
 * start sweep {@code k + 2} before the neighbour has fetched its edges of sweep {@code k}).
 */
public class GridDiffuserImpl implements GridDiffuser {
    private GridDiffuser above;
    private GridDiffuser below;
    /** Sweeps done and published in {@link #edges}; -1 before {@link #diffuse} starts (guarded by this). */
    private int done = -1;
    /** [sweep % 2] = {first row, last row} after that sweep (guarded by this). */
    private final double[][][] edges = new double[2][][];

    @Override
    public synchronized void setAdjacencies(GridDiffuser above, GridDiffuser below) {
        this.above = above;
        this.below = below;
    }

    @Override
    public double[][] diffuse(double[][] partition, int sweeps) {
        GridDiffuser up;
        GridDiffuser down;
        synchronized (this) {
            up = above;
            down = below;
        }
        int n = partition.length;
        double[][] src = HeatGrid.copy(partition);
        double[][] dst = HeatGrid.copy(partition);
        publish(0, src);
        for (int s = 0; s < sweeps; s++) {
            // the remote edges of the previous sweep; waits until the neighbours have done it
            if (up != null) {
                src[0] = up.edge(s, false);
            }
            if (down != null) {
                src[n - 1] = down.edge(s, true);
            }
            for (int i = 1; i < n - 1; i++) {
                HeatGrid.relaxRow(src[i - 1], src[i], src[i + 1], dst[i]);
            }
            double[][] t = src;
            src = dst;
            dst = t;
            publish(s + 1, src); // wakes the neighbours waiting in edge()
        }
        return HeatGrid.rows(src, 1, n - 1);
    }

    private synchronized void publish(int sweep, double[][] block) {
        edges[sweep % 2] = new double[][] {block[1].clone(), block[block.length - 2].clone()};
        done = sweep;
        notifyAll();
    }

    @Override
    public synchronized double[] edge(int sweep, boolean top) {
        while (done < sweep) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for sweep " + sweep, e);
            }
        }
        if (done > sweep + 1) {
            throw new IllegalStateException("edge of sweep " + sweep + " asked after sweep " + done
                + ": a neighbour fell more than one sweep behind");
        }
        return edges[sweep % 2][top ? 0 : 1];
    }
}
