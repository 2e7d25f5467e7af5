package dev.cumulus.internal.transport;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * How a thread waits for something that usually comes within microseconds (a reply, a tuple) before it parks: spin
 * for {@link #SPIN_NS}, then yield the core between checks — co-located nodes on a box with few cores may need
 * it — for the rest of the budget. Parking and being woken costs tens of µs on a small virtual machine; a brief
 * wait that succeeds costs a few. Settings: {@code -Dcumulus.callerSpinNs} (3 µs) and {@code -Dcumulus.callerPollNs}
 * (the budget, 50 µs; 0 turns brief waits off).
 */
public final class BriefWait {
    /** How long a brief wait spins before it starts yielding. */
    public static final long SPIN_NS = Long.getLong("cumulus.callerSpinNs", TimeUnit.MICROSECONDS.toNanos(3));
    /** The default budget of a brief wait. */
    public static final long BUDGET_NS = Long.getLong("cumulus.callerPollNs", TimeUnit.MICROSECONDS.toNanos(50));

    private BriefWait() {
    }

    /**
     * Checks {@code done} until it is true or {@code budgetNs} has passed; returns its last answer. {@code done} may
     * do work itself (e.g. poll a transport); it is called again at once after it returned false only after a spin
     * or a yield. The clock is read after every check (~25 ns): a check that did work (a waiting caller runs the
     * brief calls it polls, and sending a 128 KiB shared-array grant takes ~20 µs) or a yield (the core may go to
     * another thread for long) counts against the budget at once. (Read every 16th check, a caller waiting at a
     * barrier while it served misses kept polling — its node's main thread asleep — for 16 times its budget.)
     */
    public static boolean until(BooleanSupplier done, long budgetNs) {
        if (done.getAsBoolean()) {
            return true;
        }
        return budgetNs > 0 && until(done, budgetNs, System.nanoTime());
    }

    /**
     * {@link #until(BooleanSupplier, long)} with the wait counted from {@code startNs} ({@code nanoTime}, e.g. when the
     * request it waits for was sent, so the wait needs no clock read of its own before its first check).
     */
    public static boolean until(BooleanSupplier done, long budgetNs, long startNs) {
        long start = startNs;
        while (true) {
            if (done.getAsBoolean()) {
                return true;
            }
            long waited = System.nanoTime() - start;
            if (waited > budgetNs) {
                return false;
            }
            if (waited > SPIN_NS) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
