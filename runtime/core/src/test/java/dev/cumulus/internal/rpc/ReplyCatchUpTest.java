package dev.cumulus.internal.rpc;

import dev.cumulus.internal.sched.Scheduler;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.order.BarrierWatermark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A reply carries the callee's replicated-write watermark; a caller whose node has not applied those writes yet polls
 * for them itself ({@link Scheduler.Awaited#APPLIED_WRITES}) before it would block on the watermark — a reply found
 * by a quick poll (data stream only) otherwise came before its writes were even polled, and the caller then waited for
 * a delivery thread's wake-up (a static sequencer's writes: ~100 µs instead of ~2).
 */
@Timeout(30)
class ReplyCatchUpTest {
    /** A watermark that a test moves by hand; blocking on it fails the test. */
    private static final class Watermark implements BarrierWatermark {
        final AtomicLong applied = new AtomicLong();

        @Override
        public long applied() {
            return applied.get();
        }

        @Override
        public void awaitApplied(long seq) {
            if (applied.get() < seq) {
                throw new AssertionError("the caller blocked on the watermark instead of polling for the writes");
            }
        }
    }

    @Test
    void aCallerWhoseReplyIsAheadOfItsWritesPollsForThemInsteadOfBlocking() {
        RpcEngine[] e = new RpcEngine[2];
        ClassLoader loader = getClass().getClassLoader();
        e[0] = new RpcEngine(0, 2, (to, buf, off, len) -> e[1].onData(0, buf, off, len), loader, 0);
        e[1] = new RpcEngine(1, 2, (to, buf, off, len) -> e[0].onData(1, buf, off, len), loader, 0);
        Watermark caller = new Watermark();
        Watermark callee = new Watermark();
        e[0].causality(caller);
        e[1].causality(callee);
        AtomicInteger polls = new AtomicInteger();
        e[0].scheduler(TestSchedulers.polling(1, (applied, awaited, late) -> {
            if (awaited != Scheduler.Awaited.APPLIED_WRITES) {
                return; // a reply: it is there at once
            }
            polls.incrementAndGet();
            assertTrue(!applied.getAsBoolean());
            caller.applied.set(callee.applied.get()); // what this node's polls deliver
            assertTrue(applied.getAsBoolean());
        }));
        e[1].scheduler(TestSchedulers.RUN_NOW);
        try {
            RemoteRef ref = e[1].export(new DeferredReplyTest.MailboxImpl(), DeferredReplyTest.Mailbox.class, "box");
            DeferredReplyTest.Mailbox box = e[0].proxy(ref, DeferredReplyTest.Mailbox.class, "box");

            box.put("a"); // both at 0: nothing to catch up
            assertEquals(0, polls.get());

            callee.applied.set(7); // the callee applied writes the caller has not yet
            box.put("b");
            assertEquals(1, polls.get());
            assertEquals(7, caller.applied());

            box.put("c"); // caught up: no poll
            assertEquals(1, polls.get());
        } finally {
            e[0].close();
            e[1].close();
        }
    }
}
