package dev.cumulus.internal.node;

import dev.cumulus.internal.sched.Scheduler;
import dev.cumulus.internal.sched.TimedCall;
import org.agrona.concurrent.Agent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The polling role: who runs the duty cycle, which calls run inline, and that a blocked call never stalls the node. */
@Timeout(30)
class DutyCycleTest {
    /** An agent whose duty cycle runs the tasks queued into it, on whichever thread polls; it checks exclusivity. */
    private static final class QueueAgent implements Agent {
        final ConcurrentLinkedQueue<Runnable> inbox = new ConcurrentLinkedQueue<>();
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final List<String> pollers = new CopyOnWriteArrayList<>();
        volatile boolean closed;

        @Override
        public int doWork() {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            try {
                Runnable task = inbox.poll();
                if (task == null) {
                    return 0;
                }
                String name = Thread.currentThread().getName();
                if (!pollers.contains(name)) {
                    pollers.add(name);
                }
                task.run();
                return 1;
            } finally {
                inside.decrementAndGet();
            }
        }

        @Override
        public void onClose() {
            closed = true;
        }

        @Override
        public String roleName() {
            return "queue";
        }
    }

    private final QueueAgent agent = new QueueAgent();
    private final AtomicReference<Throwable> errors = new AtomicReference<>();
    private final DutyCycle cycle = cycle(agent, "backoff", null, NodeSettings.Scheduling.CALLER_POLL_NS, "test-node",
        () -> { });

    /** A duty cycle over {@code agent} whose quick cycles are full ones (the tests' agents have one stream). */
    private DutyCycle cycle(Agent agent, String idle, Doorbell bell, long callerPollNs, String name,
                            Runnable afterWait) {
        NodeSettings.Scheduling settings = new NodeSettings.Scheduling(idle, NodeSettings.Scheduling.SPINS,
            callerPollNs, "backoff".equals(idle));
        return new DutyCycle(agent, () -> {
            try {
                return agent.doWork();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, afterWait, errors::set, settings, bell, name);
    }

    /** Polls for {@code done} as a thread waiting for it does, for the node's poll budget. */
    private static void pollWhileWaiting(DutyCycle cycle, CompletableFuture<?> done) {
        cycle.pollBriefly(done::isDone, Scheduler.Awaited.OTHER);
    }
    private final Executor virtualThreads = r -> Thread.ofVirtual().start(r);

    @AfterEach
    void close() {
        cycle.close();
        assertTrue(agent.closed, "the agent is closed under the role");
        assertEquals(0, agent.overlaps.get(), "two threads ran the duty cycle at once");
        assertEquals(null, errors.get());
    }

    /** A message that carries an incoming call: the poller offers it inline, else it goes to a virtual thread. */
    private void deliverCall(Runnable body) {
        agent.inbox.add(() -> {
            if (!cycle.runAfterPoll(body, virtualThreads, Scheduler.Work.CALL)) {
                virtualThreads.execute(body);
            }
        });
    }

    /** Counts, per duty cycle, whether the hook told it the polling thread had waited since its last cycle. */
    private static final class WaitCountingAgent implements Agent {
        final AtomicInteger cycles = new AtomicInteger();
        final AtomicInteger toldOfAWait = new AtomicInteger();
        volatile boolean hookRan;

        @Override
        public int doWork() {
            cycles.incrementAndGet();
            if (hookRan) {
                hookRan = false;
                toldOfAWait.incrementAndGet();
            }
            return 0;
        }

        @Override
        public String roleName() {
            return "counting";
        }
    }

    /**
     * A thread that slept must not reuse a time from before its sleep: the node agent reads the clock only every 16th
     * busy cycle, and with a long idle sleep 16 cycles would be 16 sleeps (heartbeats late, peers heard "long ago").
     */
    @Test
    void aCycleAfterTheMainThreadSleptIsToldSo() throws Exception {
        assertEveryCycleAfterTheFirstIsToldOfAWait("sleep:2000000", null);
    }

    @Test
    void aCycleAfterTheMainThreadSleptOnItsDoorbellIsToldSo() throws Exception {
        assertEveryCycleAfterTheFirstIsToldOfAWait("backoff", new FakeBell(0));
    }

    private void assertEveryCycleAfterTheFirstIsToldOfAWait(String idle, Doorbell bell) throws Exception {
        WaitCountingAgent counting = new WaitCountingAgent();
        DutyCycle sleepy = cycle(counting, idle, bell, 0, "sleepy-node", () -> counting.hookRan = true);
        sleepy.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (counting.toldOfAWait.get() < 20 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        } finally {
            sleepy.close();
        }
        int told = counting.toldOfAWait.get();
        int cycles = counting.cycles.get();
        assertTrue(told >= 20, "only " + told + " of " + cycles + " cycles were told the thread had slept");
        if (bell == null) {
            // every idle call of a sleep strategy sleeps: every cycle but the first follows a sleep
            assertTrue(told >= cycles - 1, told + " of " + cycles + " cycles were told of the sleep before them");
        }
    }

    @Test
    void aLoneCallRunsOnTheMainThreadRightAfterThePoll() throws Exception {
        cycle.start();
        CompletableFuture<String> ranOn = new CompletableFuture<>();
        deliverCall(() -> ranOn.complete(Thread.currentThread().getName()));
        assertEquals("test-node", ranOn.get(10, TimeUnit.SECONDS));
    }

    /** One message that carries several calls: the poll that brings it brings them all. */
    private void deliverCallsInOnePoll(Runnable... bodies) {
        agent.inbox.add(() -> {
            for (Runnable body : bodies) {
                if (!cycle.runAfterPoll(body, virtualThreads, Scheduler.Work.CALL)) {
                    virtualThreads.execute(body);
                }
            }
        });
    }

    @Test
    void severalCallsInOnePollRunOnTheMainThreadOneAfterAnother() throws Exception {
        cycle.start();
        List<String> ranOn = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(3);
        Runnable call = () -> {
            ranOn.add(Thread.currentThread().getName());
            done.countDown();
        };
        deliverCallsInOnePoll(call, call, call);
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertEquals(List.of("test-node", "test-node", "test-node"), ranOn);
    }

    @Test
    void aCallQueuedBehindABlockedOneOfTheSamePollStillRuns() throws Exception {
        cycle.start();
        CountDownLatch secondRan = new CountDownLatch(1);
        CompletableFuture<String> firstOn = new CompletableFuture<>();
        CompletableFuture<String> secondOn = new CompletableFuture<>();
        deliverCallsInOnePoll(() -> {
            firstOn.complete(Thread.currentThread().getName());
            try {
                secondRan.await(); // Babylon's edge exchange: the value comes with the next call of the same poll
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, () -> {
            secondOn.complete(Thread.currentThread().getName());
            secondRan.countDown();
        });
        assertEquals("test-node", firstOn.get(10, TimeUnit.SECONDS));
        String second = secondOn.get(10, TimeUnit.SECONDS);
        assertFalse(second.equals("test-node"), "the second call must not wait for the first, which waits for it");
    }

    /**
     * Calls of one poll that are each short but add up: the standby counts from the batch's start, takes over the
     * duty cycle and hands the calls not started yet on (before, it looked at each call alone and never stepped in,
     * and nothing was polled for the sum of their run times). Only the main thread spends time in a call, so the
     * calls handed on take no core from it.
     */
    @Test
    void aBatchOfShortCallsThatAddUpIsHandedOnByTheStandby() throws Exception {
        // each call on the main thread lasts until the standby's next look (not a clock's 30 us, which a busy box can
        // stretch past the standby's first two looks at the batch): the batch lasts at least as many looks as it has
        // calls, so the standby sees it for the take-over time however the threads are scheduled
        AtomicLong looks = new AtomicLong();
        cycle.inline.beforeLook = looks::incrementAndGet;
        cycle.start();
        int n = 300;
        CountDownLatch done = new CountDownLatch(n);
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicInteger onMain = new AtomicInteger();
        Runnable[] calls = new Runnable[n];
        for (int i = 0; i < n; i++) {
            int index = i;
            calls[i] = () -> {
                if (Thread.currentThread().getName().equals("test-node")) {
                    onMain.incrementAndGet();
                    long from = looks.get();
                    while (looks.get() == from) {
                        Thread.onSpinWait();
                    }
                }
                runs.incrementAndGet(index);
                done.countDown();
            };
        }
        deliverCallsInOnePoll(calls);
        assertTrue(done.await(20, TimeUnit.SECONDS));
        assertTrue(onMain.get() < n, "the main thread ran all " + n + " calls, each over before the standby's next "
            + "look, without the standby taking over");
        for (int i = 0; i < n; i++) {
            assertEquals(1, runs.get(i), "call " + i + " ran " + runs.get(i) + " times");
        }
    }

    /**
     * A call the main thread runs waits for something the duty cycle brings (a nested call's reply): the main thread
     * polls for it itself instead of sitting blocked until the standby takes over, and while it does, it takes brief
     * calls only — another call that comes meanwhile runs on a virtual thread, never nested inside the first.
     */
    @Test
    void aCallOnTheMainThreadThatWaitsPollsForWhatItWaitsForAndNestsNoOtherCall() throws Exception {
        // the standby does not look while the call runs, so it never takes over: were the main thread not to poll,
        // nobody would (before, a preemption of the main thread past the take-over time let the standby poll the reply)
        ReentrantLock callRuns = new ReentrantLock();
        cycle.inline.beforeLook = () -> {
            callRuns.lock();
            callRuns.unlock();
        };
        cycle.start();
        CompletableFuture<String> replyPolledBy = new CompletableFuture<>();
        CompletableFuture<String> otherCallOn = new CompletableFuture<>();
        CompletableFuture<String> outerOn = new CompletableFuture<>();
        CompletableFuture<Boolean> outerPolled = new CompletableFuture<>();
        Runnable outer = () -> {
            try {
                outerOn.complete(Thread.currentThread().getName());
                CompletableFuture<Void> reply = new CompletableFuture<>();
                deliverCall(() -> otherCallOn.complete(Thread.currentThread().getName()));
                agent.inbox.add(() -> { // the nested call's reply, after another incoming call
                    replyPolledBy.complete(Thread.currentThread().getName());
                    reply.complete(null);
                });
                outerPolled.complete(cycle.pollUntil(reply::isDone, System.nanoTime() + TimeUnit.SECONDS.toNanos(10),
                    Scheduler.Awaited.OTHER, null));
            } finally {
                if (callRuns.isHeldByCurrentThread()) {
                    callRuns.unlock();
                }
            }
        };
        agent.inbox.add(new Runnable() {
            @Override
            public void run() {
                if (!Thread.currentThread().getName().equals("test-node")) {
                    agent.inbox.add(this);
                    return;
                }
                callRuns.lock(); // held from the poll that brings the call until it ends
                if (!cycle.runAfterPoll(outer, virtualThreads, Scheduler.Work.CALL)) {
                    callRuns.unlock();
                    virtualThreads.execute(outer);
                }
            }
        });
        assertEquals("test-node", outerOn.get(10, TimeUnit.SECONDS));
        assertTrue(outerPolled.get(10, TimeUnit.SECONDS), "a call on the main thread was not let poll for its reply");
        assertEquals("test-node", replyPolledBy.get(10, TimeUnit.SECONDS));
        String other = otherCallOn.get(10, TimeUnit.SECONDS);
        assertFalse(other.startsWith("test-node"), "a call ran nested on " + other + " inside the waiting call");
    }

    /**
     * A waiting caller serves the brief calls its polls bring, but a burst of them (a stream of shared-array requests)
     * must not keep it past its wait's budget: it looks at the budget every few polls. The cycle's own threads are not
     * started, so the caller is the only poller.
     */
    @Test
    void aBurstOfBriefCallsDoesNotKeepAWaitingCallerPastItsBudget() {
        int burst = 100;
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < burst; i++) {
            agent.inbox.add(() -> cycle.runAfterPoll(() -> {
                long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(20);
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                ran.incrementAndGet();
            }, virtualThreads, Scheduler.Work.BRIEF_CALL));
        }
        pollWhileWaiting(cycle, new CompletableFuture<Void>()); // never completes: the budget (50 µs) ends the wait
        assertTrue(ran.get() < burst / 2, "the caller ran " + ran.get() + " brief calls of 20 µs in a 50 µs wait");
    }

    @Test
    void aBlockedInlineCallDoesNotStopTheNodeFromServingOthers() throws Exception {
        cycle.start();
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> blockedOn = new CompletableFuture<>();
        deliverCall(() -> {
            blockedOn.complete(Thread.currentThread().getName());
            try {
                release.await(); // Babylon's edge exchange: waits for the next call
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertEquals("test-node", blockedOn.get(10, TimeUnit.SECONDS));
        CompletableFuture<String> secondOn = new CompletableFuture<>();
        deliverCall(() -> {
            secondOn.complete(Thread.currentThread().getName());
            release.countDown();
        });
        String second = secondOn.get(10, TimeUnit.SECONDS);
        assertFalse(second.equals("test-node"), "the second call must not wait for the main thread");
        assertTrue(agent.pollers.contains("test-node-standby"), "the standby polled while the main thread was busy: "
            + agent.pollers);
    }

    /**
     * A node no call came to for a while (its standby asleep) still applies a delivered write on its main thread,
     * right after the poll that brought it, instead of waking another thread for it (on a static sequencer's node
     * that wake-up took the core of the writer waiting for its write); and the standby, woken for the write, takes
     * over the duty cycle when the write is held up (a monitor a user's thread holds).
     */
    @Test
    void anIdleNodeAppliesADeliveredWriteOnItsMainThreadAndAWriteHeldUpDoesNotStopIt() throws Exception {
        cycle.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!cycle.inline.standbyAsleep) { // no call came: the standby parks after DEEP_SLEEP_NS
            assertTrue(System.nanoTime() - deadline < 0, "the standby of a node without calls did not go to sleep");
            Thread.sleep(1);
        }
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> writeOn = new CompletableFuture<>();
        agent.inbox.add(() -> {
            Runnable write = () -> {
                writeOn.complete(Thread.currentThread().getName());
                try {
                    release.await(); // held up, as by a monitor a user's thread holds
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            if (!cycle.runAfterPoll(write, virtualThreads, Scheduler.Work.DELIVERED_WRITES)) {
                virtualThreads.execute(write);
            }
        });
        assertEquals("test-node", writeOn.get(10, TimeUnit.SECONDS));
        CompletableFuture<String> callOn = new CompletableFuture<>();
        deliverCall(() -> {
            callOn.complete(Thread.currentThread().getName());
            release.countDown();
        });
        assertFalse(callOn.get(10, TimeUnit.SECONDS).equals("test-node"), "the call must not wait for the write");
        assertTrue(agent.pollers.contains("test-node-standby"), "the standby polled while the write was held up: "
            + agent.pollers);
    }

    /**
     * A call on the main thread that blocks for what a poll brings (its own replicated write, after its poll budget)
     * hands the polling to the standby, but is not told it ran slowly: the wait is on a peer, and a method sent to
     * virtual threads for it would pay a wake-up on every later call. A call that blocks without saying so is slow.
     * What the standby sees is the wait alone: outside its wait the call holds the standby's looks (a call preempted
     * there for longer than the take-over time is not seen running at two looks), and only a poll after a look made
     * during the wait releases it (not one whose look saw the previous call).
     */
    @Test
    void aCallBlockedOnWhatAPollBringsIsNotSlowButTheStandbyPollsMeanwhile() throws Exception {
        ReentrantLock outsideTheWait = new ReentrantLock();
        AtomicLong looks = new AtomicLong();
        AtomicLong standbysLook = new AtomicLong(); // the look the standby's current poll follows
        cycle.inline.beforeLook = () -> {
            outsideTheWait.lock();
            try {
                standbysLook.set(looks.incrementAndGet());
            } finally {
                outsideTheWait.unlock();
            }
        };
        cycle.start();
        for (boolean says : new boolean[] {true, false}) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicLong lastLookBeforeTheWait = new AtomicLong(Long.MAX_VALUE);
            CompletableFuture<String> ranOn = new CompletableFuture<>();
            CompletableFuture<Boolean> slow = new CompletableFuture<>();
            Runnable body = () -> {
                ranOn.complete(Thread.currentThread().getName());
                Runnable waited = says ? cycle.mayBlock() : Scheduler.NOTHING;
                lastLookBeforeTheWait.set(looks.get());
                outsideTheWait.unlock();
                try {
                    release.await(); // the write comes by the standby's poll
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    outsideTheWait.lock();
                    waited.run();
                }
            };
            TimedCall call = new TimedCall() {
                @Override
                public void run() {
                    body.run();
                }

                @Override
                public void ranQuickly() {
                    outsideTheWait.unlock();
                    slow.complete(false);
                }

                @Override
                public void ranSlowly(long endNs, long tookNs) {
                    outsideTheWait.unlock();
                    slow.complete(true);
                }
            };
            agent.inbox.add(new Runnable() {
                @Override
                public void run() {
                    if (!Thread.currentThread().getName().equals("test-node")) {
                        agent.inbox.add(this); // the standby's last poll of the previous call: for the main thread
                        return;
                    }
                    outsideTheWait.lock(); // held from the poll that brings the call until it is told how it ran
                    if (!cycle.runAfterPoll(call, virtualThreads, Scheduler.Work.CALL)) {
                        outsideTheWait.unlock();
                        virtualThreads.execute(call);
                    }
                }
            });
            assertEquals("test-node", ranOn.get(10, TimeUnit.SECONDS));
            // only a poll releases it: the standby's, as the main thread waits, after a look made during the wait
            agent.inbox.add(new Runnable() {
                @Override
                public void run() {
                    if (standbysLook.get() <= lastLookBeforeTheWait.get()
                        || !Thread.currentThread().getName().equals("test-node-standby")) {
                        agent.inbox.add(this);
                        return;
                    }
                    release.countDown();
                }
            });
            assertEquals(!says, slow.get(10, TimeUnit.SECONDS), says ? "a wait it announced counted as a slow run"
                : "a call blocked without announcing it was not told it ran slowly");
        }
        assertTrue(agent.pollers.contains("test-node-standby"), "the standby polled: " + agent.pollers);
    }

    @Test
    void aWaitingCallerPollsForItsOwnReply() throws Exception {
        cycle.start();
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<Void> waiting = new CompletableFuture<>();
        Thread caller = Thread.ofPlatform().name("caller").start(() -> {
            waiting.complete(null);
            while (!reply.isDone()) {
                pollWhileWaiting(cycle, reply);
            }
        });
        waiting.get(10, TimeUnit.SECONDS);
        // the reply arrives as a message; whoever polls completes it. Repeat until the caller was the poller once.
        for (int i = 0; i < 10_000 && !agent.pollers.contains("caller") && !reply.isDone(); i++) {
            CountDownLatch handled = new CountDownLatch(1);
            agent.inbox.add(handled::countDown);
            assertTrue(handled.await(10, TimeUnit.SECONDS));
        }
        agent.inbox.add(() -> reply.complete(Thread.currentThread().getName()));
        caller.join(10_000);
        assertFalse(caller.isAlive());
        assertTrue(agent.pollers.contains("caller"), "the waiting caller never ran the duty cycle: " + agent.pollers);
    }

    /**
     * The main thread's last look before it sleeps finds the role taken by a caller waiting for its reply. A message
     * that came after that caller's poll looked but before the main thread announced its sleep (its sender saw the
     * bell awake and did not ring) must not wait for the main thread's sleep to end: the caller looks once more as it
     * stops.
     */
    @Test
    void aCallerThatStopsLooksOnceMoreWhenTheMainThreadCouldNotLookBeforeItSlept() throws Exception {
        FakeBell bell = FakeBell.longSleeps(); // far longer than the node's real 1 ms
        QueueAgent queue = new QueueAgent();
        DutyCycle node = cycle(queue, "backoff", bell, NodeSettings.Scheduling.CALLER_POLL_NS, "looking-node",
            () -> { });
        CompletableFuture<Void> reply = new CompletableFuture<>();
        CountDownLatch unrungHandled = new CountDownLatch(1);
        queue.inbox.add(new Runnable() {
            @Override
            public void run() {
                if (!Thread.currentThread().getName().equals("caller") || node.pollingCallers.get() == 0) {
                    // for the caller's poll while it counts as polling (in its last looks it no longer does, and the
                    // main thread then never sleeps)
                    queue.inbox.add(this);
                    return;
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (bell.sleeps.get() == 0) {
                    assertTrue(System.nanoTime() < deadline, "the main thread never went to sleep");
                    Thread.onSpinWait();
                }
                queue.inbox.add(unrungHandled::countDown); // came after this poll looked: nobody rang for it
                reply.complete(null);
            }
        });
        node.start();
        try {
            Thread caller = Thread.ofPlatform().name("caller").start(() -> {
                while (!reply.isDone()) { // as a caller does until its reply comes (then it would block)
                    node.pollUntil(reply::isDone, System.nanoTime() + NodeSettings.Scheduling.CALLER_POLL_NS,
                        Scheduler.Awaited.REPLY, () -> { });
                }
            });
            assertTrue(unrungHandled.await(2, TimeUnit.SECONDS),
                "the message waited for the main thread's sleep to end");
            caller.join(10_000);
        } finally {
            bell.ring();
            node.close();
        }
    }

    @Test
    void anIdleMainThreadSpinsLongOnlyWhenEveryNodeOnTheHostHasACore() {
        assertEquals(NodeSettings.Scheduling.SPINS, settings(2, 2, "backoff").idleSpins());
        assertEquals(NodeSettings.Scheduling.SPINS, settings(1, 8, "backoff").idleSpins());
        assertEquals(NodeSettings.Scheduling.CROWDED_SPINS, settings(4, 2, "backoff").idleSpins());
        assertTrue(NodeSettings.Scheduling.CROWDED_SPINS < NodeSettings.Scheduling.SPINS);
    }

    @Test
    void callersPollUnlessTheNodeSleepsWhenIdleAndOnlyTheDefaultStrategySleepsOnTheDoorbell() {
        assertEquals(NodeSettings.Scheduling.CALLER_POLL_NS, settings(2, 2, "backoff").callerPollNs());
        assertEquals(0, settings(2, 2, "sleep:100000").callerPollNs());
        assertTrue(settings(2, 2, " BACKOFF ").sleepsOnDoorbell());
        assertFalse(settings(2, 2, "spin").sleepsOnDoorbell());
    }

    private static NodeSettings.Scheduling settings(int nodesOnHost, int cores, String idle) {
        return new NodeSettings(0, nodesOnHost, 200, 5_000, 60_000, idle, 0, Duration.ofSeconds(10),
            NodeSettings.Sequencer.MIGRATING, Duration.ofMinutes(5), cores, nodesOnHost, Duration.ZERO)
            .scheduling();
    }

    @Test
    void aCallerPollingForItsReplyRunsBriefCallsItselfRightAfterItsPoll() throws Exception {
        cycle.start();
        CompletableFuture<String> ranOn = new CompletableFuture<>();
        CompletableFuture<Void> stop = new CompletableFuture<>();
        Thread caller = Thread.ofPlatform().name("caller").start(() -> {
            while (!stop.isDone()) {
                pollWhileWaiting(cycle, stop);
            }
        });
        AtomicBoolean taken = new AtomicBoolean();
        for (int i = 0; i < 10_000 && !ranOn.isDone(); i++) {
            CountDownLatch handled = new CountDownLatch(1);
            agent.inbox.add(() -> {
                if (Thread.currentThread() == caller) {
                    taken.set(cycle.runAfterPoll(() -> ranOn.complete(Thread.currentThread().getName()),
                        virtualThreads, Scheduler.Work.BRIEF_CALL));
                }
                handled.countDown();
            });
            assertTrue(handled.await(10, TimeUnit.SECONDS));
        }
        assertEquals("caller", ranOn.get(10, TimeUnit.SECONDS), "a brief call polled by the caller ran elsewhere");
        assertTrue(taken.get());
        stop.complete(null);
        caller.join(10_000);
        assertFalse(caller.isAlive());
    }

    @Test
    void callsFromAnyThreadButTheMainOneAreNotTakenInline() throws Exception {
        cycle.start();
        assertFalse(cycle.runAfterPoll(() -> { }, virtualThreads, Scheduler.Work.CALL));
        CompletableFuture<Boolean> fromCaller = new CompletableFuture<>();
        CompletableFuture<Void> stop = new CompletableFuture<>();
        // a caller polling for its reply gets a call: it must hand it on, never run a stranger's call itself
        Thread caller = Thread.ofPlatform().name("caller").start(() -> {
            while (!stop.isDone()) {
                pollWhileWaiting(cycle, stop);
            }
        });
        for (int i = 0; i < 10_000 && !fromCaller.isDone(); i++) {
            CountDownLatch handled = new CountDownLatch(1);
            agent.inbox.add(() -> {
                if (Thread.currentThread() == caller) {
                    fromCaller.complete(cycle.runAfterPoll(() -> { }, virtualThreads, Scheduler.Work.CALL));
                }
                handled.countDown();
            });
            assertTrue(handled.await(10, TimeUnit.SECONDS));
        }
        stop.complete(null);
        caller.join(10_000);
        if (fromCaller.isDone()) {
            assertFalse(fromCaller.get());
        }
    }

    @Test
    void workTheMainThreadOffersBetweenItsPollsIsNotTakenIntoACallersPoll() throws Exception {
        cycle.start();
        CountDownLatch mainInCall = new CountDownLatch(1);
        CountDownLatch callerInPoll = new CountDownLatch(1);
        CountDownLatch offered = new CountDownLatch(1);
        CompletableFuture<String> callOn = new CompletableFuture<>();
        CompletableFuture<Boolean> taken = new CompletableFuture<>();
        CompletableFuture<Void> stop = new CompletableFuture<>();
        Thread[] caller = new Thread[1];
        // the caller's poll brings this; it stays inside that poll until the main thread has offered its work
        Runnable[] holdPoll = new Runnable[1];
        holdPoll[0] = () -> {
            if (Thread.currentThread() != caller[0]) {
                agent.inbox.add(holdPoll[0]); // polled by the standby or the main thread: for the caller
                return;
            }
            callerInPoll.countDown();
            awaitLatch(offered);
        };
        // a call the main thread runs after its poll offers work (as a call dispatched again after a move does)
        deliverCall(() -> {
            callOn.complete(Thread.currentThread().getName());
            mainInCall.countDown();
            agent.inbox.add(holdPoll[0]);
            awaitLatch(callerInPoll);
            taken.complete(cycle.runAfterPoll(() -> { }, virtualThreads, Scheduler.Work.CALL));
            offered.countDown();
        });
        assertTrue(mainInCall.await(10, TimeUnit.SECONDS));
        caller[0] = Thread.ofPlatform().name("caller").start(() -> {
            while (!stop.isDone()) {
                pollWhileWaiting(cycle, stop);
            }
        });
        assertEquals("test-node", callOn.get(10, TimeUnit.SECONDS));
        assertFalse(taken.get(10, TimeUnit.SECONDS), "the main thread's work went into the caller's poll, which may "
            + "have run its list already: nobody would run it");
        stop.complete(null);
        caller[0].join(10_000);
        assertFalse(caller[0].isAlive());
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS), "timed out");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void closeInterruptsACallTheMainThreadStillRuns() throws Exception {
        cycle.start();
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        CountDownLatch started = new CountDownLatch(1);
        deliverCall(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.complete(true);
            }
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        cycle.close();
        assertTrue(interrupted.get(10, TimeUnit.SECONDS));
    }
}
