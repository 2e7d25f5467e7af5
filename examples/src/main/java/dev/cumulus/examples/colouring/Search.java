package dev.cumulus.examples.colouring;

/**
 * Branch and bound over colourings, state by state in map order: a partial colouring's bound is its cost plus the
 * cheapest colour for every state left. One search per thread, over the thread's own copies of the map and costs.
 */
final class Search {
    private final int[][] adj;
    private final int[] costs;
    private final int cheapest;
    private int[] bestColours;
    private int bestCost;
    private long expanded;

    Search(int[][] adj, int[] costs, int bound) {
        this.adj = adj;
        this.costs = costs;
        int min = Integer.MAX_VALUE;
        for (int c : costs) {
            min = Math.min(min, c);
        }
        this.cheapest = min;
        this.bestCost = bound;
    }

    /** The cheapest colouring of every state from {@code next} on, below the bound; its cost, or the bound. */
    int complete(int[] colours, int next, int cost) {
        expand(colours, next, cost);
        return bestCost;
    }

    int[] bestColours() {
        return bestColours;
    }

    long expanded() {
        return expanded;
    }

    /** Lowers this search's bound (a better colouring was found elsewhere). */
    void bound(int bound) {
        bestCost = Math.min(bestCost, bound);
    }

    /** Whether colour {@code c} may go to state {@code s} next to the colours so far. */
    boolean allowed(int[] colours, int s, int c) {
        for (int t : adj[s]) {
            if (colours[t] == c) {
                return false;
            }
        }
        return true;
    }

    /** The lowest cost any completion of a colouring of cost {@code cost} up to {@code next} can have. */
    int lowerBound(int next, int cost) {
        return cost + (adj.length - next) * cheapest;
    }

    private void expand(int[] colours, int next, int cost) {
        expanded++;
        if (next == adj.length) {
            if (cost < bestCost) {
                bestCost = cost;
                bestColours = colours.clone();
            }
            return;
        }
        for (int c = 0; c < costs.length; c++) {
            if (allowed(colours, next, c) && lowerBound(next + 1, cost + costs[c]) < bestCost) {
                colours[next] = c;
                expand(colours, next + 1, cost + costs[c]);
                colours[next] = -1;
            }
        }
    }

    /** The sequential search the parallel result is checked against. */
    static int sequential(int[][] adj, int[] costs) {
        int[] colours = new int[adj.length];
        java.util.Arrays.fill(colours, -1);
        return new Search(adj, costs, Integer.MAX_VALUE).complete(colours, 0, 0);
    }
}
