package dev.cumulus.examples.heat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The load-balancing demo's policy: it keeps each worker's last {@link #WINDOW} step times and names a worker to
 * move when its mean is more than {@link #FACTOR} times the median of the other workers' means (and more than
 * {@link #MIN_GAP_MS} slower: smaller gaps are noise, not load). The target is the node of the fastest other worker
 * among the nodes that may take one more: not a node a slow worker left, and none that would then hold more than one
 * worker above an even share. A worker moves at most once, and after a move every window starts afresh (the times
 * before it no longer say how loaded the nodes are). The first {@link #WARMUP} steps, and as many after each move,
 * are not counted (the JIT still compiles the step then, and the interrupted step runs again).
 */
final class SlowWorkers {
    static final int WINDOW = 3;
    static final double FACTOR = 2.0;
    static final int WARMUP = 3;
    static final double MIN_GAP_MS = 1.0;

    /** A decision: move {@code worker} from {@code fromNode} to {@code toNode}; means in ms. */
    record Move(int worker, int fromNode, int toNode, double slowMs, double othersMedianMs, double targetMs) {
        String why() {
            return String.format(java.util.Locale.ROOT, "its mean step over the last %d steps took %.1f ms, %.1f x "
                    + "the median of the other workers (%.1f ms); node %d runs the fastest other worker (%.1f ms)",
                WINDOW, slowMs, slowMs / othersMedianMs, othersMedianMs, toNode, targetMs);
        }
    }

    private final List<ArrayDeque<Long>> times = new ArrayList<>();
    private final boolean[] moved;
    /** Nodes a slow worker left. */
    private final boolean[] loaded;
    /** Workers a node may hold: an even share plus one. */
    private final int capacity;
    private int steps;

    SlowWorkers(int workers, int nodes) {
        for (int w = 0; w < workers; w++) {
            times.add(new ArrayDeque<>());
        }
        moved = new boolean[workers];
        loaded = new boolean[nodes];
        capacity = (workers + nodes - 1) / nodes + 1;
    }

    /** Records one step's times (ns, by worker); returns a move to make, or null. */
    Move record(long[] stepNs, int[] nodeOf) {
        if (steps++ < WARMUP) {
            return null;
        }
        int n = times.size();
        for (int w = 0; w < n; w++) {
            ArrayDeque<Long> q = times.get(w);
            q.addLast(stepNs[w]);
            if (q.size() > WINDOW) {
                q.removeFirst();
            }
        }
        if (n < 2 || times.get(0).size() < WINDOW) {
            return null;
        }
        double[] mean = new double[n];
        int slow = 0;
        for (int w = 0; w < n; w++) {
            mean[w] = times.get(w).stream().mapToLong(Long::longValue).average().orElseThrow() / 1e6;
            if (mean[w] > mean[slow]) {
                slow = w;
            }
        }
        int[] held = new int[loaded.length];
        for (int node : nodeOf) {
            held[node]++;
        }
        int fastest = -1;
        double[] others = new double[n - 1];
        for (int w = 0, k = 0; w < n; w++) {
            if (w != slow) {
                others[k++] = mean[w];
                if (nodeOf[w] != nodeOf[slow] && !loaded[nodeOf[w]] && held[nodeOf[w]] < capacity && (fastest < 0 || mean[w] < mean[fastest])) {
                    fastest = w;
                }
            }
        }
        Arrays.sort(others);
        double median = others.length % 2 == 1 ? others[others.length / 2]
            : (others[others.length / 2 - 1] + others[others.length / 2]) / 2;
        if (moved[slow] || fastest < 0 || !(mean[slow] > FACTOR * median) || mean[slow] - median < MIN_GAP_MS) {
            return null;
        }
        moved[slow] = true;
        loaded[nodeOf[slow]] = true;
        times.forEach(ArrayDeque::clear);
        steps = 0; // the steps right after a move (the step run again, a cold JIT on the new node) are warm-up too
        return new Move(slow, nodeOf[slow], nodeOf[fastest], mean[slow], median, mean[fastest]);
    }
}
