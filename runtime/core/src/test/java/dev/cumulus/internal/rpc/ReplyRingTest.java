package dev.cumulus.internal.rpc;

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
 * other message rings its destination.
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

    /** How often a caller asked its node to keep looking for a reply ({@link RpcEngine.ReplyWait#keepLooking}). */
    private final AtomicInteger keepLookings = new AtomicInteger();

    /** A caller that promises to poll for {@code pollsForNs} and, in {@code beforeBlocking}, does {@code body}. */
    private RpcEngine.ReplyWait polling(long pollsForNs, Runnable body, AtomicInteger lateRuns) {
        return new RpcEngine.ReplyWait() {
            @Override
            public void keepLooking() {
                keepLookings.incrementAndGet();
            }

            @Override
            public long pollsForNs() {
                return pollsForNs;
            }

            @Override
            public long beforeBlocking(CompletableFuture<?> reply, Runnable late) {
                body.run();
                if (!reply.isDone()) {
                    lateRuns.incrementAndGet();
                    late.run();
                }
                return System.nanoTime();
            }
        };
    }

    private RemoteRef start(RpcEngine.ReplyWait callerWait, Object target, Class<?> iface) {
        ClassLoader loader = getClass().getClassLoader();
        RpcEngine.InlineCalls runNow = (call, otherwise, brief) -> {
            call.run();
            return true;
        };
        engines[0] = new RpcEngine(0, 2, new Wire(0), loader, 0);
        engines[1] = new RpcEngine(1, 2, new Wire(1), loader, 0);
        engines[0].threading(runNow, callerWait);
        engines[1].threading(runNow, RpcEngine.ReplyWait.NONE);
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
        RemoteRef ref = start(polling(TimeUnit.SECONDS.toNanos(10), () -> { }, late), new DeferredReplyTest.MailboxImpl(),
            DeferredReplyTest.Mailbox.class);
        DeferredReplyTest.Mailbox box = engines[0].proxy(ref, DeferredReplyTest.Mailbox.class, "box");

        box.put("a"); // the thread's first call: it has no time to count a promise from yet, so it promises nothing
        assertEquals(1, rings.get(1));
        assertEquals(1, rings.get(0));

        box.put("b"); // runs inline at once: the reply is there before the caller would wait

        assertEquals(0, late.get());
        assertEquals(1, rings.get(1), "the target answered at once: no ring for the call");
        assertEquals(1, rings.get(0), "the caller promised to poll: no ring for the reply");
    }

    @Test
    void withoutAPromiseTheCallAndTheReplyRing() {
        RemoteRef ref = start(RpcEngine.ReplyWait.NONE, new DeferredReplyTest.MailboxImpl(),
            DeferredReplyTest.Mailbox.class);
        DeferredReplyTest.Mailbox box = engines[0].proxy(ref, DeferredReplyTest.Mailbox.class, "box");

        box.put("a");

        assertEquals(1, rings.get(1));
        assertEquals(1, rings.get(0));
    }

    @Test
    void aLateReplyRingsTheCallerAndTheCallerRingsTheTargetOnce() throws Exception {
        DeferredReplyTest.MailboxImpl impl = new DeferredReplyTest.MailboxImpl();
        AtomicInteger late = new AtomicInteger();
        long promiseNs = TimeUnit.MILLISECONDS.toNanos(400); // the call promises to poll for half of it
        RemoteRef ref = start(polling(promiseNs, () -> { }, late), impl, DeferredReplyTest.Mailbox.class);
        DeferredReplyTest.Mailbox box = engines[0].proxy(ref, DeferredReplyTest.Mailbox.class, "box");
        CompletableFuture<String> taken = CompletableFuture.supplyAsync(() -> {
            box.put("first"); // gives the thread a time to count its next call's promise from
            rings.set(0, 0);
            rings.set(1, 0);
            return box.take();
        }, r -> Thread.ofPlatform().start(r));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (impl.takers.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        RpcEngine.DeferredReply reply = impl.takers.poll();
        assertTrue(reply != null, "the take call never arrived");
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(promiseNs)); // past the promise: the caller may have stopped

        reply.complete("late");

        assertEquals("late", taken.get(20, TimeUnit.SECONDS));
        assertEquals(1, late.get());
        assertEquals(1, rings.get(1), "the caller rings the target once, when the reply is late");
        // the caller stopped polling within its promise (it polled not at all here): it asked its node to keep
        // looking; and the reply, sent after the promise, rang it
        assertEquals(1, keepLookings.get());
        assertEquals(1, rings.get(0));
    }

    @Test
    void aReplyRingsExactlyWhenItIsSentAfterThePromise() {
        assertTrue(RpcEngine.ringAfterReply(0, 123), "no promise: ring");
        assertFalse(RpcEngine.ringAfterReply(1_000, 999), "before the promise ends: the caller still polls");
        assertTrue(RpcEngine.ringAfterReply(1_000, 1_000));
        assertFalse(RpcEngine.ringAfterReply(Long.MIN_VALUE + 5, Long.MAX_VALUE), "nanoTime wraps: compare by difference");
    }
}
