package dev.cumulus.internal.node;

import dev.cumulus.internal.sched.Scheduler;
import org.agrona.concurrent.Agent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The caller/bell protocol under orchestrated interleavings (the agent's duty cycle is the hook) in which a message
 * nobody rang for would wait for the main thread's sleep to end (1 ms in a node, 5 s here). The protocol as a whole
 * is checked by the model in {@code docs/design/doorbell.pml}.
 */
@Timeout(60)
class CallerBellRacesTest {
    /** Each duty cycle runs one queued task, on whichever thread polls. */
    private static final class QueueAgent implements Agent {
        final ConcurrentLinkedQueue<Runnable> inbox = new ConcurrentLinkedQueue<>();
        final AtomicInteger cycles = new AtomicInteger();

        @Override
        public int doWork() {
            cycles.incrementAndGet();
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

    private final AtomicReference<Throwable> errors = new AtomicReference<>();

    private static void awaitTrue(BooleanSupplier c, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    /**
     * lookMissed is set by the main thread when its last look fails, and cleared by the caller that stops
     * next, which looks once more — or sets it again when that look fails too. But the thread whose poll made the
     * look fail may be a caller in its own final look (already not counted) that started before the message came and
     * never reads lookMissed afterwards. Sequence: caller X stops, hands the bell back and starts its final full look
     * (holds the role); a message M comes after X's look passed its stream; the main thread's look fails (X holds the
     * role), it sets lookMissed and sleeps since caller C still polls; C stops, clears lookMissed, its look fails (X
     * still holds the role), it sets lookMissed again and leaves; X's look ends. Nobody looks for M.
     */
    @Test
    void aMessageIsLostWhenTheLastCountedCallersLookFailsAgainstACallerInItsFinalLook() throws Exception {
        QueueAgent queue = new QueueAgent();
        FakeBell bell = FakeBell.longSleeps();
        long budget = TimeUnit.SECONDS.toNanos(20); // callers stop when their replies come, not on the clock
        DutyCycle node = new DutyCycle(queue, queue::doWork, () -> { }, errors::set,
            new NodeSettings.Scheduling("backoff", NodeSettings.Scheduling.SPINS, budget, true), bell, "lost-node");
        AtomicInteger pollingCallers = node.pollingCallers;
        node.start();
        CountDownLatch mHandled = new CountDownLatch(1);
        AtomicReference<Throwable> orchestration = new AtomicReference<>();
        try {
            awaitTrue(() -> bell.sleeps.get() >= 1, "the idle main thread to sleep");
            CompletableFuture<Void> replyX = new CompletableFuture<>();
            CompletableFuture<Void> replyC = new CompletableFuture<>();
            AtomicReference<Thread> threadC = new AtomicReference<>();
            Runnable slowFinalLook = () -> { // runs inside X's final look, X holding the role
                try {
                    Thread c = Thread.ofPlatform().name("C").start(() -> node.pollBriefly(replyC::isDone, Scheduler.Awaited.OTHER));
                    threadC.set(c);
                    awaitTrue(() -> pollingCallers.get() == 1, "C to count itself");
                    queue.inbox.add(mHandled::countDown); // M: came after this look passed its stream, unrung
                    int sleepsBefore = bell.sleeps.get();
                    bell.ring(); // the main thread wakes (its sleep's timeout, or another message's ring)
                    // its poll fails (the role is held), so does its last look: lookMissed, and it sleeps (C polls)
                    awaitTrue(() -> bell.sleeps.get() > sleepsBefore, "the main thread to sleep again");
                    replyC.complete(null); // C stops; its last look fails too (the role is still held here)
                    c.join(10_000);
                } catch (Throwable t) {
                    orchestration.set(t);
                }
            };
            queue.inbox.add(() -> {
                replyX.complete(null); // X's reply: X stops, hands the bell back and looks once more
                queue.inbox.add(slowFinalLook);
            });
            Thread x = Thread.ofPlatform().name("X").start(() -> node.pollBriefly(replyX::isDone, Scheduler.Awaited.OTHER));
            x.join(20_000);
            assertEquals(null, orchestration.get());
            assertTrue(threadC.get() != null && !threadC.get().isAlive(), "C did not finish");
            assertTrue(mHandled.await(2, TimeUnit.SECONDS),
                "M waited > 2 s: nobody looked for it until the main thread's sleep would end (1 ms in a node)");
        } finally {
            bell.ring();
            node.close();
        }
        assertEquals(null, errors.get());
    }

    /** A caller's last look that fails against the standby's poll sets lookMissed: the standby looks again. */
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

    /** A last look is one bounded poll: a caller that stops keeps looking while its looks find work. */
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
