package dev.cumulus.internal.rpc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The drainer of answered asynchronous calls: answers queued before it starts are completed in the order they came, by
 * one drainer; a callback that waits for a result queued behind its own completes it itself instead of waiting for
 * good; answers queued while a drainer runs are taken by it or by one started after it.
 */
@Timeout(30)
class AsyncRepliesTest {
    private final List<Runnable> started = new CopyOnWriteArrayList<>();
    private final AtomicReference<AsyncReplies> replies = new AtomicReference<>();
    private final List<Long> completed = new CopyOnWriteArrayList<>();
    /** A thread that waits for a result blocks at once. */
    private static final AsyncReplies.Poller NO_POLLS = (done, atMostNs) -> { };

    /** Completes each call's future with its call id; drainers are held until the test runs them. */
    private AsyncReplies replies() {
        AsyncReplies r = new AsyncReplies(call -> {
            completed.add(call.callId);
            call.result.complete(call.callId);
        }, started::add, NO_POLLS);
        replies.set(r);
        return r;
    }

    private PendingCall call(long id) {
        return new PendingCall(id, 1, 16, null, "t", null, 0, null, null,
            new AsyncResult<>(replies.get()), 0);
    }

    @Test
    void answersQueuedBeforeTheDrainerAreCompletedInArrivalOrderByOneDrainer() {
        AsyncReplies r = replies();
        List<PendingCall> calls = new ArrayList<>();
        for (long id = 1; id <= 100; id++) {
            calls.add(call(id));
            r.add(calls.getLast());
        }
        assertEquals(1, started.size(), "one drainer for the whole batch");
        started.getFirst().run();
        List<Long> expected = new ArrayList<>();
        for (long id = 1; id <= 100; id++) {
            expected.add(id);
        }
        assertEquals(expected, completed);
        r.add(call(101));
        assertEquals(2, started.size(), "a drainer that ended leaves the next answer to a new one");
    }

    @Test
    void aCallbackThatWaitsForALaterResultCompletesItInsteadOfWaitingForGood() throws Exception {
        AsyncReplies r = replies();
        PendingCall first = call(1);
        PendingCall second = call(2);
        CompletableFuture<Object> chained = first.result
            .thenApply(v -> (Long) v + (Long) second.result.join());
        r.add(first);
        r.add(second);
        Thread drainer = Thread.ofVirtual().start(started.getFirst());
        assertEquals(3L, chained.get(20, TimeUnit.SECONDS));
        drainer.join();
        assertEquals(List.of(1L, 2L), completed);
    }

    @Test
    void answersAddedWhileADrainerRunsAreAllCompleted() throws Exception {
        AsyncReplies r = new AsyncReplies(call -> call.result.complete(call.callId),
            task -> Thread.ofVirtual().start(task), NO_POLLS);
        replies.set(r);
        AtomicInteger done = new AtomicInteger();
        int producers = 4;
        int each = 5000;
        List<CompletableFuture<Object>> all = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            long base = (long) p * each;
            threads.add(Thread.ofPlatform().start(() -> {
                for (long id = base + 1; id <= base + each; id++) {
                    PendingCall c = call(id);
                    all.add(c.result.whenComplete((v, t) -> done.incrementAndGet()));
                    r.add(c);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).get(20, TimeUnit.SECONDS);
        assertEquals(producers * each, done.get());
    }
}
