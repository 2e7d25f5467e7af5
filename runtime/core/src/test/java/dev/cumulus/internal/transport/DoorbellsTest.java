package dev.cumulus.internal.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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
            sleeperSide.announce(2, Doorbells.SLEEPING);
            announced.complete(null);
            long start = System.nanoTime();
            sleeperSide.sleep(2, Doorbells.SLEEPING, TimeUnit.SECONDS.toNanos(20));
            slept.complete(System.nanoTime() - start);
            sleeperSide.awake(2);
        });
        announced.get(10, TimeUnit.SECONDS);
        senderSide.ring(2);
        long sleptNs = slept.get(10, TimeUnit.SECONDS);
        assertTrue(sleptNs < TimeUnit.SECONDS.toNanos(10), "slept " + sleptNs + " ns: the ring did not wake it");
        sleeper.join(10_000);
    }

    @Test
    void ringingAnotherNodeDoesNotWakeASleeper() {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 4);
        assertNotNull(bells);
        bells.announce(3, Doorbells.SLEEPING);
        Thread.ofPlatform().start(() -> bells.ring(1));
        long start = System.nanoTime();
        bells.sleep(3, Doorbells.SLEEPING, TimeUnit.MILLISECONDS.toNanos(300));
        long slept = System.nanoTime() - start;
        assertTrue(slept >= TimeUnit.MILLISECONDS.toNanos(250), "woke after " + slept + " ns: node 1's ring woke node 3");
    }

    @Test
    void aSleepAfterTheBellWasRungReturnsAtOnce() {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 2);
        assertNotNull(bells);
        bells.announce(0, Doorbells.SLEEPING);
        bells.ring(0); // rung between the announcement and the sleep: the bell is AWAKE again
        long start = System.nanoTime();
        bells.sleep(0, Doorbells.SLEEPING, TimeUnit.SECONDS.toNanos(20));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "a lost wake-up: it slept to the timeout");
    }

    @Test
    void aKeptBellIsNotRungUntilTheNodeAnnouncesAgain() {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 2);
        assertNotNull(bells);
        bells.announce(1, Doorbells.NAPPING);
        bells.takeOver(1); // a thread of node 1 polls: NAPPING becomes KEPT
        assertTrue(bells.keep(1), "a napping node's taken-over bell is kept");
        bells.ring(1);
        assertTrue(bells.keep(1), "a ring must leave a kept bell alone");
        bells.awake(1); // the nap ended: the bell stays kept, and the next nap may be on it
        assertTrue(bells.kept(1), "waking must leave a kept bell kept");
        bells.announce(1, Doorbells.NAPPING); // the nap ended: the next one is rung again
        bells.ring(1);
        assertFalse(bells.keep(1), "a rung bell is AWAKE: nothing to keep");
    }

    @Test
    void anUnboundedSleepsBellCannotBeKept() {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 2);
        assertNotNull(bells);
        bells.announce(0, Doorbells.SLEEPING);
        assertFalse(bells.keep(0), "only a nap ends by itself: a sleep's bell must be handed back");
        bells.takeOver(0);
        assertFalse(bells.keep(0), "taken over during an unbounded sleep: hand back");
        bells.awake(0);
        assertFalse(bells.keep(0));
    }

    @Test
    void aRingWakesANappingSleeperAndATakeOverDoesNot() throws Exception {
        Doorbells sleeperSide = Doorbells.open(dir.resolve("bells"), 2);
        Doorbells senderSide = Doorbells.open(dir.resolve("bells"), 2);
        assertNotNull(sleeperSide);
        sleeperSide.announce(1, Doorbells.NAPPING);
        long start = System.nanoTime();
        sleeperSide.sleep(1, Doorbells.NAPPING, TimeUnit.MILLISECONDS.toNanos(300)); // nobody rings: the bound ends it
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(250), "a nap ended before its bound");
        CompletableFuture<Void> announced = new CompletableFuture<>();
        CompletableFuture<Long> slept = new CompletableFuture<>();
        Thread sleeper = Thread.ofPlatform().start(() -> {
            sleeperSide.announce(1, Doorbells.NAPPING);
            announced.complete(null);
            long from = System.nanoTime();
            sleeperSide.sleep(1, Doorbells.NAPPING, TimeUnit.SECONDS.toNanos(20));
            slept.complete(System.nanoTime() - from);
        });
        announced.get(10, TimeUnit.SECONDS);
        senderSide.ring(1);
        assertTrue(slept.get(10, TimeUnit.SECONDS) < TimeUnit.SECONDS.toNanos(10), "the ring did not end the nap");
        sleeper.join(10_000);
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
