package dev.cumulus.examples.heat;

import dev.cumulus.Migration;
import dev.cumulus.SafeMode;

/**
 * The demo's worker, in safe mode: before each call the runtime keeps a copy of {@link #block}, and
 * {@link Migration#point()} after every row lets a {@link Migration#SAFE_POINT} migration stop a running step. The
 * runtime then puts the copy back, moves the object and runs the step again from its start on the new node, so the
 * step's result is the same as if it had not been interrupted.
 *
 * <p>A step of {@code k} sweeps works on the block with {@code k} rows of each neighbour around it (ghost rows):
 * after sweep {@code s} the rows {@code s} away from a ghost edge are no longer exact, so after {@code k} sweeps
 * exactly the block itself is, computed with the same arithmetic as the sequential solver.
 */
@SafeMode
public class BlockWorkerImpl implements BlockWorker {
    private double[][] block;
    private int firstRow;
    private int plateRows;

    @Override
    public void init(double[][] rows, int firstRow, int plateRows) {
        if (rows.length == 0 || firstRow < 1 || firstRow + rows.length > plateRows + 1) {
            throw new IllegalArgumentException("rows " + firstRow + ".." + (firstRow + rows.length - 1)
                + " are not interior rows of a plate of " + plateRows + " rows");
        }
        this.block = HeatGrid.copy(rows);
        this.firstRow = firstRow;
        this.plateRows = plateRows;
    }

    @Override
    public StepResult step(double[][] above, double[][] below, int sweeps) {
        int m = block.length;
        boolean topFixed = firstRow - above.length == 0; // the first ghost row is the plate's top edge
        boolean bottomFixed = firstRow + m + below.length == plateRows + 2;
        if (sweeps < 1 || sweeps > m || (!topFixed && above.length != sweeps)
            || (!bottomFixed && below.length != sweeps)) {
            throw new IllegalArgumentException(sweeps + " sweeps need " + sweeps + " ghost rows on each side (fewer at "
                + "the plate's edge) and a block of at least as many rows; got " + above.length + " above, "
                + below.length + " below, a block of " + m);
        }
        long start = System.nanoTime();
        int n = above.length + m + below.length;
        double[][] src = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] r = i < above.length ? above[i] : i < above.length + m ? block[i - above.length]
                : below[i - above.length - m];
            src[i] = r.clone();
        }
        double[][] dst = HeatGrid.copy(src);
        for (int s = 1; s <= sweeps; s++) {
            int from = topFixed ? 1 : s;
            int to = bottomFixed ? n - 1 : n - s;
            for (int i = from; i < to; i++) {
                Migration.point(); // a pending safe-point migration stops the step here
                HeatGrid.relaxRow(src[i - 1], src[i], src[i + 1], dst[i]);
            }
            double[][] t = src;
            src = dst;
            dst = t;
        }
        block = HeatGrid.rows(src, above.length, above.length + m);
        return new StepResult(HeatGrid.rows(block, 0, sweeps), HeatGrid.rows(block, m - sweeps, m),
            System.nanoTime() - start);
    }

    @Override
    public double[][] rows() {
        return block;
    }
}
