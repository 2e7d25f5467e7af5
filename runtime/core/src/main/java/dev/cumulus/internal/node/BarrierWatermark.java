package dev.cumulus.internal.node;

/**
 * How the global barrier orders replicated writes: each node enters with the highest ordered-broadcast number it
 * has applied, and leaves once it applied the highest number any node entered with.
 */
public interface BarrierWatermark {
    /** Highest sequence number applied on this node ({@code -1} for none). */
    long applied();

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
