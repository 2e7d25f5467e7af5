package dev.cumulus.examples.colouring;

import java.util.Arrays;

/**
 * Hyperion's benchmark (seeds/hyperion.txt §5): colour the 29 eastern-most states of the USA with four colours of
 * different costs so that neighbours differ and the total cost is least, by a parallel branch and bound with THREADS
 * searcher threads sharing a work pool and the best colouring. Plain Java threads and monitors: run it with
 * {@code java} or, unchanged, with {@code cumulus run --single-vm --nodes N}. Checks its result against a sequential
 * search and prints both; exits with an exception if they differ.
 *
 * <p>Usage: {@code MapColouring [--searches N] [--stats] [THREADS [SPLIT_DEPTH [COST...]]]} (defaults: 1 search, 64
 * threads, split depth 4, costs 2 3 5 8). With {@code --searches N} the whole parallel search runs N times in a row,
 * each with new threads, pool and best colouring, and prints one {@code search i/N} line each: the first search also
 * pays for the JIT compiling the program (and, under Cumulus, the runtime it calls), the later ones show the steady
 * state. With {@code --stats} every searcher thread prints, when it ends, the states it expanded and its thread's CPU
 * time ({@code stats search i searcher-j: E states, C us of CPU}), from the thread itself (under
 * {@code cumulus run --single-vm}, prefixed with the node it ran on): what a search state costs where.
 */
public final class MapColouring {
    private MapColouring() {
    }

    public static void main(String[] args) throws InterruptedException {
        int searches = 1;
        int first = 0;
        if (args.length > 1 && args[0].equals("--searches")) {
            searches = Integer.parseInt(args[1]);
            if (searches < 1) {
                throw new IllegalArgumentException("--searches needs a count of at least 1, not " + searches);
            }
            first = 2;
        }
        boolean stats = args.length > first && args[first].equals("--stats");
        if (stats) {
            first++;
        }
        int threads = args.length > first ? Integer.parseInt(args[first]) : 64;
        int splitDepth = args.length > first + 1 ? Integer.parseInt(args[first + 1]) : 4;
        int[] costs = args.length > first + 2
            ? Arrays.stream(args, first + 2, args.length).mapToInt(Integer::parseInt).toArray()
            : new int[] {2, 3, 5, 8};
        int[][] adj = EasternStates.neighbours();

        Best best = null;
        long parallelMs = 0;
        for (int i = 1; i <= searches; i++) {
            long t0 = System.nanoTime();
            best = search(adj, costs, threads, splitDepth, stats ? i : 0);
            parallelMs = (System.nanoTime() - t0) / 1_000_000;
            check(adj, costs, best.colours(), best.cost());
            if (searches > 1) {
                System.out.println("search " + i + "/" + searches + ": best cost " + best.cost() + " with " + threads
                    + " threads in " + parallelMs + " ms");
            }
        }
        int[] colours = best.colours();

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

    /**
     * One parallel search: {@code threads} searchers sharing a new work pool and best colouring, all joined; search
     * {@code statsOf} (when not 0) has each searcher print its stats line.
     */
    private static Best search(int[][] adj, int[] costs, int threads, int splitDepth, int statsOf)
            throws InterruptedException {
        WorkPool pool = new WorkPool();
        Best best = new Best();
        int[] empty = new int[adj.length];
        Arrays.fill(empty, -1);
        pool.put(new Task(empty, 0, 0));
        Searcher[] searchers = new Searcher[threads];
        for (int i = 0; i < threads; i++) {
            searchers[i] = new Searcher("searcher-" + i, pool, best, adj, costs, splitDepth, statsOf);
            searchers[i].start();
        }
        for (Searcher s : searchers) {
            s.join();
        }
        return best;
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
