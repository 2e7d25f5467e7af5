package dev.cumulus.examples.heat;

/**
 * A worker of the load-balancing demo ({@link LoadBalancing}): it owns a block of rows of the plate and relaxes it
 * one step (several Jacobi sweeps) per call. Its implementation is {@code @SafeMode}, so its calls run one at a time
 * and a neighbour cannot ask it for edges while a step runs; the coordinator passes the rows around instead.
 */
public interface BlockWorker {
    /** The block: grid rows {@code firstRow ..} of a plate of {@code plateRows} interior rows, edge columns included. */
    void init(double[][] rows, int firstRow, int plateRows);

    /**
     * Runs {@code sweeps} Jacobi sweeps. {@code above} are the grid rows just above the block ({@code sweeps} of them,
     * or fewer when they reach the plate's fixed top edge), {@code below} those just below, as they were before this
     * step. Returns the block's first and last {@code sweeps} rows after it, and how long the sweeps took here.
     */
    StepResult step(double[][] above, double[][] below, int sweeps);

    /** The block as it is now. */
    double[][] rows();

    /** What a step returns: the rows its neighbours need next, and the time the sweeps took on the worker's node. */
    record StepResult(double[][] top, double[][] bottom, long computeNs) {
    }
}
