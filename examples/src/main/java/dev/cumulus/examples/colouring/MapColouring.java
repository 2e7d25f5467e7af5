package dev.cumulus.examples.colouring;

import java.util.Arrays;

/**
 * Hyperion's benchmark (seeds/hyperion.txt §5): colour the 29 eastern-most states of the USA with four colours of
 * different costs so that neighbours differ and the total cost is least, by a parallel branch and bound with THREADS
 * searcher threads sharing a work pool and the best colouring. Plain Java threads and monitors: run it with
 * {@code java} or, unchanged, with {@code cumulus run --single-vm --nodes N}. Checks its result against a sequential
 * search and prints both; exits with an exception if they differ.
 *
 * <p>Usage: {@code MapColouring [THREADS [SPLIT_DEPTH [COST...]]]} (defaults: 64 threads, split depth 4, costs 2 3 5 8).
 */
public final class MapColouring {
    private MapColouring() {
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int splitDepth = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int[] costs = args.length > 2 ? Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray()
            : new int[] {2, 3, 5, 8};
        int[][] adj = EasternStates.neighbours();

        long t0 = System.nanoTime();
        WorkPool pool = new WorkPool();
        Best best = new Best();
        int[] empty = new int[adj.length];
        Arrays.fill(empty, -1);
        pool.put(new Task(empty, 0, 0));
        Searcher[] searchers = new Searcher[threads];
        for (int i = 0; i < threads; i++) {
            searchers[i] = new Searcher("searcher-" + i, pool, best, adj, costs, splitDepth);
            searchers[i].start();
        }
        for (Searcher s : searchers) {
            s.join();
        }
        long parallelMs = (System.nanoTime() - t0) / 1_000_000;
        int[] colours = best.colours();
        check(adj, costs, colours, best.cost());

        int sequential = Search.sequential(adj, costs);
        System.out.println("best cost " + best.cost() + " (sequential search: " + sequential + ") with " + threads
            + " threads in " + parallelMs + " ms");
        StringBuilder map = new StringBuilder();
        for (int i = 0; i < adj.length; i++) {
            map.append(EasternStates.NAMES[i]).append('=').append(colours[i]).append(i + 1 < adj.length ? " " : "");
        }
        System.out.println(map);
        if (sequential != best.cost()) {
            throw new IllegalStateException("the parallel search found cost " + best.cost() + ", the sequential "
                + sequential);
        }
    }

    /** Throws if {@code colours} is not a proper colouring of cost {@code cost}. */
    static void check(int[][] adj, int[] costs, int[] colours, int cost) {
        if (colours == null) {
            throw new IllegalStateException("the search found no colouring");
        }
        int sum = 0;
        for (int s = 0; s < adj.length; s++) {
            sum += costs[colours[s]];
            for (int t : adj[s]) {
                if (colours[t] == colours[s]) {
                    throw new IllegalStateException(EasternStates.NAMES[s] + " and " + EasternStates.NAMES[t]
                        + " have the same colour");
                }
            }
        }
        if (sum != cost) {
            throw new IllegalStateException("the colouring costs " + sum + ", not " + cost);
        }
    }
}
