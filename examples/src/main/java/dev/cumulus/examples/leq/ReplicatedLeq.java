package dev.cumulus.examples.leq;

import dev.cumulus.Cluster;

/**
 * LEQ, replicated version (Manta §4.5): the naive program with the replicated {@link Gather}. Each node writes its
 * part and change with one broadcast, then reads the reduction and the whole x from its own replica.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.leq.ReplicatedLeq [SIZE] [SEED]</pre>
 */
public final class ReplicatedLeq {
    private ReplicatedLeq() {
    }

    public static void main(String[] args) throws InterruptedException {
        Leq.main(args, ReplicatedLeq::run);
    }

    /** The SPMD body; every node ends with the whole solution. */
    public static Leq.Result run(Cluster cluster, int size, long seed) throws InterruptedException {
        LeqProblem problem = new LeqProblem(size, seed);
        int me = cluster.nodeId();
        int first = LeqProblem.firstRow(me, cluster.size(), size);
        double[][] equations = problem.equations(first, LeqProblem.firstRow(me + 1, cluster.size(), size));
        int nodes = cluster.size();
        Gather gather = cluster.replicated("leq-gather", () -> new Gather(size, nodes));
        cluster.barrier();
        long start = System.nanoTime();
        double[] x = new double[size];
        double[] part = new double[equations.length];
        int sweep = 0;
        double change;
        do {
            double mine = LeqProblem.sweep(equations, first, x, part);
            gather.put(sweep, first, part, mine);
            change = gather.reduce(sweep);
            x = gather.vector(sweep);
            sweep++;
        } while (change >= LeqProblem.STEP_TOLERANCE && sweep < LeqProblem.MAX_SWEEPS);
        cluster.barrier();
        long parallelNs = System.nanoTime() - start;
        return Leq.result("replicated", cluster, problem, x, sweep, parallelNs);
    }
}
