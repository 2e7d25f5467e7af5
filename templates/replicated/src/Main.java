package {{package}};

import dev.cumulus.Cluster;

/**
 * Branch-and-bound TSP on a cluster (Manta §4.1). Every node runs this same {@code main} (SPMD). The subtrees of the
 * search (the second city of the tour) are dealt round robin over the nodes; the best tour length found so far is a
 * replicated {@link Minimum}, so every node prunes with everybody's best, reading it locally.
 *
 * <pre>cumulus run --nodes {{nodes}} -cp target/classes {{package}}.Main [CITIES] [SEED]</pre>
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int cities = args.length > 0 ? Integer.parseInt(args[0]) : {{cities}};
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 42;
        try (Cluster cluster = Cluster.join()) {
            int me = cluster.nodeId();
            int n = cluster.size();
            Tsp tsp = new Tsp(cities, seed);
            Minimum best = cluster.replicated("best", Minimum::new);   // collective: same name, same cloud

            long start = System.nanoTime();
            int[] path = new int[cities];
            boolean[] used = new boolean[cities];
            used[0] = true;
            int improvements = 0;
            for (int second = 1; second < cities; second++) {
                if ((second - 1) % n != me) {
                    continue;                                          // another node's subtree
                }
                used[second] = true;
                path[1] = second;
                int[] count = {0};
                tsp.search(path, 2, used, tsp.distance[0][second], best::get, m -> {
                    best.set(m);                                       // a write: broadcast to every replica
                    count[0]++;
                });
                improvements += count[0];
                used[second] = false;
            }
            cluster.barrier();                                         // every write before it is applied everywhere
            long ms = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("node %d: %d improvements of its own, sees shortest tour %d (%d ms)%n",
                me, improvements, best.get(), ms);
            if (me == 0) {
                int expected = tsp.solveSequentially();
                System.out.println("shortest tour: " + (expected == best.get() ? "verified" : "WRONG, expected " + expected)
                    + " (" + cities + " cities, " + n + " nodes, length " + best.get() + ")");
                if (expected != best.get()) {
                    System.exit(1);
                }
            }
        }
    }
}
