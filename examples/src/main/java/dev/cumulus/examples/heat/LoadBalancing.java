package dev.cumulus.examples.heat;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;
import dev.cumulus.Migration;
import dev.cumulus.Remote;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Load balancing by safe-point migration (Babylon §4.2) on the heat diffusion: one node also runs a CPU hog; node 0
 * measures every worker's step times, notices the slow one and moves it, in the middle of a step, to the node of the
 * fastest worker. The plate is still checked bit for bit against sequential Jacobi.
 *
 * <p>Node 0 coordinates: it creates one {@link BlockWorker} ({@code @SafeMode}) per node, and per step calls every
 * worker's {@code step} through an asynchronous ticket with its ghost rows (the neighbours' edge rows of the previous
 * step, which node 0 passes on: a safe-mode object runs one call at a time, so neighbours cannot fetch edges from it
 * while its step runs). Each step returns the time its sweeps took. {@link SlowWorkers} decides from those times;
 * when it names a worker, node 0 starts the next step and, while the step runs, calls
 * {@code Remote.migrate(worker, node, Migration.SAFE_POINT)}: the step stops at its next {@code Migration.point()},
 * the worker's state goes back to its copy from before the step, moves, and the step runs again on the new node.
 *
 * <p>The hog runs on node {@code HOG_NODE} (default: the last node) in {@code HOG_THREADS} threads; that node
 * confines itself to one CPU ({@link CpuHog}), so that on one machine the hog slows its own node's worker the way
 * another job on its host would.
 *
 * <pre>cumulus run --nodes 3 -cp examples/target/classes dev.cumulus.examples.heat.LoadBalancing [SIZE=768] [STEPS=60] [SWEEPS=8] [HOG_NODE] [HOG_THREADS=3]</pre>
 */
public final class LoadBalancing {
    private LoadBalancing() {
    }

    /** The demo's settings; {@code hogNode} -1: no hog. */
    public record Options(int size, int steps, int sweepsPerStep, int hogNode, int hogThreads) {
        static Options parse(String[] args, int nodes) {
            return new Options(arg(args, 0, 768), arg(args, 1, 60), arg(args, 2, 8),
                arg(args, 3, nodes > 1 ? nodes - 1 : -1), arg(args, 4, 3));
        }

        private static int arg(String[] args, int i, int otherwise) {
            return args.length > i ? Integer.parseInt(args[i]) : otherwise;
        }
    }

    /** A move the coordinator made: which worker, where from and to, why, and how long {@code migrate} took. */
    public record Moved(int worker, int fromNode, int toNode, int step, String why, long migrateNs) {
    }

    /** What node 0 found. */
    public record Result(int size, int sweeps, int workers, HeatGrid.Difference difference, List<Moved> moves,
                         long parallelNs) {
        public boolean verified() {
            return difference.exact();
        }
    }

    public static void main(String[] args) {
        try (Cluster cluster = Cluster.join()) {
            Result r = run(cluster, Options.parse(args, cluster.size()));
            if (r != null) {
                System.out.printf(Locale.ROOT, "load balancing, %dx%d plate, %d sweeps on %d workers, %d move(s): %.1f ms; "
                        + "%s%n", r.size(), r.size(), r.sweeps(), r.workers(), r.moves().size(), r.parallelNs() / 1e6,
                    r.verified() ? "equal to sequential Jacobi bit for bit: verified"
                        : r.difference().cells() + " cells differ from sequential Jacobi (max "
                        + r.difference().maxAbs() + "): WRONG");
                if (!r.verified()) {
                    System.exit(1);
                }
            }
        }
    }

    /** The SPMD body: node 0's result, {@code null} on the other nodes. */
    public static Result run(Cluster cluster, Options o) {
        CpuHog hog = null;
        if (cluster.nodeId() == o.hogNode() && o.hogThreads() > 0) {
            hog = new CpuHog(o.hogThreads());
            System.out.println("node " + cluster.nodeId() + " runs a CPU hog of " + hog.threads() + " thread(s), "
                + hog.confineToOneCpu(0));
        }
        cluster.barrier();
        Result result = null;
        try {
            if (cluster.nodeId() == 0) {
                result = new Coordinator(cluster, o).run();
            }
            cluster.barrier();
        } finally {
            if (hog != null) {
                hog.close();
            }
        }
        return result;
    }

    /** Node 0's part. */
    private static final class Coordinator {
        private final Cluster cluster;
        private final Options o;
        private final int workers;
        private final double[][] grid;
        /** The plate as the coordinator last heard of it: fixed edges, and the workers' edge rows of the last step. */
        private final double[][] known;
        private final BlockWorker[] worker;
        private final int[] nodeOf;

        Coordinator(Cluster cluster, Options o) {
            this.cluster = cluster;
            this.o = o;
            this.workers = Math.min(cluster.size(), o.size() / Math.max(1, o.sweepsPerStep()));
            if (workers < 1 || o.sweepsPerStep() < 1) {
                throw new IllegalArgumentException("a plate of " + o.size() + " rows cannot be split into blocks of at "
                    + "least " + o.sweepsPerStep() + " rows (one per sweep of a step)");
            }
            this.grid = HeatGrid.initial(o.size(), o.size());
            this.known = HeatGrid.copy(grid);
            this.worker = new BlockWorker[workers];
            this.nodeOf = new int[workers];
        }

        Result run() {
            for (int w = 0; w < workers; w++) {
                worker[w] = cluster.remoteNew(BlockWorkerImpl.class, BlockWorker.class, "heat-block-" + w, w);
                worker[w].init(HeatGrid.rows(grid, first(w), first(w + 1)), first(w), o.size());
                nodeOf[w] = w;
            }
            SlowWorkers policy = new SlowWorkers(workers, cluster.size());
            List<Moved> moves = new ArrayList<>();
            SlowWorkers.Move pending = null;
            long start = System.nanoTime();
            for (int step = 0; step < o.steps(); step++) {
                BlockWorker[] tickets = new BlockWorker[workers];
                for (int w = 0; w < workers; w++) {
                    tickets[w] = AsyncTicket.newTicket(worker[w]);
                    tickets[w].step(ghostsAbove(w), ghostsBelow(w), o.sweepsPerStep());
                }
                if (pending != null) {
                    moves.add(move(pending, step));
                    pending = null;
                }
                long[] stepNs = new long[workers];
                for (int w = 0; w < workers; w++) {
                    BlockWorker.StepResult r = AsyncTicket.getResult(tickets[w]);
                    store(first(w), r.top());
                    store(first(w + 1) - r.bottom().length, r.bottom());
                    stepNs[w] = r.computeNs();
                }
                if (step % 10 == 0 || step == o.steps() - 1 || !moves.isEmpty() && moves.getLast().step() == step) {
                    report(step, stepNs);
                }
                pending = policy.record(stepNs, nodeOf);
            }
            double[][] plate = HeatGrid.copy(grid);
            for (int w = 0; w < workers; w++) {
                double[][] block = worker[w].rows();
                System.arraycopy(block, 0, plate, first(w), block.length);
            }
            long parallelNs = System.nanoTime() - start;
            int sweeps = o.steps() * o.sweepsPerStep();
            return new Result(o.size(), sweeps, workers, HeatGrid.compare(plate, HeatGrid.jacobi(grid, sweeps)), moves,
                parallelNs);
        }

        /** Moves the worker while its step runs: the step stops at a migration point and runs again there. */
        private Moved move(SlowWorkers.Move m, int step) {
            System.out.printf("step %d: worker %d on node %d is slow: %s; moving it to node %d at a safe point%n",
                step, m.worker(), m.fromNode(), m.why(), m.toNode());
            long t0 = System.nanoTime();
            Remote.migrate(worker[m.worker()], m.toNode(), Migration.SAFE_POINT);
            long ns = System.nanoTime() - t0;
            nodeOf[m.worker()] = Remote.nodeOf(worker[m.worker()]);
            System.out.printf(Locale.ROOT, "step %d: moved worker %d from node %d to node %d (Remote.migrate took %.1f "
                + "ms); its step runs again there from the state it had before the step%n", step, m.worker(),
                m.fromNode(), nodeOf[m.worker()], ns / 1e6);
            return new Moved(m.worker(), m.fromNode(), nodeOf[m.worker()], step, m.why(), ns);
        }

        private void report(int step, long[] stepNs) {
            StringBuilder b = new StringBuilder("step " + step + ": ms per step");
            for (int w = 0; w < workers; w++) {
                b.append(String.format(Locale.ROOT, ", worker %d on node %d %.1f", w, nodeOf[w], stepNs[w] / 1e6));
            }
            System.out.println(b);
        }

        private int first(int w) {
            return HeatGrid.firstRow(w, workers, o.size());
        }

        private double[][] ghostsAbove(int w) {
            int from = first(w) - Math.min(o.sweepsPerStep(), first(w));
            return HeatGrid.rows(known, from, first(w));
        }

        private double[][] ghostsBelow(int w) {
            int end = first(w + 1);
            return HeatGrid.rows(known, end, end + Math.min(o.sweepsPerStep(), o.size() + 2 - end));
        }

        private void store(int row, double[][] rows) {
            for (int i = 0; i < rows.length; i++) {
                known[row + i] = rows[i];
            }
        }
    }
}
