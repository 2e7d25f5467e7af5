package dev.cumulus.internal.singlevm;

import java.lang.reflect.Array;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The publishing node's side of "Homed where first published" (docs/design/SINGLEVM.md): chooses which originals a
 * flush's write-back to another home publishes there and names them ({@link ObjectIds#named}), adding each to the
 * flush's {@link Publication}; keeps them in the window between naming and that home's acknowledgement, which no other
 * message of this node may name them in ({@link #inWindow}); then adopts each original as this node's copy, with a twin
 * of the values sent, and before every later flush marks dirty what a woven access that still took one for an original
 * wrote without a dirty bit. {@link ObjectSpace#flush} drives it; the home's side is {@link PublicationReceiver}.
 *
 * <p>Threads and locks: {@link #idOf} runs on the flushing thread under the space's flush lock (and, while a dirty
 * copy is snapshotted, that copy's lock; {@link Publication#encodeAll} calls it too) and takes the registry lock inside
 * them (the monitor of the space's masters map, which also guards {@code masterArrays} and this window);
 * {@link #adopted} and {@link #markTwinDifferences} run on the flushing thread under the flush lock and take each
 * copy's lock, and {@code adopted} the registry lock after that copy's lock is released; {@link #inWindow} runs on any
 * thread; {@link #publishingId} runs under the caller's registry lock.
 */
final class Publisher {
    private final ObjectSpace space;
    private final int self;
    /** The registry lock: the space's masters map, whose monitor guards {@code masterArrays} and the window. */
    private final Object registry;
    private final Map<Object, Long> masterArrays;
    private final ConcurrentHashMap<Long, Copy> copies;
    private final CopyTable arrayCopies;
    /**
     * How many entries (fields and elements) the twins of this node may hold for the run. Every flush compares them
     * all, so a program that publishes a new object at every release would make each release slower than the last;
     * past this budget an original that leaves in a write-back keeps this node as its home, as other escapes do.
     */
    static final int TWIN_BUDGET = 16_384;
    /** Copies that were this node's originals until it published them to another home: every flush compares them. */
    private final Set<Copy> twinned = ConcurrentHashMap.newKeySet();
    /** Entries of the copies named for publication so far (twinned, or in the window): under the flush lock. */
    private int twinEntries;
    /** Objects and arrays a flush is publishing, by identity, until their home acknowledged (registry lock). */
    private final Map<Object, Long> publishing = new IdentityHashMap<>();
    /** How many: written under the registry lock, read without it to skip the lock when there are none. */
    private volatile int inWindow;
    private final AtomicLong named = new AtomicLong();

    Publisher(ObjectSpace space, int self, Object registry, Map<Object, Long> masterArrays,
              ConcurrentHashMap<Long, Copy> copies, CopyTable arrayCopies) {
        this.space = space;
        this.self = self;
        this.registry = registry;
        this.masterArrays = masterArrays;
        this.copies = copies;
        this.arrayCopies = arrayCopies;
    }

    /**
     * The cluster-wide id of {@code v} as a write-back to {@code p}'s home refers to it: an object or small array of
     * this node that never left it is published there (homed there from now on, its image in the same write-back);
     * anything else as {@link ObjectSpace#idOf(Object)}.
     */
    long idOf(Object v, Publication p) {
        if (p.home == self || v.getClass() == Object.class
                || v.getClass().isArray() && (Array.getLength(v) > Copy.BLOCK || arrayCopies.get(v) != null)) {
            return space.idOf(v);
        }
        ClassLayout layout = v instanceof SharedObject ? ClassLayout.of(v.getClass()) : null;
        int entries = layout != null ? layout.size() : Array.getLength(v);
        if (twinEntries + entries > TWIN_BUDGET) {
            return space.idOf(v);
        }
        if (layout != null) {
            long id = (long) layout.id.getVolatile(v);
            if (id != 0) {
                return id;
            }
        }
        synchronized (registry) {
            if (layout != null) {
                long id = (long) layout.id.getVolatile(v);
                if (id != 0) {
                    return id;
                }
            } else {
                Long id = masterArrays.get(v);
                if (id == null) {
                    id = publishing.get(v);
                }
                if (id != null) {
                    return id;
                }
            }
            long id = ObjectIds.named(p.home, self, named.incrementAndGet());
            Copy c = layout != null ? new Copy(Copy.Kind.OBJECT, id, v, layout, p.home, layout.size())
                : new Copy(Copy.Kind.ARRAY, id, v, null, p.home, Array.getLength(v));
            copies.put(id, c);
            if (layout != null) {
                layout.id.setVolatile(v, id);
            }
            publishing.put(v, id);
            inWindow++;
            twinEntries += entries;
            p.add(c);
            return id;
        }
    }

    /** The id of {@code v} if a flush is publishing it right then, else {@code null}. Holds the registry lock. */
    Long publishingId(Object v) {
        return publishing.get(v);
    }

    /** Whether a flush is publishing {@code v} right then (named, its home's acknowledgement not yet in). */
    boolean inWindow(Object v) {
        if (inWindow == 0) {
            return false;
        }
        synchronized (registry) {
            return publishing.containsKey(v);
        }
    }

    /**
     * {@code p}'s home acknowledged the write-back that carried its published originals: each becomes this node's copy,
     * filled as of the epoch before the write-back was sent, with a twin of the values sent (a woven access that still
     * takes it for an original writes it without a dirty bit: every flush compares it with the twin).
     */
    void adopted(Publication p) {
        for (int k = 0; k < p.copies.size(); k++) {
            Copy c = p.copies.get(k);
            c.lock.lock();
            try {
                c.twin(p.values.get(k));
                c.setState(Epochs.filledIn(p.epoch));
            } finally {
                c.lock.unlock();
            }
            twinned.add(c);
            if (c.kind == Copy.Kind.ARRAY) {
                arrayCopies.add(c);
                SingleVmHooks.remoteArrays = true;
            }
            synchronized (registry) {
                publishing.remove(c.target);
                inWindow--;
            }
        }
    }

    /** Whether this node has adopted any copy (every flush then compares them with their twins). */
    boolean anyTwinned() {
        return !twinned.isEmpty();
    }

    /**
     * Marks dirty every entry of every adopted copy that differs from its twin: a write of a woven access that took
     * the copy for an original, which set no dirty bit.
     */
    void markTwinDifferences() {
        for (Copy c : twinned) {
            c.lock.lock();
            try {
                c.forEachTwinDifference(i -> space.markDirty(c, i));
            } finally {
                c.lock.unlock();
            }
        }
    }
}
