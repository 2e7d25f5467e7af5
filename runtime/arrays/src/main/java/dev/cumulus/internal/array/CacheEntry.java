package dev.cumulus.internal.array;

import dev.cumulus.array.CacheState;
import dev.cumulus.internal.array.CoherenceMessage.Forward;
import dev.cumulus.internal.array.CoherenceMessage.Grant;
import dev.cumulus.internal.array.CoherenceMessage.Invalidate;

import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * One node's copy of one partition: the cache side of the protocol. States {@link CacheState}; at most one request
 * to the home is outstanding ({@code pending}); accesses that cannot run yet wait in {@code waiters}; invalidations
 * and forwards that overtook the grant they revoke wait in {@code deferred}.
 *
 * <p>Locking: every method but the hit path holds this object's monitor. Read hits load this partition's slot of the
 * array's {@code copies} table without a lock, as a plain load (why: docs/design/COHERENCE.md, "Running accesses");
 * {@link #publish} fences the data before the reference. A failure unpublishes the copy, so a loop of hits with no
 * synchronization may keep reading its copy until its next barrier, lock or miss, and fails there. Write hits take the
 * monitor and check {@link #state()}, so an invalidation never loses a write in progress.
 */
final class CacheEntry {
    final String array;
    final int partition;
    final int self;
    final int home;
    private CacheState state = CacheState.INVALID;
    private Object data;
    /** The array's table of copies that may be read without the lock (a {@code double[][]} etc.); our slot is ours. */
    private final Object[] copies;
    private long installedSeq = -1;
    private Access pending;
    private final ArrayDeque<Op> waiters = new ArrayDeque<>();
    private final List<CoherenceMessage> deferred = new ArrayList<>(1);
    private RuntimeException failure;

    CacheEntry(String array, int partition, int self, int home, Object[] copies) {
        this.array = array;
        this.partition = partition;
        this.self = self;
        this.home = home;
        this.copies = copies;
    }

    /** The copy a read hit may use, or null. */
    Object readable() {
        return copies[partition];
    }

    /** Makes {@code d} (or nothing, when null) readable without the lock; the fence orders its contents first. */
    private void publish(Object d) {
        VarHandle.releaseFence();
        copies[partition] = d;
    }

    /** The home's own entry starts as a sharer of the zero-filled backing copy (grant 0). */
    synchronized void installInitial(Object memory) {
        state = CacheState.SHARED;
        data = memory;
        publish(memory);
        installedSeq = 0;
    }

    /** Caller holds the monitor. */
    CacheState state() {
        return state;
    }

    /** Caller holds the monitor. */
    Object data() {
        return data;
    }

    synchronized CacheState stateNow() {
        return state;
    }

    synchronized Access pending() {
        return pending;
    }

    synchronized int waiting() {
        return waiters.size();
    }

    private boolean permits(Access a) {
        return a == Access.READ ? state != CacheState.INVALID : state == CacheState.EXCLUSIVE;
    }

    /** A local access (slow path): runs now if the copy allows, else waits and asks the home. */
    synchronized void access(Op op, Effects fx) {
        if (failure != null) {
            op.fail(failure, fx);
            return;
        }
        if (permits(op.access)) {
            op.run(data, 0, fx);
            return;
        }
        waiters.add(op);
        if (pending == null) {
            request(op.access == Access.READ && state == CacheState.INVALID ? Access.READ : Access.WRITE, fx);
        }
    }

    private void request(Access a, Effects fx) {
        pending = a;
        fx.send(home, a == Access.READ ? new CoherenceMessage.ReadRequest(array, partition, self)
            : new CoherenceMessage.WriteRequest(array, partition, self));
    }

    synchronized void onGrant(Grant g, Effects fx) {
        if (failure != null) {
            return; // the cluster failed: the copy stays unusable
        }
        state = g.state();
        if (g.data() != null) {
            data = g.data();
        }
        installedSeq = g.seq();
        publish(data);
        pending = null;
        boolean needWrite = false;
        long received = g.data() == null ? 0 : Op.sizeBytes(g.data()); // counted once, by the first access it serves
        for (Iterator<Op> it = waiters.iterator(); it.hasNext(); ) {
            Op op = it.next();
            if (permits(op.access)) {
                it.remove();
                op.receivedBytes = received;
                received = 0;
                op.run(data, g.hops(), fx);
            } else {
                needWrite = true;
            }
        }
        if (needWrite) {
            request(Access.WRITE, fx);
        }
        replayDeferred(fx);
    }

    synchronized void onInvalidate(Invalidate m, Effects fx) {
        if (failure != null) {
            return; // the cluster failed: the copy stays unusable
        }
        if (m.seq() > installedSeq) {
            deferred.add(m);
            return;
        }
        state = CacheState.INVALID;
        publish(null);
        fx.send(home, new CoherenceMessage.InvalidateAck(array, partition, self));
    }

    synchronized void onForward(Forward f, Effects fx) {
        if (failure != null) {
            return; // the cluster failed: the copy stays unusable
        }
        if (f.seq() > installedSeq) {
            deferred.add(f);
            return;
        }
        Object d = data;
        if (f.access() == Access.READ) {
            state = CacheState.SHARED;
        } else {
            state = CacheState.INVALID;
            publish(null);
            data = null;
        }
        fx.send(home, new CoherenceMessage.ForwardReply(array, partition, self, f.access(), d));
    }

    private void replayDeferred(Effects fx) {
        if (deferred.isEmpty()) {
            return;
        }
        deferred.sort(Comparator.comparingLong(CacheEntry::seqOf));
        List<CoherenceMessage> ready = new ArrayList<>();
        for (Iterator<CoherenceMessage> it = deferred.iterator(); it.hasNext(); ) {
            CoherenceMessage m = it.next();
            if (seqOf(m) <= installedSeq) {
                it.remove();
                ready.add(m);
            }
        }
        for (CoherenceMessage m : ready) {
            switch (m) {
                case Invalidate i -> onInvalidate(i, fx);
                case Forward f -> onForward(f, fx);
                default -> throw new IllegalStateException("only invalidations and forwards are deferred: " + m);
            }
        }
    }

    private static long seqOf(CoherenceMessage m) {
        return switch (m) {
            case Invalidate i -> i.seq();
            case Forward f -> f.seq();
            default -> Long.MAX_VALUE;
        };
    }

    /**
     * Fails every waiting access and every later one (the cluster failed). The copy stops being readable or writable
     * without the lock too, so a thread that only hits (it never asks the home again) also learns of the failure:
     * its next access takes the slow path, which fails.
     */
    synchronized void fail(RuntimeException e, Effects fx) {
        if (failure == null) {
            failure = e;
        }
        state = CacheState.INVALID;
        publish(null);
        for (Op op : waiters) {
            op.fail(e, fx);
        }
        waiters.clear();
    }
}
