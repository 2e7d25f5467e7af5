package dev.cumulus.internal.node;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Node 0's side of the global barrier: counts which nodes entered each epoch and says when all have. Epochs are
 * the per-node count of barrier calls, equal on every node of an SPMD program. Each entry carries the highest
 * ordered-broadcast number applied at that node; the release carries their maximum, which every node applies
 * before it leaves the barrier (so writes issued before the barrier are visible after it). Agent thread only.
 */
final class BarrierCoordinator {
    /** {@link #onEnter} result while nodes are still missing. */
    static final long OPEN = Long.MIN_VALUE;

    private final int size;
    private final Map<Long, Arrivals> arrivals = new HashMap<>();

    private static final class Arrivals {
        final BitSet entered;
        long watermark = -1;

        Arrivals(int size) {
            entered = new BitSet(size);
        }
    }

    BarrierCoordinator(int size) {
        this.size = size;
    }

    /**
     * Records that {@code node} entered {@code epoch} having applied up to {@code watermark}; returns the release
     * watermark exactly once, when the last node arrives, else {@link #OPEN}.
     */
    long onEnter(int node, long epoch, long watermark) {
        Arrivals a = arrivals.computeIfAbsent(epoch, e -> new Arrivals(size));
        a.entered.set(node);
        a.watermark = Math.max(a.watermark, watermark);
        if (a.entered.cardinality() == size) {
            arrivals.remove(epoch);
            return a.watermark;
        }
        return OPEN;
    }

    int openEpochs() {
        return arrivals.size();
    }
}
