package dev.cumulus.internal.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The futex doorbells: a sleeping node wakes when rung, long before its timeout, and not before. */
@Timeout(30)
class DoorbellsTest {
    @TempDir
    Path dir;

    @Test
    void aRingWakesTheSleeperLongBeforeItsTimeout() throws Exception {
        Doorbells sleeperSide = Doorbells.open(dir.resolve("bells"), 4);
        Doorbells senderSide = Doorbells.open(dir.resolve("bells"), 4); // a second mapping, as another process has
        assertNotNull(sleeperSide, "futex doorbells are available on this Linux/amd64 box");
        CompletableFuture<Long> slept = new CompletableFuture<>();
        CompletableFuture<Void> announced = new CompletableFuture<>();
        Thread sleeper = Thread.ofPlatform().start(() -> {
            sleeperSide.announce(2);
            announced.complete(null);
            long start = System.nanoTime();
            sleeperSide.sleep(2, TimeUnit.SECONDS.toNanos(20));
            slept.complete(System.nanoTime() - start);
            sleeperSide.awake(2);
        });
        announced.get(10, TimeUnit.SECONDS);
        senderSide.ring(2);
        long sleptNs = slept.get(10, TimeUnit.SECONDS);
        assertTrue(sleptNs < TimeUnit.SECONDS.toNanos(10), "slept " + sleptNs + " ns: the ring did not wake it");
        sleeper.join(10_000);
    }

    private static java.util.BitSet cpus(int... ids) {
        java.util.BitSet set = new java.util.BitSet();
        for (int id : ids) {
            set.set(id);
        }
        return set;
    }

    /**
     * Yielding main threads and waiters count per CPU; a yielder moves to the least loaded allowed CPU without a waiter
     * when that holds two or more fewer.
     */
    @Test
    void aYielderMovesToAnAllowedCpuWithTwoFewerYieldersAndNoWaiter() {
        Doorbells one = Doorbells.open(dir.resolve("bells"), 4);
        Doorbells other = Doorbells.open(dir.resolve("bells"), 4); // another process's mapping sees the same slots
        assertNotNull(one);
        java.util.BitSet two = cpus(0, 1);
        assertEquals(-1, one.spreadTarget(1, two), "nobody yields anywhere");
        one.spinning(0, 1);
        other.spinning(1, 1);
        assertEquals(0, one.spreadTarget(1, two), "two on CPU 1, none on CPU 0");
        assertEquals(-1, one.spreadTarget(0, two));
        other.spinning(2, 0);
        assertEquals(-1, one.spreadTarget(1, two), "2 against 1: moving one only swaps them");
        other.spinning(3, 1);
        assertEquals(0, other.spreadTarget(1, two), "3 against 1");
        one.spinning(0, -1);
        assertEquals(-1, one.spreadTarget(1, two), "node 0 stopped yielding: 2 against 1");
        assertEquals(-1, one.spreadTarget(5, two), "a CPU the thread may not use");
        assertEquals(-1, one.spreadTarget(-1, two));
        assertEquals(-1, one.spreadTarget(1, null), "allowed CPUs unknown");
    }

    /** A cpuset {0, 2}: CPU 1 is not a place to go, and the yielders on CPU 2 count. */
    @Test
    void onlyAllowedCpusCountAsPlacesToGo() {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 5);
        assertNotNull(bells);
        bells.spinning(0, 0);
        bells.spinning(1, 0);
        bells.spinning(2, 2);
        bells.spinning(3, 2);
        bells.spinning(4, 2);
        assertEquals(-1, bells.spreadTarget(0, cpus(0, 2)), "CPU 2 holds 3 against CPU 0's 2; CPU 1 is not allowed");
        bells.spinning(0, 2);
        assertEquals(0, bells.spreadTarget(2, cpus(0, 2)), "4 on CPU 2 against 1 on CPU 0");
        assertEquals(4, bells.spreadTarget(2, cpus(0, 2, 4)), "the least loaded allowed CPU");
    }

    /** A waiting caller's CPU is never a place to go: making way would send the thread back at once. */
    @Test
    void aWaitersCpuIsNoPlaceToGo() {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 4);
        assertNotNull(bells);
        bells.waiting(0, 0);
        bells.spinning(1, 1);
        bells.spinning(2, 1);
        bells.spinning(3, 1);
        assertTrue(bells.waiterOn(0));
        assertEquals(-1, bells.spreadTarget(1, cpus(0, 1)));
        assertEquals(2, bells.spreadTarget(1, cpus(0, 1, 2)));
    }

    @Test
    void ringingAnotherNodeDoesNotWakeASleeper() {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 4);
        assertNotNull(bells);
        bells.announce(3);
        Thread.ofPlatform().start(() -> bells.ring(1));
        long start = System.nanoTime();
        bells.sleep(3, TimeUnit.MILLISECONDS.toNanos(300));
        long slept = System.nanoTime() - start;
        assertTrue(slept >= TimeUnit.MILLISECONDS.toNanos(250), "woke after " + slept + " ns: node 1's ring woke node 3");
    }

    @Test
    void aSleepAfterTheBellWasRungReturnsAtOnce() {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 2);
        assertNotNull(bells);
        bells.announce(0);
        bells.ring(0); // rung between the announcement and the sleep: the bell is AWAKE again
        long start = System.nanoTime();
        bells.sleep(0, TimeUnit.SECONDS.toNanos(20));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "a lost wake-up: it slept to the timeout");
    }

    @Test
    void aWaitersCpuIsSeenThroughAnotherMappingUntilItStopsWaiting() {
        Doorbells waiterSide = Doorbells.open(dir.resolve("bells"), 3);
        Doorbells spinnerSide = Doorbells.open(dir.resolve("bells"), 3);
        assertNotNull(waiterSide);
        assertFalse(spinnerSide.waiterOn(0), "nobody waits yet");
        waiterSide.waiting(2, 1);
        assertTrue(spinnerSide.waiterOn(1), "node 2 waits on CPU 1");
        assertFalse(spinnerSide.waiterOn(0), "not on CPU 0");
        waiterSide.waiting(2, 0);
        assertTrue(spinnerSide.waiterOn(0), "the waiter moved to CPU 0");
        assertFalse(spinnerSide.waiterOn(1));
        waiterSide.notWaiting(2, 1);
        assertTrue(spinnerSide.waiterOn(0), "a waiter that published CPU 1 does not clear another's CPU 0");
        waiterSide.notWaiting(2, 0);
        assertFalse(spinnerSide.waiterOn(0), "node 2 no longer waits");
        assertFalse(spinnerSide.waiterOn(-1), "-1 (no CPU) never matches");
    }
}
