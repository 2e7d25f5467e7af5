package dev.cumulus.internal.rpc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class PendingCallsTest {
    private static PendingCall call(long id, int target) {
        return new PendingCall(id, target, 0, null, "x", null, 0, 0, null, null, null, 0);
    }

    @Test
    void aReplyTakesItsCallOnceAndOnlyFromTheNodeItWasSentTo() {
        PendingCalls pending = new PendingCalls();
        PendingCall c = call(7, 2);
        pending.add(c);
        assertNull(pending.takeReplyFrom(3, 7), "a reply from another node must not take the call");
        assertNull(pending.takeReplyFrom(2, 8), "nor a reply to another call");
        assertSame(c, pending.takeReplyFrom(2, 7));
        assertNull(pending.takeReplyFrom(2, 7), "a call is taken once");
        assertFalse(pending.remove(c));
    }

    @Test
    void callsThatOutliveThousandsOfLaterOnesAreStillFound() {
        PendingCalls pending = new PendingCalls();
        int n = PendingCalls.SLOTS * 3; // slots and their probes fill up: the rest go to the overflow map
        List<PendingCall> calls = new ArrayList<>();
        for (long id = 1; id <= n; id++) {
            PendingCall c = call(id, (int) (id % 3));
            calls.add(c);
            pending.add(c);
        }
        for (int i = calls.size() - 1; i >= 0; i -= 2) { // every other one, newest first
            PendingCall c = calls.get(i);
            assertSame(c, pending.takeReplyFrom(c.target, c.callId), "call " + c.callId);
        }
        List<Long> failed = new ArrayList<>();
        pending.takeAll(c -> c.target == 1, c -> failed.add(c.callId));
        long expected = calls.stream().filter(c -> c.callId % 2 == 1 && c.target == 1).count();
        assertEquals(expected, failed.size());
        for (PendingCall c : calls) {
            boolean left = c.callId % 2 == 1 && c.target != 1;
            assertEquals(left, pending.remove(c), "call " + c.callId);
        }
    }

    @Test
    void concurrentCallersAndOneReplierNeverLoseOrDuplicateACall() throws Exception {
        PendingCalls pending = new PendingCalls();
        AtomicLong ids = new AtomicLong();
        Set<Long> taken = ConcurrentHashMap.newKeySet();
        int perThread = 50_000;
        List<Thread> callers = new ArrayList<>();
        ConcurrentLinkedQueue<PendingCall> sent = new ConcurrentLinkedQueue<>();
        for (int t = 0; t < 3; t++) {
            callers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < perThread; i++) {
                    PendingCall c = call(ids.incrementAndGet(), 1);
                    pending.add(c);
                    sent.add(c);
                }
            }));
        }
        int total = 3 * perThread;
        while (taken.size() < total) {
            PendingCall c = sent.poll();
            if (c == null) {
                Thread.onSpinWait();
                continue;
            }
            PendingCall got = pending.takeReplyFrom(1, c.callId);
            assertSame(c, got, "call " + c.callId);
            assertTrue(taken.add(c.callId), "taken twice: " + c.callId);
        }
        for (Thread t : callers) {
            t.join();
        }
        List<Long> left = new ArrayList<>();
        pending.takeAll(c -> true, c -> left.add(c.callId));
        assertTrue(left.isEmpty(), "left behind: " + left);
    }

    @Test
    void aLateReplyForASlotReusedByALaterCallTakesNothing() {
        PendingCalls pending = new PendingCalls();
        long first = 5;
        long reuse = first + PendingCalls.SLOTS; // the same home slot, a later generation of call ids
        PendingCall a = call(first, 1);
        pending.add(a);
        assertSame(a, pending.takeReplyFrom(1, first));
        PendingCall b = call(reuse, 1);
        pending.add(b); // takes the slot a left
        assertNull(pending.takeReplyFrom(1, first), "a duplicate or late reply to the first call takes nothing");
        assertTrue(pending.remove(b), "the later call still waits in the reused slot");
    }

    @Test
    void callIdsWrapAroundTheRingWhileOlderCallsStillWait() {
        PendingCalls pending = new PendingCalls();
        PendingCall old = call(3, 2); // still waiting while ids run several times around the ring
        pending.add(old);
        for (long id = 4; id < 4 + 5L * PendingCalls.SLOTS; id++) {
            PendingCall c = call(id, 2);
            pending.add(c);
            if (id - PendingCalls.SLOTS > 3) { // a call one lap back, answered: a late reply to it takes nothing
                assertNull(pending.takeReplyFrom(2, id - PendingCalls.SLOTS), "id " + (id - PendingCalls.SLOTS));
            }
            assertSame(c, pending.takeReplyFrom(2, id), "call " + id);
        }
        assertNull(pending.takeReplyFrom(1, 3), "a reply from another node does not take it");
        assertSame(old, pending.takeReplyFrom(2, 3), "the old call is found after the ids wrapped around it");
    }
}
