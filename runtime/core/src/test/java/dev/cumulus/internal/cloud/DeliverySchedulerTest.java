package dev.cumulus.internal.cloud;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runner role: steps run once each, in order, on whichever thread drains; a drain is asked for once. */
@Timeout(60)
class DeliverySchedulerTest {
    private record Recorded(long seq, List<Long> into) implements DeliveryScheduler.Step {
        @Override
        public boolean inline() {
            return false;
        }

        @Override
        public void run() {
            into.add(seq); // a plain list: only the role's holder touches it
        }
    }

    @Test
    void aDrainIsAskedForOnceAndRunsEveryQueuedStepOnTheCallingThread() {
        List<Long> applied = new CopyOnWriteArrayList<>();
        List<Long> ran = new ArrayList<>();
        DeliveryScheduler s = new DeliveryScheduler("test", applied::add);
        assertTrue(s.deliver(new Recorded(1, ran)), "the first step asks for a drain");
        assertFalse(s.deliver(new Recorded(2, ran)), "one is on its way already");
        assertFalse(s.deliver(new Recorded(3, ran)));
        s.drain();
        assertEquals(List.of(1L, 2L, 3L), ran);
        assertEquals(List.of(1L, 2L, 3L), applied);
        assertTrue(s.deliver(new Recorded(4, ran)), "after a drain the next step asks again");
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
                s.deliver(new Recorded(i, ran));
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
            s.deliver(new Recorded(1, ran));
            s.deliver(new Recorded(2, ran));
            s.wake();
            assertTrue(applied.await(20, TimeUnit.SECONDS), "the scheduler's thread did not apply the steps");
        } finally {
            s.stop();
        }
    }
}
