package dev.cumulus.internal.rpc;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a method fared inline. After its k-th slow run its next {@code 16 << k} calls get virtual threads (k at most
 * 6), so a method that always blocks is tried inline once per 1,024 calls and one that was slow while warming up or
 * in a GC pause comes back soon; every 64 fast inline runs in a row forgive one slow run. A method with a clean record
 * is exiled only when a slow run follows another within {@link #REPEAT_WINDOW_NS} (end of one to start of the next):
 * a lone slow run of a quick method is a preemption, a GC pause or the JIT, while a method that blocks is slow run
 * after run. Updated without locks: a lost update only moves a decision by a call.
 */
final class InlineRecord {
    /** Caps the skip at 16 << 6 = 1,024 calls: a pause (GC, JIT) during a quick method costs little. */
    private static final int MAX_SLOW_RUNS = 6;
    private static final int FORGIVE_AFTER = 64;
    private final AtomicInteger skip = new AtomicInteger();
    /** See the class comment. */
    static final long REPEAT_WINDOW_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private volatile int slowRuns;
    private volatile int fastRuns;
    /** When the last slow run ended ({@code nanoTime}). */
    private volatile long lastSlowEndNs = System.nanoTime() - Long.MAX_VALUE / 2;

    /** A run that took {@code tookNs}, ending at {@code endNs}, was slow. */
    void slowRun(long endNs, long tookNs) {
        boolean repeated = endNs - tookNs - lastSlowEndNs < REPEAT_WINDOW_NS;
        lastSlowEndNs = endNs;
        if (slowRuns == 0 && !repeated) {
            return; // a lone slow run of a method with a clean record
        }
        int runs = Math.min(slowRuns + 1, MAX_SLOW_RUNS);
        slowRuns = runs;
        fastRuns = 0;
        skip.set(16 << runs);
    }

    void fastRun() {
        if (slowRuns == 0) {
            return; // nothing to forgive: no write on the common path
        }
        int fast = fastRuns + 1;
        if (fast >= FORGIVE_AFTER && slowRuns > 0) {
            slowRuns = slowRuns - 1;
            fast = 0;
        }
        fastRuns = fast;
    }

    boolean skipThisCall() {
        return skip.get() > 0 && skip.getAndUpdate(n -> Math.max(n - 1, 0)) > 0;
    }
}

