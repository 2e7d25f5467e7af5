package dev.cumulus.internal.array;

import dev.cumulus.array.CacheState;
import dev.cumulus.internal.array.CoherenceMessage.ForwardReply;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.function.LongSupplier;

/**
 * The directory entry of one partition on its home node, and the partition's backing copy ({@code memory}). The
 * directory is {@link DirState#SHARED} (memory valid; {@code sharers} hold read-only copies) or
 * {@link DirState#EXCLUSIVE} ({@code owner} holds the only valid copy; memory may be stale). The home serializes
 * conflicting requests: one transaction at a time ({@link Phase}), the others queue in arrival order. Transactions
 * and their hops: docs/design/COHERENCE.md. Not thread-safe on its own: every method is synchronized.
 */
final class HomeDirectory {
    enum DirState { SHARED, EXCLUSIVE }

    enum Phase { IDLE, AWAIT_ACKS, AWAIT_FORWARD }

    /** What the runtime records (JFR); protocol tests pass {@link #NONE}. */
    interface Observer {
        Observer NONE = new Observer() {
        };

        default void invalidated(String array, int partition, int sharers, long durationNs) {
        }

        default void ownershipMoved(String array, int partition, int from, int to) {
        }
    }

    private record Request(Access access, int from) {
    }

    final String array;
    final int partition;
    final int home;
    private final LongSupplier clock;
    private final Observer observer;
    private DirState state = DirState.SHARED;
    private Phase phase = Phase.IDLE;
    private int owner = -1;
    private final BitSet sharers = new BitSet();
    private final long[] grantSeq;
    private long nextSeq = 1;
    private Object memory;
    private Request current;
    private int acksLeft;
    private int invalidations;
    private long txStartNs;
    private final ArrayDeque<Request> queue = new ArrayDeque<>();

    /**
     * @param memory the zero-filled backing copy; the home's own cache entry starts as a sharer of it (grant 0)
     */
    HomeDirectory(String array, int partition, int home, int nodes, Object memory, LongSupplier clock,
                  Observer observer) {
        this.array = array;
        this.partition = partition;
        this.home = home;
        this.memory = memory;
        this.clock = clock;
        this.observer = observer;
        this.grantSeq = new long[nodes];
        sharers.set(home);
    }

    synchronized DirState state() {
        return state;
    }

    synchronized Phase phase() {
        return phase;
    }

    synchronized int owner() {
        return owner;
    }

    synchronized BitSet sharers() {
        return (BitSet) sharers.clone();
    }

    synchronized int queued() {
        return queue.size();
    }

    /** A read or write request from {@code from}'s cache. */
    synchronized void onRequest(Access access, int from, Effects fx) {
        queue.add(new Request(access, from));
        if (phase == Phase.IDLE) {
            next(fx);
        }
    }

    private void next(Effects fx) {
        while (phase == Phase.IDLE && !queue.isEmpty()) {
            begin(queue.poll(), fx);
        }
    }

    private void begin(Request r, Effects fx) {
        txStartNs = clock.getAsLong();
        switch (state) {
            case SHARED -> {
                if (r.access() == Access.READ) {
                    sharers.set(r.from());
                    grant(r.from(), CacheState.SHARED, memory, 2, fx);
                    return;
                }
                BitSet others = (BitSet) sharers.clone();
                others.clear(r.from());
                if (others.isEmpty()) {
                    boolean hasCopy = sharers.get(r.from());
                    makeOwner(r.from(), -1);
                    grant(r.from(), CacheState.EXCLUSIVE, hasCopy ? null : memory, 2, fx);
                    return;
                }
                current = r;
                phase = Phase.AWAIT_ACKS;
                acksLeft = others.cardinality();
                invalidations = acksLeft;
                for (int n = others.nextSetBit(0); n >= 0; n = others.nextSetBit(n + 1)) {
                    fx.send(n, new CoherenceMessage.Invalidate(array, partition, grantSeq[n]));
                }
            }
            case EXCLUSIVE -> {
                if (owner == r.from()) {
                    // a node asks for what it owns only if it lost track; it keeps its copy
                    grant(r.from(), CacheState.EXCLUSIVE, null, 2, fx);
                    return;
                }
                current = r;
                phase = Phase.AWAIT_FORWARD;
                fx.send(owner, new CoherenceMessage.Forward(array, partition, r.access(), grantSeq[owner], r.from()));
            }
        }
    }

    synchronized void onInvalidateAck(int from, Effects fx) {
        if (phase != Phase.AWAIT_ACKS || !sharers.get(from)) {
            throw new IllegalStateException("array '" + array + "' partition " + partition + ": unexpected "
                + "invalidation ack from node " + from + " in phase " + phase);
        }
        sharers.clear(from);
        if (--acksLeft > 0) {
            return;
        }
        Request r = current;
        current = null;
        phase = Phase.IDLE;
        boolean hasCopy = sharers.get(r.from());
        observer.invalidated(array, partition, invalidations, clock.getAsLong() - txStartNs);
        makeOwner(r.from(), -1);
        grant(r.from(), CacheState.EXCLUSIVE, hasCopy ? null : memory, 4, fx);
        next(fx);
    }

    synchronized void onForwardReply(ForwardReply m, Effects fx) {
        if (phase != Phase.AWAIT_FORWARD || m.from() != owner) {
            throw new IllegalStateException("array '" + array + "' partition " + partition + ": unexpected "
                + "forward reply from node " + m.from() + " in phase " + phase + " (owner " + owner + ")");
        }
        Request r = current;
        current = null;
        phase = Phase.IDLE;
        memory = m.data();
        int previous = owner;
        if (r.access() == Access.READ) {
            state = DirState.SHARED;
            owner = -1;
            sharers.clear();
            sharers.set(previous);
            sharers.set(r.from());
            grant(r.from(), CacheState.SHARED, memory, 4, fx);
        } else {
            makeOwner(r.from(), previous);
            grant(r.from(), CacheState.EXCLUSIVE, memory, 4, fx);
        }
        next(fx);
    }

    private void makeOwner(int node, int previous) {
        state = DirState.EXCLUSIVE;
        owner = node;
        sharers.clear();
        observer.ownershipMoved(array, partition, previous, node);
    }

    /**
     * Grants {@code data} as it is, to another node too: the wire form is the copy. Nobody writes {@code data} before
     * the grantee has installed the grant: a write needs an EXCLUSIVE copy, and the home grants the next one (to itself
     * too) only after the grantee's invalidation ack or forward reply, sent after installing this grant. (The sending
     * thread encodes the grant as it sends the step's effects; the tests' {@code ProtocolHarness} copies on delivery.)
     */
    private void grant(int to, CacheState s, Object data, int hops, Effects fx) {
        long seq = nextSeq++;
        grantSeq[to] = seq;
        fx.send(to, new CoherenceMessage.Grant(array, partition, s, seq, data, hops));
    }
}
