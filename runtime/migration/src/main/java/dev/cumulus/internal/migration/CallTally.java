package dev.cumulus.internal.migration;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntConsumer;

/**
 * The calls an object that follows its calls let in, by caller node, since the rebalancer last looked
 * ({@link dev.cumulus.internal.rpc.ObjectGate#countCalls}). Any thread.
 */
final class CallTally implements IntConsumer {
    private final AtomicLongArray callsBySource;

    /** @param nodes the cluster's size */
    CallTally(int nodes) {
        callsBySource = new AtomicLongArray(nodes);
    }

    @Override
    public void accept(int source) {
        if (source < callsBySource.length()) { // a standing cluster's clients are no place to move to
            callsBySource.incrementAndGet(source);
        }
    }

    /** The calls by caller node since the last window, counting from zero again. */
    long[] takeWindow() {
        long[] window = new long[callsBySource.length()];
        for (int n = 0; n < window.length; n++) {
            window[n] = callsBySource.getAndSet(n, 0);
        }
        return window;
    }
}
