package dev.cumulus.examples.asp;

import dev.cumulus.Cluster;

/**
 * ASP, replicated version (Manta §4.2): the naive program with the replicated {@link Broadcast} of Figure 6. The
 * owner's {@code send} of row {@code k} is one totally ordered broadcast; every node's {@code receive} reads its own
 * replica, waiting until the row has arrived.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.asp.ReplicatedAsp [SIZE] [SEED]</pre>
 */
public final class ReplicatedAsp {
    private ReplicatedAsp() {
    }

    public static void main(String[] args) throws InterruptedException {
        Asp.main(args, ReplicatedAsp::run);
    }

    /** The SPMD body: this node's rows, checked. */
    public static Asp.Result run(Cluster cluster, int size, long seed) throws InterruptedException {
        AspProblem problem = AspProblem.random(size, seed);
        int me = cluster.nodeId();
        int first = AspProblem.firstRow(me, cluster.size(), size);
        int[][] rows = problem.rows(first, AspProblem.firstRow(me + 1, cluster.size(), size));
        Broadcast broadcast = cluster.replicated("asp-broadcast", () -> new Broadcast(size));
        cluster.barrier();
        long start = System.nanoTime();
        for (int k = 0; k < size; k++) {
            int[] rowK;
            if (AspProblem.owner(k, cluster.size(), size) == me) {
                rowK = rows[k - first];
                broadcast.send(k, rowK.clone());
            } else {
                rowK = broadcast.receive(k);
            }
            AspProblem.relax(rows, k, rowK);
        }
        cluster.barrier();
        long parallelNs = System.nanoTime() - start;
        return Asp.result("replicated", cluster, problem, rows, first, parallelNs);
    }
}
