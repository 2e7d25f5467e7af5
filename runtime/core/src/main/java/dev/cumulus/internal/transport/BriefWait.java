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
     * or a yield.
     */
    public static boolean until(BooleanSupplier done, long budgetNs) {
        if (done.getAsBoolean()) {
            return true;
        }
        if (budgetNs <= 0) {
            return false;
        }
        long start = System.nanoTime();
        boolean yielding = false;
        for (int i = 1; ; i++) {
            if (done.getAsBoolean()) {
                return true;
            }
            if ((i & 15) == 0) {
                long waited = System.nanoTime() - start;
                if (waited > budgetNs) {
                    return false;
                }
                yielding = waited > SPIN_NS;
            }
            if (yielding) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
