package dev.cumulus.internal.node;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Node 0's side of the global barrier: counts which nodes entered each epoch and says when all have. Epochs are
 * the per-node count of barrier calls, equal on every node of an SPMD program. Agent thread only.
 */
final class BarrierCoordinator {
    private final int size;
    private final Map<Long, BitSet> arrivals = new HashMap<>();

    BarrierCoordinator(int size) {
        this.size = size;
    }

    /** Records that {@code node} entered {@code epoch}; returns true exactly once, when the last node arrives. */
    boolean onEnter(int node, long epoch) {
        BitSet entered = arrivals.computeIfAbsent(epoch, e -> new BitSet(size));
        entered.set(node);
        if (entered.cardinality() == size) {
            arrivals.remove(epoch);
            return true;
        }
        return false;
    }

    int openEpochs() {
        return arrivals.size();
    }
}
