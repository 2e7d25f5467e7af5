package dev.cumulus.internal.rpc;

import dev.cumulus.internal.sched.Scheduler;
import dev.cumulus.internal.codec.RemoteRef;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When calls and replies ring doorbells: a synchronous call whose caller polls for its reply rings the target only
 * when the reply is late, and a reply sent while the caller still polls (its promise in the call) rings nobody; every
 * other message rings its destination, except one the serving thread sends the polling caller's node before it
 * answers ({@link RpcEngine#callerPolls}: a replicated write's SUBMIT to the sequencer).
 */
@Timeout(60)
class ReplyRingTest {
    /** rings[n]: how often node n's doorbell was rung. */
    private final AtomicIntegerArray rings = new AtomicIntegerArray(2);
    private final RpcEngine[] engines = new RpcEngine[2];

    private final class Wire implements RpcEngine.DataSender {
        private final int from;

        Wire(int from) {
            this.from = from;
        }

        @Override
        public void send(int destination, DirectBuffer buffer, int offset, int length) {
            engines[destination].onData(from, buffer, offset, length);
        }

        @Override
        public void ring(int node) {
            rings.incrementAndGet(node);
        }
    }

    /** A caller that promises to poll for {@code pollsForNs}, does not poll, and runs {@code late} when due. */
    private static Scheduler polling(long pollsForNs, AtomicInteger lateRuns) {
        return TestSchedulers.polling(pollsForNs, (done, awaited, late) -> {
            if (!done.getAsBoolean() && late != null) {
                lateRuns.incrementAndGet();
                late.run();
            }
        });
    }

    private RemoteRef start(Scheduler callerSide, Object target, Class<?> iface) {
        ClassLoader loader = getClass().getClassLoader();
        engines[0] = new RpcEngine(0, 2, new Wire(0), loader, 0);
        engines[1] = new RpcEngine(1, 2, new Wire(1), loader, 0);
        engines[0].scheduler(callerSide);
        engines[1].scheduler(TestSchedulers.RUN_NOW);
        return engines[1].export(target, iface, "box");
    }

    @AfterEach
    void close() {
        for (RpcEngine e : engines) {
            if (e != null) {
                e.close();
            }
        }
    }

    @Test
    void aPromptReplyToAPollingCallerRingsNobody() {
        AtomicInteger late = new AtomicInteger();
        RemoteRef ref = start(polling(TimeUnit.SECONDS.toNanos(10), late), new DeferredReplyTest.MailboxImpl(),
            DeferredReplyTest.Mailbox.class);
        DeferredReplyTest.Mailbox box = engines[0].proxy(ref, DeferredReplyTest.Mailbox.class, "box");

        box.put("a"); // runs at once: the reply is there before the caller would wait
        box.put("b");

        assertEquals(0, late.get());
        assertEquals(0, rings.get(1), "the target answered at once: no ring for the calls");
        assertEquals(0, rings.get(0), "the caller promised to poll: no ring for the replies");
    }

    @Test
    void withoutAPromiseTheCallAndTheReplyRing() {
        RemoteRef ref = start(Scheduler.NONE, new DeferredReplyTest.MailboxImpl(), DeferredReplyTest.Mailbox.class);
        DeferredReplyTest.Mailbox box = engines[0].proxy(ref, DeferredReplyTest.Mailbox.class, "box");

        box.put("a");

        assertEquals(1, rings.get(1));
        assertEquals(1, rings.get(0));
    }

    @Test
    void aLateReplyRingsTheCallerAndTheCallerRingsTheTargetOnce() throws Exception {
        DeferredReplyTest.MailboxImpl impl = new DeferredReplyTest.MailboxImpl();
        AtomicInteger late = new AtomicInteger();
        long promiseNs = TimeUnit.MILLISECONDS.toNanos(200);
        RemoteRef ref = start(polling(promiseNs, late), impl, DeferredReplyTest.Mailbox.class);
        DeferredReplyTest.Mailbox box = engines[0].proxy(ref, DeferredReplyTest.Mailbox.class, "box");
        CompletableFuture<String> taken = CompletableFuture.supplyAsync(box::take, r -> Thread.ofPlatform().start(r));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (impl.takers.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        DeferredReply reply = impl.takers.poll();
        assertTrue(reply != null, "the take call never arrived");
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(promiseNs) + 1); // past the promise: the caller stopped polling

        reply.complete("late");

        assertEquals("late", taken.get(20, TimeUnit.SECONDS));
        assertEquals(1, late.get());
        assertEquals(1, rings.get(1), "the caller rings the target once, when the reply is late");
        assertEquals(1, rings.get(0), "the reply, sent after the promise, rings the caller");
    }

    public interface Sender {
        /** Whether a message this call's thread sends {@code node} now needs no ring. */
        boolean unrungTo(int node);

        /** The same, from a method whose answer may come from another thread. */
        @DefersReply
        boolean unrungToDeferring(int node);
    }

    private static final class SenderImpl implements Sender {
        volatile RpcEngine engine;

        @Override
        public boolean unrungTo(int node) {
            return engine.callerPolls(node);
        }

        @Override
        public boolean unrungToDeferring(int node) {
            DeferredReply.defer().complete(engine.callerPolls(node));
            return false;
        }
    }

    @Test
    void aServedCallsThreadNeedsNoRingForItsCallersNodeWhileTheCallerPolls() {
        SenderImpl impl = new SenderImpl();
        RemoteRef ref = start(polling(TimeUnit.SECONDS.toNanos(10), new AtomicInteger()), impl, Sender.class);
        impl.engine = engines[1];
        Sender sender = engines[0].proxy(ref, Sender.class, "box");

        assertTrue(sender.unrungTo(0), "the caller's node polls by promise");
        assertFalse(sender.unrungTo(1), "no promise of another node");
        assertFalse(sender.unrungToDeferring(0), "its answer may come from another thread: no promise for this one");
        assertFalse(engines[1].callerPolls(0), "outside a call");
    }

    @Test
    void withoutAPromiseAServedCallsThreadRings() {
        SenderImpl impl = new SenderImpl();
        RemoteRef ref = start(Scheduler.NONE, impl, Sender.class);
        impl.engine = engines[1];

        assertFalse(engines[0].proxy(ref, Sender.class, "box").unrungTo(0));
    }

    @Test
    void aReplyRingsExactlyWhenItIsSentAfterThePromise() {
        assertTrue(CallServer.ringAfterReply(0, 123), "no promise: ring");
        long margin = CallServer.PROMISE_MARGIN_NS;
        assertFalse(CallServer.ringAfterReply(1_000_000, 1_000_000 - margin - 1), "inside the promise: the caller polls");
        assertTrue(CallServer.ringAfterReply(1_000_000, 1_000_000 - margin), "in its last margin: ring anyway");
        assertTrue(CallServer.ringAfterReply(1_000_000, 1_000_000));
        assertFalse(CallServer.ringAfterReply(Long.MIN_VALUE + 5 * margin, Long.MAX_VALUE),
            "nanoTime wraps: compare by difference");
    }
}
