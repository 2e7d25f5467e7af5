package dev.cumulus.internal.order;

/**
 * How the global barrier orders replicated writes: each node enters with the highest ordered-broadcast number it
 * covers ({@link #covered()}), and leaves once it applied ({@link #applied()}) the highest number any node entered
 * with.
 */
public interface BarrierWatermark {
    /** Highest sequence number applied on this node ({@code -1} for none). */
    long applied();

    /**
     * The highest sequence number a message from this node must make its receiver wait for (barrier entries, calls
     * and replies carry it): every write applied here, and this node's own writes whose callers have returned — such a
     * write may not count as applied yet while writes it woke go on ({@code DeliveryScheduler}), but the caller's next
     * barrier or call must cover it.
     */
    default long covered() {
        return applied();
    }

    /** Waits until {@link #applied()} reaches {@code seq}. */
    void awaitApplied(long seq) throws InterruptedException;

    /** No ordered writes: nothing to wait for. */
    BarrierWatermark NONE = new BarrierWatermark() {
        @Override
        public long applied() {
            return -1;
        }

        @Override
        public void awaitApplied(long seq) {
        }
    };
}
