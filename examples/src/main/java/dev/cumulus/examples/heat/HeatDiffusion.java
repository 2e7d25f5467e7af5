package dev.cumulus.examples.heat;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;

/**
 * Babylon's heat diffusion (§3, Figures 1 and 2) on remote objects.
 *
 * <p>Node 0 creates one {@link GridDiffuser} on every node with {@code remoteNew}, gives each the proxies of its
 * neighbours ({@code setAdjacencies}), hands each its block of rows through an asynchronous ticket
 * ({@code diffuse}), and gathers the blocks with {@code getResult}. While {@code diffuse} runs, the workers fetch
 * each other's edge rows by synchronous remote calls that wait until the neighbour has finished the sweep asked
 * for. The plate is then checked against the sequential Jacobi solver ({@link HeatGrid#jacobi}): every cell must
 * be equal bit for bit (the workers do the same arithmetic in the same order).
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.heat.HeatDiffusion [SIZE=256] [SWEEPS=400]</pre>
 */
public final class HeatDiffusion {
    private HeatDiffusion() {
    }

    /** What node 0 measured. */
    public record Result(int size, int sweeps, int workers, HeatGrid.Difference difference, long parallelNs,
                         long sequentialNs, double centre) {
        public boolean verified() {
            return difference.exact();
        }
    }

    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        try (Cluster cluster = Cluster.join()) {
            Result r = run(cluster, size, sweeps);
            if (r != null) {
                System.out.printf("heat diffusion, %dx%d plate, %d sweeps on %d workers: %.1f ms (sequential %.1f ms); "
                        + "centre %.4f degrees; %s%n", r.size(), r.size(), r.sweeps(), r.workers(), r.parallelNs() / 1e6,
                    r.sequentialNs() / 1e6, r.centre(), r.verified() ? "equal to sequential Jacobi bit for bit: verified"
                        : r.difference().cells() + " cells differ from sequential Jacobi (max "
                        + r.difference().maxAbs() + "): WRONG");
                if (!r.verified()) {
                    System.exit(1);
                }
            }
        }
    }

    /** The SPMD body: node 0's result, {@code null} on the other nodes. */
    public static Result run(Cluster cluster, int size, int sweeps) {
        Result result = null;
        if (cluster.nodeId() == 0) {
            result = master(cluster, size, sweeps);
        }
        cluster.barrier();
        return result;
    }

    private static Result master(Cluster cluster, int size, int sweeps) {
        int workers = Math.min(cluster.size(), size);
        // Figure 1, lines 8-15: one worker per node, each told its neighbours
        GridDiffuser[] gd = new GridDiffuser[workers];
        for (int w = 0; w < workers; w++) {
            gd[w] = cluster.remoteNew(GridDiffuserImpl.class, GridDiffuser.class, "grid-section-" + w, w);
        }
        for (int w = 0; w < workers; w++) {
            gd[w].setAdjacencies(w > 0 ? gd[w - 1] : null, w < workers - 1 ? gd[w + 1] : null);
        }

        // lines 17-34: diffuse() through an asynchronous ticket per worker, then the results
        double[][] grid = HeatGrid.initial(size, size);
        long start = System.nanoTime();
        GridDiffuser[] tickets = new GridDiffuser[workers];
        for (int w = 0; w < workers; w++) {
            int first = HeatGrid.firstRow(w, workers, size);
            int end = HeatGrid.firstRow(w + 1, workers, size);
            tickets[w] = AsyncTicket.newTicket(gd[w]);
            tickets[w].diffuse(HeatGrid.rows(grid, first - 1, end + 1), sweeps);
        }
        double[][] plate = HeatGrid.copy(grid);
        for (int w = 0; w < workers; w++) {
            double[][] block = AsyncTicket.getResult(tickets[w]);
            System.arraycopy(block, 0, plate, HeatGrid.firstRow(w, workers, size), block.length);
        }
        long parallelNs = System.nanoTime() - start;

        long seqStart = System.nanoTime();
        double[][] expected = HeatGrid.jacobi(grid, sweeps);
        long sequentialNs = System.nanoTime() - seqStart;
        return new Result(size, sweeps, workers, HeatGrid.compare(plate, expected), parallelNs, sequentialNs,
            plate[(size + 1) / 2][(size + 1) / 2]);
    }
}
