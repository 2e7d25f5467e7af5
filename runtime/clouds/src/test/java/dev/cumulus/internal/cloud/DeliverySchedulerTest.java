package dev.cumulus.internal.cloud;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runner role: steps run once each, in order, on whichever thread drains; a drain is asked for once; a write that
 * waits does not strand the steps after it.
 */
@Timeout(60)
class DeliverySchedulerTest {
    private record Step(long seq, Runnable body, Object monitor) implements DeliveryScheduler.Step {
        Step(long seq, Runnable body) {
            this(seq, body, null);
        }

        @Override
        public boolean inline() {
            return false;
        }

        @Override
        public void run() {
            body.run();
        }
    }

    /** A step that adds its number to {@code into} (a plain list: only the role's holder touches it). */
    private static Step recorded(long seq, List<Long> into) {
        return new Step(seq, () -> into.add(seq));
    }

    private final Object monitor = new Object();
    private boolean filled;

    /** Like Bin.get on an empty bin: waits until {@link #fill} ran, then counts {@code resumed} down. */
    private Step getWhenFilled(DeliveryScheduler s, long seq, CountDownLatch resumed) {
        return new Step(seq, () -> {
            synchronized (monitor) {
                try {
                    while (!filled) {
                        s.await(monitor);
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                resumed.countDown();
            }
        });
    }

    /** Like Bin.put: fills and notifies. */
    private Step fill(DeliveryScheduler s, long seq) {
        return new Step(seq, () -> {
            synchronized (monitor) {
                filled = true;
                s.notify(monitor, true);
            }
        });
    }

    @Test
    void aDrainIsAskedForOnceAndRunsEveryQueuedStepOnTheCallingThread() {
        List<Long> applied = new CopyOnWriteArrayList<>();
        List<Long> ran = new ArrayList<>();
        DeliveryScheduler s = new DeliveryScheduler("test", applied::add);
        assertTrue(s.deliver(recorded(1, ran)), "the first step asks for a drain");
        assertFalse(s.deliver(recorded(2, ran)), "one is on its way already");
        assertFalse(s.deliver(recorded(3, ran)));
        s.drain();
        assertEquals(List.of(1L, 2L, 3L), ran);
        assertEquals(List.of(1L, 2L, 3L), applied);
        assertTrue(s.deliver(recorded(4, ran)), "after a drain the next step asks again");
        s.drain();
        assertEquals(List.of(1L, 2L, 3L, 4L), ran);
    }

    @Test
    void concurrentDrainsRunEachStepOnceInOrder() throws Exception {
        int n = 200_000;
        List<Long> ran = new ArrayList<>();
        DeliveryScheduler s = new DeliveryScheduler("test", seq -> { });
        CountDownLatch delivered = new CountDownLatch(1);
        Thread deliverer = Thread.ofPlatform().start(() -> {
            for (long i = 0; i < n; i++) {
                s.deliver(recorded(i, ran));
            }
            delivered.countDown();
        });
        Runnable drainer = () -> {
            while (delivered.getCount() > 0) {
                s.drain();
            }
            s.drain();
        };
        Thread a = Thread.ofPlatform().start(drainer);
        Thread b = Thread.ofPlatform().start(drainer);
        deliverer.join();
        a.join();
        b.join();
        s.drain();
        assertEquals(n, ran.size()); // joined: every holder's writes are visible here
        for (int i = 0; i < n; i++) {
            if (ran.get(i) != i) {
                throw new AssertionError("step " + ran.get(i) + " ran at position " + i);
            }
        }
    }

    @Test
    void wakingTheSchedulersThreadAppliesQueuedSteps() throws Exception {
        CountDownLatch applied = new CountDownLatch(2);
        DeliveryScheduler s = new DeliveryScheduler("test", seq -> applied.countDown());
        s.start();
        try {
            List<Long> ran = new ArrayList<>();
            s.deliver(recorded(1, ran));
            s.deliver(recorded(2, ran));
            s.wake();
            assertTrue(applied.await(20, TimeUnit.SECONDS), "the scheduler's thread did not apply the steps");
        } finally {
            s.stop();
        }
    }

    /**
     * A write that waits on the scheduler's own thread blocks that thread; a step delivered after the runner that the
     * wait started gave the role up must still be run (found in review: it was handed to the blocked thread and lost).
     */
    @Test
    void aNotifyDeliveredAfterTheWaitersRunnerGaveUpIsApplied() throws Exception {
        CountDownLatch firstWaits = new CountDownLatch(1); // await() marks the waiting write applied
        CountDownLatch secondApplied = new CountDownLatch(1);
        CountDownLatch waiterResumed = new CountDownLatch(1);
        CountDownLatch waitReported = new CountDownLatch(1);
        DeliveryScheduler s = new DeliveryScheduler("test", seq -> {
            if (seq == 1) {
                firstWaits.countDown();
            } else if (seq == 2) {
                secondApplied.countDown();
            }
        }, waitReported::countDown);
        s.start();
        try {
            // like Bin.get on an empty bin, run by the scheduler's thread (the polling thread could not run it)
            if (s.deliver(getWhenFilled(s, 1, waiterResumed))) {
                s.wake();
            }
            assertTrue(firstWaits.await(10, TimeUnit.SECONDS), "the first write did not start waiting");
            assertTrue(waitReported.await(10, TimeUnit.SECONDS), "the wait was not reported");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (s.runnerHeld()) { // the runner the wait started finds nothing to do and gives the role up
                assertTrue(System.nanoTime() < deadline, "the runner role was never given up");
                Thread.onSpinWait();
            }
            // like Bin.put: fills and notifies
            if (s.deliver(fill(s, 2))) {
                s.wake();
            }
            assertTrue(secondApplied.await(10, TimeUnit.SECONDS), "the second write was never applied");
            assertTrue(waiterResumed.await(10, TimeUnit.SECONDS), "the waiting write was never resumed");
        } finally {
            s.stop();
        }
    }

    /**
     * A write that wakes a waiting one counts as applied (for barriers, and calls' causality) only once the woken write
     * went on to its end: else a barrier could pass while the woken write still runs on this replica, and a read after
     * it see the state between the two (InterruptedOwnWriteTest's "replicas diverged", once in ~20 runs).
     */
    @Test
    void aWriteThatWakesAWaiterCountsAsAppliedOnlyOnceTheWaiterWentOn() throws Exception {
        CountDownLatch firstWaits = new CountDownLatch(1);
        CountDownLatch secondApplied = new CountDownLatch(1);
        AtomicBoolean waiterDone = new AtomicBoolean();
        AtomicBoolean waiterDoneAtSecond = new AtomicBoolean();
        List<Long> applied = new CopyOnWriteArrayList<>();
        DeliveryScheduler s = new DeliveryScheduler("test", seq -> {
            applied.add(seq);
            if (seq == 1) {
                firstWaits.countDown();
            } else if (seq == 2) {
                waiterDoneAtSecond.set(waiterDone.get());
                secondApplied.countDown();
            }
        });
        s.start();
        try {
            CountDownLatch resumed = new CountDownLatch(1);
            Step waiter = getWhenFilled(s, 1, resumed);
            if (s.deliver(new Step(1, () -> {
                waiter.run();
                waiterDone.set(true); // the woken write's last step
            }))) {
                s.wake();
            }
            assertTrue(firstWaits.await(10, TimeUnit.SECONDS), "the first write did not start waiting");
            if (s.deliver(fill(s, 2))) {
                s.wake();
            }
            assertTrue(secondApplied.await(10, TimeUnit.SECONDS), "the second write was never applied");
            assertTrue(waiterDoneAtSecond.get(), "write 2 counted as applied while the write it woke still ran");
            assertEquals(List.of(1L, 2L), applied);
        } finally {
            s.stop();
        }
    }

    /**
     * A thread that holds the monitor a woken write needs back learns so (a barrier then fails with a message instead of
     * waiting for good), and nobody else is told.
     */
    @Test
    void aThreadHoldingTheMonitorAWokenWriteNeedsIsToldSo() throws Exception {
        CountDownLatch firstWaits = new CountDownLatch(1);
        CountDownLatch resumed = new CountDownLatch(1);
        DeliveryScheduler s = new DeliveryScheduler("test", seq -> {
            if (seq == 1) {
                firstWaits.countDown();
            }
        });
        s.start();
        try {
            if (s.deliver(getWhenFilled(s, 1, resumed))) {
                s.wake();
            }
            assertTrue(firstWaits.await(10, TimeUnit.SECONDS), "the first write did not start waiting");
            assertEquals(null, s.monitorHeldFromAWrite(), "no write is being woken");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (s.runnerHeld()) { // the runner the wait started finds nothing to do and gives the role up
                assertTrue(System.nanoTime() < deadline, "the runner role was never given up");
                Thread.onSpinWait();
            }
            Step fill = fill(s, 2);
            s.deliver(fill); // no drain: this thread runs it
            synchronized (monitor) {
                // this thread runs the notifying write itself (its own write), holding the monitor, as user code may
                assertTrue(s.runOwn(fill), "the own write did not run here");
                Object held = null;
                while (held == null) { // the woken write's runner resumes it, and needs the monitor for that
                    assertTrue(System.nanoTime() < deadline, "the woken write was never resumed");
                    held = s.monitorHeldFromAWrite();
                    Thread.onSpinWait();
                }
                assertSame(monitor, held);
                Object[] seenElsewhere = {"unset"};
                Thread other = Thread.ofPlatform().start(() -> seenElsewhere[0] = s.monitorHeldFromAWrite());
                other.join();
                assertEquals(null, seenElsewhere[0], "another thread does not hold it");
            }
            assertTrue(resumed.await(10, TimeUnit.SECONDS), "the woken write did not go on once the monitor was free");
            assertEquals(null, s.monitorHeldFromAWrite());
        } finally {
            s.stop();
        }
    }

    /** A running write blocked on the monitor of its replica that a thread holds: that thread is told too. */
    @Test
    void aThreadHoldingTheMonitorARunningWriteIsBlockedOnIsToldSo() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        DeliveryScheduler s = new DeliveryScheduler("test", seq -> { });
        s.start();
        try {
            Object held;
            synchronized (monitor) {
                if (s.deliver(new Step(1, () -> {
                    synchronized (monitor) {
                        ran.countDown();
                    }
                }, monitor))) {
                    s.wake();
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                do {
                    assertTrue(System.nanoTime() < deadline, "the write never blocked on the monitor");
                    Thread.onSpinWait();
                    held = s.monitorHeldFromAWrite();
                } while (held == null);
                assertSame(monitor, held);
            }
            assertTrue(ran.await(10, TimeUnit.SECONDS), "the write did not go on once the monitor was free");
            assertEquals(null, s.monitorHeldFromAWrite(), "nothing runs now");
        } finally {
            s.stop();
        }
    }

    /** A thread's own write, next in line, runs on that thread; one that is not next is left to a drain. */
    @Test
    void anOwnWriteRunsOnItsThreadOnlyWhenItIsNextInLine() {
        List<Long> ran = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        DeliveryScheduler s = new DeliveryScheduler("test", seq -> { });
        Step first = recorded(1, ran);
        Step mine = new Step(2, () -> {
            ran.add(2L);
            threads.add(Thread.currentThread());
        });
        s.deliver(first);
        s.deliver(mine);
        assertFalse(s.runOwn(mine), "step 1 comes first");
        assertEquals(List.of(), ran, "nothing ran out of order");
        s.drain();
        assertEquals(List.of(1L, 2L), ran);

        Step next = new Step(3, () -> {
            ran.add(3L);
            threads.add(Thread.currentThread());
        });
        s.deliver(next);
        assertTrue(s.runOwn(next), "next in line, role free: it runs here");
        assertEquals(List.of(1L, 2L, 3L), ran);
        assertEquals(Thread.currentThread(), threads.getLast());
        assertFalse(s.runnerHeld(), "the role is given up");
    }

    /**
     * An own write that notifies a waiting write (Bin.put run by its producer's thread while a get waits) must have
     * the waiter resumed, though no delivered step follows: found under load with three producer/consumer nodes, where
     * the role was given up with the waiter queued and a drain, which looks at delivered steps only, never resumed it.
     */
    @Test
    void anOwnWriteThatNotifiesAWaiterHasItResumed() throws Exception {
        CountDownLatch firstWaits = new CountDownLatch(1);
        CountDownLatch waiterResumed = new CountDownLatch(1);
        DeliveryScheduler s = new DeliveryScheduler("test", seq -> {
            if (seq == 1) {
                firstWaits.countDown();
            }
        });
        s.start();
        try {
            if (s.deliver(getWhenFilled(s, 1, waiterResumed))) {
                s.wake();
            }
            assertTrue(firstWaits.await(10, TimeUnit.SECONDS), "the first write did not start waiting");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (s.runnerHeld()) {
                assertTrue(System.nanoTime() < deadline, "the runner role was never given up");
                Thread.onSpinWait();
            }
            Step put = fill(s, 2);
            s.deliver(put);
            assertTrue(s.runOwn(put), "next in line, role free: it runs on this thread");
            assertTrue(waiterResumed.await(10, TimeUnit.SECONDS), "the waiting write was never resumed");
        } finally {
            s.stop();
        }
    }
    /**
     * A thread that polled steps while waiting for something else runs them while they suit it, at most a few; the
     * first that does not, and all after it, go to the scheduler's thread, in order.
     */
    @Test
    void drainWhileRunsAcceptedStepsHereAndLeavesTheRestToTheSchedulersThread() throws Exception {
        List<Long> ran = new CopyOnWriteArrayList<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        CountDownLatch allApplied = new CountDownLatch(5);
        DeliveryScheduler s = new DeliveryScheduler("test", seq -> allApplied.countDown());
        s.start();
        try {
            for (long seq = 1; seq <= 5; seq++) {
                long n = seq;
                s.deliver(new Step(n, () -> {
                    ran.add(n);
                    threads.add(Thread.currentThread());
                }));
            }
            s.drainWhile(step -> step.seq() != 3, 8); // steps 1 and 2 here; 3 is refused, so 3..5 go on elsewhere
            assertTrue(allApplied.await(10, TimeUnit.SECONDS), "the scheduler's thread did not run the rest");
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L), ran, "every step once, in order");
            Thread here = Thread.currentThread();
            assertEquals(List.of(here, here), threads.subList(0, 2), "the accepted steps ran here");
            assertFalse(threads.subList(2, 5).contains(here), "the refused step and those after it ran elsewhere");

        } finally {
            s.stop();
        }
        // a scheduler of its own: a runner of the first part may still be looking for steps
        DeliveryScheduler s2 = new DeliveryScheduler("test2", seq -> { });
        s2.start();
        try {
            Thread here = Thread.currentThread();
            ran.clear();
            threads.clear();
            CountDownLatch rest = new CountDownLatch(4);
            for (long seq = 6; seq <= 9; seq++) {
                long n = seq;
                s2.deliver(new Step(n, () -> {
                    ran.add(n);
                    threads.add(Thread.currentThread());
                    rest.countDown();
                }));
            }
            s2.drainWhile(step -> true, 2);
            assertTrue(rest.await(10, TimeUnit.SECONDS), "the steps past the limit were left behind");
            assertEquals(List.of(6L, 7L, 8L, 9L), ran);
            assertEquals(List.of(here, here), threads.subList(0, 2), "two here");
            assertFalse(threads.subList(2, 4).contains(here), "no more than two here");
        } finally {
            s2.stop();
        }
    }
}
