package dev.cumulus.internal.transport;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BriefWaitTest {
    /**
     * A look that does work (a waiting caller runs the calls it polls) counts against the budget right away: 1 ms of
     * work per look and a 5 ms budget give at most 6 looks, not 8 or 16 (when the clock was read every few looks).
     */
    @Test
    void looksThatWorkLongSpendTheBudget() {
        AtomicInteger looks = new AtomicInteger();
        long start = System.nanoTime();
        long last = BriefWait.until(() -> {
            looks.incrementAndGet();
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            return 1;
        }, TimeUnit.MILLISECONDS.toNanos(5), start);
        assertTrue(looks.get() <= 6, looks.get() + " looks of 1 ms each for a budget of 5 ms");
        assertTrue(last - start >= TimeUnit.MILLISECONDS.toNanos(5), "it returns the clock reading that ended it");
    }

    @Test
    void returnsAsSoonAsDone() {
        AtomicInteger looks = new AtomicInteger();
        BriefWait.until(() -> looks.incrementAndGet() == 3 ? BriefWait.DONE : 0, TimeUnit.SECONDS.toNanos(10),
            System.nanoTime());
        assertEquals(3, looks.get());
    }

    @Test
    void idleLooksEndWithinTheBudgetThoughTheClockIsReadOnlyEveryFewLooks() {
        AtomicInteger looks = new AtomicInteger();
        long start = System.nanoTime();
        long last = BriefWait.until(() -> {
            looks.incrementAndGet();
            return 0;
        }, TimeUnit.MILLISECONDS.toNanos(20), start);
        long took = System.nanoTime() - start;
        assertTrue(last - start > TimeUnit.MILLISECONDS.toNanos(20), "ends once the budget has passed");
        assertTrue(took < TimeUnit.SECONDS.toNanos(5), "took " + took + " ns");
        assertTrue(looks.get() > BriefWait.IDLE_LOOKS_PER_CLOCK_READ, looks.get() + " looks");
    }

    @Test
    void aZeroBudgetLooksOnce() {
        AtomicInteger looks = new AtomicInteger();
        BriefWait.until(() -> {
            looks.incrementAndGet();
            return 1;
        }, 0, System.nanoTime());
        assertEquals(1, looks.get());
    }
}
