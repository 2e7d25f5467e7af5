package dev.cumulus.internal.node;

import dev.cumulus.internal.sched.Scheduler;
import org.agrona.concurrent.Agent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A last look is one bounded poll (at most 16 fragments a stream, as NodeAgent's): a caller that stops keeps looking while its looks find work. */
@Timeout(60)
class LastLooksTakeEveryMessageTest {
    /** Takes the messages in the log at one instant, at most 16 per cycle. */
    static final class BoundedAgent implements Agent {
        final ConcurrentLinkedQueue<Runnable> inbox = new ConcurrentLinkedQueue<>();

        @Override
        public int doWork() {
            int n = Math.min(inbox.size(), 16);
            for (int i = 0; i < n; i++) {
                inbox.poll().run();
            }
            return n;
        }

        @Override
        public String roleName() {
            return "bounded";
        }
    }

    @Test
    void messagesThatCameUnrungDuringATakeOverAreAllSeenAfterTheHandBack() throws Exception {
        BoundedAgent agent = new BoundedAgent();
        FakeBell bell = FakeBell.longSleeps();
        AtomicReference<Throwable> errors = new AtomicReference<>();
        DutyCycle node = new DutyCycle(agent, agent::doWork, () -> { }, errors::set,
            new NodeSettings.Scheduling("backoff", NodeSettings.Scheduling.SPINS, TimeUnit.SECONDS.toNanos(20), true),
            bell, "bounded-node");
        node.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (bell.sleeps.get() < 1 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            CompletableFuture<Void> granted = new CompletableFuture<>();
            CountDownLatch all = new CountDownLatch(40);
            // the grant X waits for, and 40 messages from peers that came while X held the bell (unrung)
            agent.inbox.add(() -> {
                granted.complete(null);
                for (int i = 0; i < 40; i++) {
                    agent.inbox.add(all::countDown);
                }
            });
            Thread x = Thread.ofPlatform().name("X").start(() -> node.pollBriefly(granted::isDone, Scheduler.Awaited.OTHER));
            x.join(20_000);
            assertTrue(all.await(2, TimeUnit.SECONDS), "left " + all.getCount()
                + " messages for the main thread's sleep to end (1 ms in a node); mainAsleep=" + node.mainAsleep);
        } finally {
            bell.ring();
            node.close();
        }
    }
}
