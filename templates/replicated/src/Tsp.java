package {{package}};

import java.util.function.IntConsumer;
import java.util.function.IntSupplier;

/** A travelling-salesman instance: symmetric distances between cities generated from a seed. */
public final class Tsp {
    final int[][] distance;

    Tsp(int cities, long seed) {
        distance = new int[cities][cities];
        long state = seed;
        for (int i = 0; i < cities; i++) {
            for (int j = i + 1; j < cities; j++) {
                state = state * 6364136223846793005L + 1442695040888963407L;
                int d = 10 + (int) ((state >>> 33) % 90);
                distance[i][j] = d;
                distance[j][i] = d;
            }
        }
    }

    int cities() {
        return distance.length;
    }

    /**
     * Depth-first branch and bound from a partial tour. {@code bound} is read before every expansion and
     * {@code improve} is called with every complete tour shorter than it.
     */
    void search(int[] path, int depth, boolean[] used, int length, IntSupplier bound, IntConsumer improve) {
        int n = cities();
        if (length >= bound.getAsInt()) {
            return;
        }
        if (depth == n) {
            int total = length + distance[path[n - 1]][path[0]];
            if (total < bound.getAsInt()) {
                improve.accept(total);
            }
            return;
        }
        for (int c = 1; c < n; c++) {
            if (!used[c]) {
                used[c] = true;
                path[depth] = c;
                search(path, depth + 1, used, length + distance[path[depth - 1]][c], bound, improve);
                used[c] = false;
            }
        }
    }

    /** The sequential answer, to check the distributed one. */
    int solveSequentially() {
        int[] best = {Integer.MAX_VALUE};
        int[] path = new int[cities()];
        boolean[] used = new boolean[cities()];
        used[0] = true;
        search(path, 1, used, 0, () -> best[0], m -> best[0] = m);
        return best[0];
    }
}
