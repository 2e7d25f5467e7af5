package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code moveAsync} failures on one element that no reply brings: a tuple this node refused before anything was
 * sent (it does not match the template, or cannot be transferred) and the failures of moves into an element this node
 * holds. Each waits, per thread, for that thread's next operation on the element, which throws it once ("the same
 * thread's next operation on the element throws that failure too"); a remote element's failures that come with a
 * reply are {@link CallerSequence}'s. Shared by every handle of the element on this node; any thread. An operation
 * pays one volatile read while nothing waits.
 */
final class RefusedMoves {
    /** Per thread id, its oldest failure not reported yet. */
    private final Map<Long, RuntimeException> byThread = new ConcurrentHashMap<>();
    /** Whether {@link #byThread} may hold anything: the operations' one look. */
    private volatile boolean any;

    /** Keeps {@code failure} of {@code thread}'s {@code moveAsync} for that thread's next operation. */
    void record(long thread, Throwable failure) {
        if (failure instanceof RuntimeException r) {
            byThread.putIfAbsent(thread, r);
            any = true;
        }
    }

    /** Throws, once, the failure kept for the current thread, if any. */
    void rethrow(String element) {
        if (!any) {
            return;
        }
        RuntimeException cause = byThread.remove(Thread.currentThread().threadId());
        if (cause == null) {
            return;
        }
        if (byThread.isEmpty()) {
            any = false;
            if (!byThread.isEmpty()) {
                any = true; // another thread recorded one meanwhile
            }
        }
        String why = "an earlier moveAsync of this thread into element " + element + " failed (its future has the"
            + " same error): " + cause.getMessage();
        if (cause instanceof NodeFailedException n) {
            throw new NodeFailedException(n.nodeId(), why);
        }
        throw new CumulusException(why, cause);
    }
}
