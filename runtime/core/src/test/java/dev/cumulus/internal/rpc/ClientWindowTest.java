package dev.cumulus.internal.rpc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A client's window of calls outstanding per server: full, it parks its callers until a slot is freed. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClientWindowTest {
    private static final long GATE = 1;

    private static ClientWindow window(int limit) {
        return new ClientWindow(2, limit, objectId -> objectId != GATE);
    }

    @Test
    void countsWhatTheServerCountsOnServersOnly() {
        ClientWindow w = window(4);
        assertTrue(w.counts(0, 100));
        assertFalse(w.counts(0, GATE), "attaching and leaving are not counted");
        assertFalse(w.counts(2, 100), "not a server");
    }

    @Test
    void aFullWindowTakesNoMoreUntilASlotIsFreedAndServersAreCountedApart() {
        ClientWindow w = window(3);
        for (int i = 0; i < 3; i++) {
            assertTrue(w.tryAcquire(0));
        }
        assertFalse(w.tryAcquire(0));
        assertTrue(w.tryAcquire(1), "another server's window is its own");
        w.release(0);
        assertTrue(w.tryAcquire(0));
        assertEquals(3, w.outstanding(0));
    }

    @Test
    void aWaitingCallerParksUntilAnAnswerFreesASlot() throws Exception {
        ClientWindow w = window(1);
        assertTrue(w.tryAcquire(0));
        CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> {
            try {
                return w.await(0, 0, () -> false);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        while (!w.hasWaiters(0)) {
            Thread.onSpinWait();
        }
        assertFalse(waited.isDone(), "it waits while the window is full");
        w.release(0);
        assertTrue(waited.get(10, TimeUnit.SECONDS), "the freed slot is taken by the waiting caller");
        assertEquals(1, w.outstanding(0));
    }

    @Test
    void aWaitEndsWhenTheServerGoesOrTheDeadlinePasses() throws Exception {
        ClientWindow w = window(1);
        assertTrue(w.tryAcquire(0));
        assertFalse(w.await(0, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20), () -> false), "deadline");
        AtomicBoolean gone = new AtomicBoolean();
        CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> {
            try {
                return w.await(0, 0, gone::get);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        while (!w.hasWaiters(0)) {
            Thread.onSpinWait();
        }
        gone.set(true);
        w.gone(0);
        assertFalse(waited.get(10, TimeUnit.SECONDS), "the server went: the wait gives up");
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> w.await(0, 0, () -> false));
        assertFalse(Thread.interrupted());
    }

    @Test
    void anAbandonedCallCountsUntilItsLateAnswerComes() {
        ClientWindow w = window(1);
        assertTrue(w.tryAcquire(0));
        w.abandon(7, 0);
        assertFalse(w.tryAcquire(0), "the server still counts it");
        w.lateAnswer(8);
        assertFalse(w.tryAcquire(0), "another call's answer frees nothing");
        w.lateAnswer(7);
        assertTrue(w.tryAcquire(0), "its late answer freed the slot");
        w.abandon(9, 0);
        w.forget(9);
        w.lateAnswer(9);
        assertEquals(1, w.outstanding(0), "an abandoned call answered in the meantime is not released twice");
    }
}
