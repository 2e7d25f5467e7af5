package dev.cumulus.internal.node;

import dev.cumulus.internal.sched.Scheduler;
import org.agrona.concurrent.Agent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A caller's last look that fails against the standby's poll sets lookMissed: the standby looks again after its poll. */
@Timeout(60)
class StandbyLooksAgainTest {
    static final class QueueAgent implements Agent {
        final ConcurrentLinkedQueue<Runnable> inbox = new ConcurrentLinkedQueue<>();

        @Override
        public int doWork() {
            Runnable task = inbox.poll();
            if (task == null) {
                return 0;
            }
            task.run();
            return 1;
        }

        @Override
        public String roleName() {
            return "queue";
        }
    }

    private static void awaitTrue(BooleanSupplier c, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void aReplyWhoseLastLookFailedAgainstTheStandbyIsSeen() throws Exception {
        QueueAgent queue = new QueueAgent();
        FakeBell bell = FakeBell.longSleeps();
        AtomicReference<Throwable> errors = new AtomicReference<>();
        DutyCycle node = new DutyCycle(queue, queue::doWork, () -> { }, errors::set,
            new NodeSettings.Scheduling("backoff", NodeSettings.Scheduling.SPINS, TimeUnit.SECONDS.toNanos(20), true),
            bell, "standby-node");
        node.start();
        CountDownLatch replyHandled = new CountDownLatch(1);
        AtomicReference<Throwable> orchestration = new AtomicReference<>();
        AtomicBoolean inCall = new AtomicBoolean();
        AtomicBoolean release = new AtomicBoolean();
        CountDownLatch sDone = new CountDownLatch(1);
        try {
            awaitTrue(() -> bell.sleeps.get() >= 1, "the idle main thread to sleep");
            // a user's call the main thread runs for a while: the standby takes over
            queue.inbox.add(() -> node.runAfterPoll(() -> {
                inCall.set(true);
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            }, r -> Thread.ofVirtual().start(r), Scheduler.Work.CALL));
            bell.ring();
            awaitTrue(inCall::get, "the main thread to run the call");
            queue.inbox.add(() -> { // runs in the standby's poll (its last one)
                try {
                    assertTrue(Thread.currentThread().getName().endsWith("-standby"), Thread.currentThread().getName());
                    Thread c = Thread.ofPlatform().name("C").start(() -> node.pollUntil(
                        () -> replyHandled.getCount() == 0, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300),
                        Scheduler.Awaited.OTHER, null));
                    awaitTrue(() -> node.pollingCallers.get() == 1, "C to poll");
                    int sleeps = bell.sleeps.get();
                    release.set(true); // the call ends; the main thread's look fails (this poll holds the role)
                    awaitTrue(() -> bell.sleeps.get() > sleeps, "the main thread to sleep (C polls)");
                    queue.inbox.add(replyHandled::countDown); // C's reply, unrung, after this poll passed the stream
                    c.join(10_000); // C's deadline passes; its last look fails against this poll too
                } catch (Throwable t) {
                    orchestration.set(t);
                } finally {
                    sDone.countDown();
                }
            });
            assertTrue(sDone.await(20, TimeUnit.SECONDS));
            assertEquals(null, orchestration.get());
            assertTrue(replyHandled.await(2, TimeUnit.SECONDS),
                "the reply waited > 2 s: nobody read lookMissed (a node's main thread sleeps 1 ms); lookMissed="
                    + node.lookMissed + " mainAsleep=" + node.mainAsleep);
        } finally {
            release.set(true);
            bell.ring();
            node.close();
        }
    }
}
