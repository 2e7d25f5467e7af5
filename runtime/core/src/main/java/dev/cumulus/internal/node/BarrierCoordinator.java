package dev.cumulus.internal.node;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Node 0's side of the global barrier: counts which nodes entered each epoch and says when all have. Epochs are
 * the per-node count of barrier calls, equal on every node of an SPMD program. Each entry carries the highest
 * ordered-broadcast number applied at that node; the release carries their maximum, which every node applies
 * before it leaves the barrier (so writes issued before the barrier are visible after it).
 *
 * <p>Each entry also says which barrier it is ({@link BarrierKind}): entries of one epoch must agree. When they do
 * not (node 2 entered {@code close()}'s barrier while node 0 entered {@code barrier()}), the epoch never releases and
 * {@link #onEnter} returns {@link #MISMATCH}; {@link #mismatch()} then names both sides and the node to blame: the one
 * in {@code close()}'s barrier, whose program ended early. Agent thread only.
 */
final class BarrierCoordinator {
    /** {@link #onEnter} result while nodes are still missing. */
    static final long OPEN = Long.MIN_VALUE;
    /** {@link #onEnter} result when the entry disagrees with an earlier one of its epoch: see {@link #mismatch()}. */
    static final long MISMATCH = Long.MIN_VALUE + 1;

    /** Entries of one epoch that disagree: {@code blamed} is the node that left the program's barriers early. */
    record Mismatch(long epoch, int blamed, String reason) {
    }

    private final int size;
    private final Map<Long, Arrivals> arrivals = new HashMap<>();
    private Mismatch mismatch;

    private static final class Arrivals {
        final BitSet entered;
        final BarrierKind[] kinds;
        long watermark = -1;
        boolean broken;

        Arrivals(int size) {
            entered = new BitSet(size);
            kinds = new BarrierKind[size];
        }
    }

    BarrierCoordinator(int size) {
        this.size = size;
    }

    /**
     * Records that {@code node} entered barrier {@code kind} as its {@code epoch}-th barrier, having applied up to
     * {@code watermark}; returns the release watermark exactly once, when the last node arrives, {@link #MISMATCH}
     * exactly once, when an entry disagrees with an earlier one of the same epoch, else {@link #OPEN}.
     */
    long onEnter(int node, long epoch, BarrierKind kind, long watermark) {
        Arrivals a = arrivals.computeIfAbsent(epoch, e -> new Arrivals(size));
        if (a.broken) {
            return OPEN;
        }
        for (int other = a.entered.nextSetBit(0); other >= 0; other = a.entered.nextSetBit(other + 1)) {
            if (a.kinds[other] != kind) {
                a.broken = true;
                mismatch = mismatchOf(epoch, node, kind, other);
                return MISMATCH;
            }
        }
        a.entered.set(node);
        a.kinds[node] = kind;
        a.watermark = Math.max(a.watermark, watermark);
        if (a.entered.cardinality() == size) {
            arrivals.remove(epoch);
            return a.watermark;
        }
        return OPEN;
    }

    /** The disagreement the last {@link #MISMATCH} result reported. */
    Mismatch mismatch() {
        return mismatch;
    }

    int openEpochs() {
        return arrivals.size();
    }

    private static Mismatch mismatchOf(long epoch, int node, BarrierKind kind, int other) {
        int blamed = kind == BarrierKind.CLOSE ? node : other;
        int waiting = blamed == node ? other : node;
        String reason = "barrier mismatch at barrier #" + epoch + ": node " + blamed + " entered "
            + BarrierKind.CLOSE.label() + " while node " + waiting + " entered " + BarrierKind.BARRIER.label()
            + " — node " + blamed + "'s program called barrier() fewer times before close() (did it end early, e.g. "
            + "an exception inside try (Cluster cluster = Cluster.join()) { ... }?)";
        return new Mismatch(epoch, blamed, reason);
    }
}
