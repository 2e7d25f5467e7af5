package dev.cumulus.internal.transport;

import java.util.concurrent.TimeUnit;

/**
 * How a thread waits for something that usually comes within microseconds (a reply, a tuple) before it parks: spin
 * for {@link #SPIN_NS}, then yield the core between looks — co-located nodes on a box with few cores may need
 * it — for the rest of the budget. Parking and being woken costs tens of µs on a small virtual machine; a brief
 * wait that succeeds costs a few. Settings: {@code -Dcumulus.callerSpinNs} (3 µs) and {@code -Dcumulus.callerPollNs}
 * (the budget, 50 µs; 0 turns brief waits off).
 */
public final class BriefWait {
    /** How long a brief wait spins before it starts yielding. */
    public static final long SPIN_NS = Long.getLong("cumulus.callerSpinNs", TimeUnit.MICROSECONDS.toNanos(3));
    /** The default budget of a brief wait. */
    public static final long BUDGET_NS = Long.getLong("cumulus.callerPollNs", TimeUnit.MICROSECONDS.toNanos(50));
    /** What a {@link Look} returns when the wait is over. */
    public static final int DONE = -1;
    /** While spinning, idle looks between two clock reads (a power of two). */
    static final int IDLE_LOOKS_PER_CLOCK_READ = 8;

    private BriefWait() {
    }

    /** One look of a brief wait: {@link #DONE}, or how much work it did (0: none; a poll that found nothing). */
    @FunctionalInterface
    public interface Look {
        int look();
    }

    /**
     * Looks until {@code look} says {@link #DONE} or {@code budgetNs} have passed since {@code startNs}
     * ({@code nanoTime}); returns the last clock reading (at least {@code startNs}). The clock (~25 ns) is read after
     * every look that did work (a waiting caller runs the brief calls it polls, and sending a 128 KiB shared-array
     * grant takes ~20 µs), after every yield (the core may go to another thread for long), and while spinning after
     * every {@link #IDLE_LOOKS_PER_CLOCK_READ}th idle look — an idle spin then looks every few tens of ns, so what it
     * waits for is seen sooner. (Read every 16th look whatever it did, a caller waiting at a barrier while it served
     * misses kept polling — its node's main thread asleep — for 16 times its budget.)
     */
    public static long until(Look look, long budgetNs, long startNs) {
        long now = startNs;
        boolean spinning = true;
        int idleLooks = 0;
        while (true) {
            int work = look.look();
            if (work == DONE) {
                return now;
            }
            if (work > 0 || !spinning || (++idleLooks & (IDLE_LOOKS_PER_CLOCK_READ - 1)) == 0) {
                now = System.nanoTime();
                long waited = now - startNs;
                if (waited > budgetNs) {
                    return now;
                }
                spinning = waited <= SPIN_NS;
            }
            if (spinning) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }
}
