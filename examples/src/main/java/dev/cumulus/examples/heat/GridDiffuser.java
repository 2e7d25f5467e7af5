package dev.cumulus.examples.heat;

/**
 * A worker of the heat diffusion (Babylon Figures 1 and 2): it owns a block of rows of the plate and, while
 * {@link #diffuse} runs, asks the workers above and below it for their edge rows by remote calls.
 */
public interface GridDiffuser {
    /** The workers that own the rows just above and just below this block; {@code null} at the plate's edge. */
    void setAdjacencies(GridDiffuser above, GridDiffuser below);

    /**
     * Runs {@code sweeps} Jacobi sweeps over {@code partition}: this worker's rows with one more row on each side
     * (the plate's fixed edge, or a neighbour's first or last row, fetched again before every sweep). Returns the
     * worker's rows after the last sweep, without the extra rows.
     */
    double[][] diffuse(double[][] partition, int sweeps);

    /**
     * The block's first ({@code top}) or last row after {@code sweep} sweeps; waits until this worker has done them
     * (Babylon: "this accessor blocks the calling thread until the edges are updated").
     */
    double[] edge(int sweep, boolean top);
}
