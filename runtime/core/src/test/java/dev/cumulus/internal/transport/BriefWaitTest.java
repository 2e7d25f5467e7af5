package dev.cumulus.internal.transport;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BriefWaitTest {
    /**
     * A check that does work (a waiting caller runs the calls it polls) counts against the budget right away: 1 ms of
     * work per check and a 5 ms budget give at most 6 checks after the first, not 16 (when the clock was read every
     * 16th check only).
     */
    @Test
    void checksThatWorkLongSpendTheBudget() {
        AtomicInteger checks = new AtomicInteger();
        boolean done = BriefWait.until(() -> {
            checks.incrementAndGet();
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            return false;
        }, TimeUnit.MILLISECONDS.toNanos(5));
        assertFalse(done);
        assertTrue(checks.get() <= 7, checks.get() + " checks of 1 ms each for a budget of 5 ms");
    }

    @Test
    void returnsAsSoonAsDone() {
        AtomicInteger checks = new AtomicInteger();
        assertTrue(BriefWait.until(() -> checks.incrementAndGet() == 3, TimeUnit.SECONDS.toNanos(10)));
        assertEquals(3, checks.get());
    }

    @Test
    void aZeroBudgetChecksOnce() {
        AtomicInteger checks = new AtomicInteger();
        assertFalse(BriefWait.until(() -> checks.incrementAndGet() < 0, 0));
        assertEquals(1, checks.get());
    }
}
