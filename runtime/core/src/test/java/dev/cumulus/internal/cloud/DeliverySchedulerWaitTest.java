package dev.cumulus.internal.cloud;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write that waits on the scheduler's own thread blocks that thread; a step delivered after the runner that the
 * wait started gave the role up must still be run (found in review: it was handed to the blocked thread and lost).
 */
@Timeout(30)
class DeliverySchedulerWaitTest {
    private final Object monitor = new Object();
    private boolean filled;

    private record Step(long seq, Runnable body) implements DeliveryScheduler.Step {
        @Override
        public boolean inline() {
            return false;
        }

        @Override
        public void run() {
            body.run();
        }
    }

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
            if (s.deliver(new Step(1, () -> {
                synchronized (monitor) {
                    try {
                        while (!filled) {
                            s.await(monitor);
                        }
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    waiterResumed.countDown();
                }
            }))) {
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
            if (s.deliver(new Step(2, () -> {
                synchronized (monitor) {
                    filled = true;
                    s.notify(monitor, true);
                }
            }))) {
                s.wake();
            }
            assertTrue(secondApplied.await(10, TimeUnit.SECONDS), "the second write was never applied");
            assertTrue(waiterResumed.await(10, TimeUnit.SECONDS), "the waiting write was never resumed");
        } finally {
            s.stop();
        }
    }
}
