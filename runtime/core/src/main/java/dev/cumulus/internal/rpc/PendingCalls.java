package dev.cumulus.internal.rpc;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The calls of this node that wait for their replies, by call id. Any thread starts calls; the polling thread finds
 * each reply's call. Call ids count up, so a call usually finds its slot {@code id % SLOTS} of a fixed table free: a
 * CAS to add, another to take, no boxing or hashing. A call whose slot and the next {@link #PROBES} are taken (many
 * asynchronous calls in flight, or long waits) goes to an overflow map. Lock-free; every method may race with every
 * other, and a call is taken at most once.
 */
final class PendingCalls {
    static final int SLOTS = 4096;
    private static final int MASK = SLOTS - 1;
    static final int PROBES = 8;

    private final AtomicReferenceArray<PendingCall> slots = new AtomicReferenceArray<>(SLOTS);
    private final Map<Long, PendingCall> overflow = new ConcurrentHashMap<>();

    void add(PendingCall call) {
        int home = (int) call.callId & MASK;
        for (int i = 0; i < PROBES; i++) {
            if (slots.compareAndSet((home + i) & MASK, null, call)) {
                return;
            }
        }
        overflow.put(call.callId, call);
    }

    /** Takes the call with {@code callId} if it still waits for a reply from {@code source}; else returns null. */
    PendingCall takeReplyFrom(int source, long callId) {
        int home = (int) callId & MASK;
        for (int i = 0; i < PROBES; i++) {
            int at = (home + i) & MASK;
            PendingCall call = slots.get(at);
            if (call != null && call.callId == callId) {
                return call.target == source && slots.compareAndSet(at, call, null) ? call : null;
            }
        }
        if (overflow.isEmpty()) {
            return null;
        }
        PendingCall call = overflow.get(callId);
        return call != null && call.target == source && overflow.remove(callId, call) ? call : null;
    }

    /** Forgets {@code call} if it still waits; true if this took it. */
    boolean remove(PendingCall call) {
        int home = (int) call.callId & MASK;
        for (int i = 0; i < PROBES; i++) {
            if (slots.compareAndSet((home + i) & MASK, call, null)) {
                return true;
            }
        }
        return overflow.remove(call.callId, call);
    }

    /** Takes every waiting call that {@code which} selects and hands it to {@code taken}. */
    void takeAll(Predicate<PendingCall> which, Consumer<PendingCall> taken) {
        for (int at = 0; at < SLOTS; at++) {
            PendingCall call = slots.get(at);
            if (call != null && which.test(call) && slots.compareAndSet(at, call, null)) {
                taken.accept(call);
            }
        }
        for (Map.Entry<Long, PendingCall> e : overflow.entrySet()) {
            if (which.test(e.getValue()) && overflow.remove(e.getKey(), e.getValue())) {
                taken.accept(e.getValue());
            }
        }
    }
}
