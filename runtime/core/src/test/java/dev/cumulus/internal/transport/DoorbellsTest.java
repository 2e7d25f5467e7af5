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
            sleeperSide.announce(2, false);
            announced.complete(null);
            long start = System.nanoTime();
            sleeperSide.sleep(2, false, TimeUnit.SECONDS.toNanos(20));
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
        bells.announce(3, false);
        Thread.ofPlatform().start(() -> bells.ring(1));
        long start = System.nanoTime();
        bells.sleep(3, false, TimeUnit.MILLISECONDS.toNanos(300));
        long slept = System.nanoTime() - start;
        assertTrue(slept >= TimeUnit.MILLISECONDS.toNanos(250), "woke after " + slept + " ns: node 1's ring woke node 3");
    }

    @Test
    void aSleepAfterTheBellWasRungReturnsAtOnce() {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 2);
        assertNotNull(bells);
        bells.announce(0, false);
        bells.ring(0); // rung between the announcement and the sleep: the bell is AWAKE again
        long start = System.nanoTime();
        bells.sleep(0, false, TimeUnit.SECONDS.toNanos(20));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "a lost wake-up: it slept to the timeout");
    }

    @Test
    void aRingWakesASleepingWaiterAndTheMainThreadsAnnouncementStopsItsSleep() {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 2);
        assertNotNull(bells);
        bells.announce(1, true);
        bells.ring(1); // a waiter's announcement rings too
        long start = System.nanoTime();
        bells.sleep(1, true, TimeUnit.SECONDS.toNanos(20));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "the ring did not reach the waiter");
        bells.announce(1, true);
        bells.announce(1, false); // the main thread announces after a wake-up the waiter may have missed
        start = System.nanoTime();
        bells.sleep(1, true, TimeUnit.SECONDS.toNanos(20));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "the waiter slept past the main thread's "
            + "announcement");
    }

    @Test
    void aRingOnAWaitersAnnouncementWakesTheWaiterButNotTheSleepingMainThread() throws Exception {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 2);
        assertNotNull(bells);
        CompletableFuture<Void> mainWoke = new CompletableFuture<>();
        bells.announce(1, false);
        Thread main = Thread.ofPlatform().name("bells-test-main").start(() -> {
            bells.sleep(1, false, TimeUnit.SECONDS.toNanos(20));
            mainWoke.complete(null);
        });
        awaitAsleep("bells-test-main");
        CompletableFuture<Void> waiterWoke = new CompletableFuture<>();
        bells.announce(1, true); // a waiter announces over the sleeping main thread's value
        Thread waiter = Thread.ofPlatform().name("bells-test-waiter").start(() -> {
            bells.sleep(1, true, TimeUnit.SECONDS.toNanos(20));
            waiterWoke.complete(null);
        });
        awaitAsleep("bells-test-waiter");
        bells.ring(1);
        waiterWoke.get(10, TimeUnit.SECONDS);
        assertFalse(mainWoke.isDone(), "the ring for the waiter woke the main thread too");
        assertTrue(stateOf("bells-test-main") == 'S', "the main thread sleeps on");
        bells.wake(1); // a caller out of looks wakes the main thread
        mainWoke.get(10, TimeUnit.SECONDS);
        main.join();
        waiter.join();
    }

    @Test
    void wakingTheWaitersLeavesTheMainThreadsAnnouncementForSenders() throws Exception {
        Doorbells bells = Doorbells.open(dir.resolve("bells"), 2);
        assertNotNull(bells);
        bells.announce(0, true);
        CompletableFuture<Void> waiterWoke = new CompletableFuture<>();
        Thread waiter = Thread.ofPlatform().name("bells-test-waiter0").start(() -> {
            bells.sleep(0, true, TimeUnit.SECONDS.toNanos(20));
            waiterWoke.complete(null);
        });
        awaitAsleep("bells-test-waiter0");
        bells.wakeWaiters(0);
        waiterWoke.get(10, TimeUnit.SECONDS);
        waiter.join();
        bells.announce(0, true);
        bells.wakeWaiters(0); // before the waiter sleeps: its sleep returns at once
        long start = System.nanoTime();
        bells.sleep(0, true, TimeUnit.SECONDS.toNanos(20));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "the waiter slept past its wake-up");
        bells.announce(0, false);
        bells.wakeWaiters(0); // the main thread's announcement stays: a sender still rings it
        start = System.nanoTime();
        bells.sleep(0, false, TimeUnit.MILLISECONDS.toNanos(300));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(250), "the main thread's bell was "
            + "cleared: it did not sleep");
    }

    /** Waits until the thread named {@code name} sleeps in the kernel (state S in /proc). */
    private static void awaitAsleep(String name) throws Exception {
        while (stateOf(name) != 'S') {
            Thread.yield();
        }
    }

    private static char stateOf(String name) throws Exception {
        try (var tasks = java.nio.file.Files.list(Path.of("/proc/self/task"))) {
            for (Path t : tasks.toList()) {
                if (java.nio.file.Files.readString(t.resolve("comm")).trim().equals(name.substring(0,
                    Math.min(15, name.length())))) {
                    String stat = java.nio.file.Files.readString(t.resolve("stat"));
                    return stat.charAt(stat.lastIndexOf(')') + 2);
                }
            }
        }
        return '?';
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
