package dev.cumulus.internal.rpc;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Remote;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.sched.Scheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where an asynchronous call's answer is completed: an answer whose future has no callbacks is handed to the thread
 * that polled it, to complete after its poll ({@code Scheduler.Work.ASYNC_ANSWER}), and a thread waiting for a result
 * polls for it ({@code Awaited.ASYNC_REPLY}) and so completes it itself; an answer whose future has callbacks goes to
 * the drainer, and its callbacks run neither on the delivering thread nor on the waiting one.
 */
@Timeout(60)
class AsyncAnswersTest {
    public interface Held {
        long value(int x) throws InterruptedException;
    }

    /** Answers once {@link #open} is counted down. */
    static final class HeldImpl implements Held {
        final CountDownLatch open = new CountDownLatch(1);

        @Override
        public long value(int x) throws InterruptedException {
            open.await();
            return x;
        }
    }

    private final List<RpcEngine> engines = new ArrayList<>();
    /** Answers the caller's "poll" handed over, run by the thread that waits (as a caller polling would). */
    private final Queue<Runnable> afterPoll = new ConcurrentLinkedQueue<>();
    private final AtomicInteger handedOver = new AtomicInteger();
    private final Set<Scheduler.Awaited> waitedFor = ConcurrentHashMap.newKeySet();
    private final Set<Thread> delivering = ConcurrentHashMap.newKeySet();
    private final HeldImpl held = new HeldImpl();

    @AfterEach
    void close() {
        held.open.countDown();
        engines.forEach(RpcEngine::close);
    }

    /** The caller's scheduler: its waits run what polls handed over until the result is in. */
    private final Scheduler callerScheduler = new Scheduler() {
        @Override
        public boolean runAfterPoll(Runnable task, Executor otherwise, Work work) {
            if (work != Work.ASYNC_ANSWER) {
                return false;
            }
            handedOver.incrementAndGet();
            afterPoll.add(task);
            return true;
        }

        @Override
        public long pollBudgetNs() {
            return TimeUnit.SECONDS.toNanos(30);
        }

        @Override
        public boolean pollUntil(BooleanSupplier done, long untilNs, Awaited awaited, Runnable late) {
            waitedFor.add(awaited);
            while (!done.getAsBoolean() && System.nanoTime() - untilNs < 0) {
                Runnable answer = afterPoll.poll();
                if (answer != null) {
                    answer.run();
                } else {
                    Thread.onSpinWait();
                }
            }
            return true;
        }
    };

    /** A caller (node 0) and a server (node 1) that runs every call on a thread of its own. */
    private Held connected() {
        ClassLoader loader = getClass().getClassLoader();
        RpcEngine[] e = new RpcEngine[2];
        e[0] = new RpcEngine(0, 2, (to, buf, off, len) -> e[1].onData(0, buf, off, len), loader, 0);
        e[1] = new RpcEngine(1, 2, (to, buf, off, len) -> {
            delivering.add(Thread.currentThread());
            e[0].onData(1, buf, off, len);
        }, loader, 0);
        e[0].scheduler(callerScheduler);
        e[1].scheduler(Scheduler.NONE);
        engines.addAll(List.of(e));
        RemoteRef ref = e[1].export(held, Held.class, "held");
        return e[0].proxy(ref, Held.class, "held");
    }

    @Test
    void answersWithoutCallbacksAreCompletedByTheThreadThatWaitsForThem() throws Exception {
        Held proxy = connected();
        int n = 200;
        List<CompletableFuture<Long>> futures = new ArrayList<>();
        List<Held> tickets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int x = i;
            if (i % 2 == 0) {
                futures.add(Remote.async(proxy, h -> h.value(x)));
            } else {
                Held ticket = AsyncTicket.newTicket(proxy);
                ticket.value(x);
                tickets.add(ticket);
            }
        }
        held.open.countDown();
        for (int i = 0; i < futures.size(); i++) {
            assertEquals(2L * i, futures.get(i).get());
        }
        for (int i = 0; i < tickets.size(); i++) {
            assertEquals(2L * i + 1, (long) AsyncTicket.getResult(tickets.get(i)));
        }
        assertEquals(n, handedOver.get(), "every answer went to the thread that polled it, none to a drainer");
        assertTrue(afterPoll.isEmpty());
        // a wait with later calls started keeps the bell as it stops; one for the newest call does not
        assertTrue(waitedFor.contains(Scheduler.Awaited.ASYNC_REPLY_MORE_DUE), waitedFor::toString);
        assertTrue(Set.of(Scheduler.Awaited.ASYNC_REPLY, Scheduler.Awaited.ASYNC_REPLY_MORE_DUE).containsAll(waitedFor),
            waitedFor::toString);
    }

    @Test
    void answersWithCallbacksGoToTheDrainerAndTheirCallbacksRunOnIt() throws Exception {
        Held proxy = connected();
        int n = 100;
        Set<Thread> callbackThreads = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<Long>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int x = i;
            CompletableFuture<Long> f = Remote.async(proxy, h -> h.value(x));
            f.whenComplete((v, t) -> callbackThreads.add(Thread.currentThread()));
            futures.add(f);
        }
        held.open.countDown(); // every callback is attached before any answer comes
        for (int i = 0; i < n; i++) {
            assertEquals(i, futures.get(i).get());
        }
        assertEquals(0, handedOver.get(), "an answer with callbacks is never completed where it was polled");
        assertFalse(callbackThreads.contains(Thread.currentThread()), "a callback ran on the waiting thread");
        callbackThreads.retainAll(delivering);
        assertEquals(Set.of(), callbackThreads, "a callback ran on the thread that delivered an answer");
    }
}
