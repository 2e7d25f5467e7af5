package dev.cumulus.internal.singlevm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One node's cache of the shared objects homed on other nodes, shared by all the node's threads (Hyperion §4.3):
 * {@link #get} and {@link #put} through the cache, {@link #invalidate} (Hyperion's {@code invalidateCache}: a new
 * epoch, so every block fetched before it is stale) and {@link #flush} (Hyperion's {@code updateMainMemory}: every
 * dirty slot written back to its home, and the acknowledgements awaited). A miss fetches the block holding the slot
 * ({@code loadIntoCache}).
 *
 * <p>Threads: any of the node's threads. A fetch that an invalidation overtook fills nothing valid (its epoch is
 * old) but still answers the read that asked for it. Flushes run one at a time, so a thread whose dirty slots another
 * thread's flush took waits for that flush's acknowledgements before it goes on.
 */
final class NodeCache {
    /** How a cache reaches the homes of its objects. */
    interface Homes {
        /** Fetches block {@code block} of object {@code id} from its home. */
        Block fetch(long id, int block, int blockSlots);

        /** Writes a run of dirty slots back to {@code home}; returns once the home stored them. */
        void writeBack(int home, long[] updates);
    }

    private final Homes homes;
    private final int blockSlots;
    private final AtomicLong epoch = new AtomicLong(1);
    private final ConcurrentHashMap<Long, CachedObject> objects = new ConcurrentHashMap<>();
    private final Set<CachedBlock> dirty = ConcurrentHashMap.newKeySet();
    private final ReentrantLock flushLock = new ReentrantLock();
    private final LongAdder fetches = new LongAdder();
    private final LongAdder writeBacks = new LongAdder();
    private final LongAdder invalidations = new LongAdder();

    NodeCache(Homes homes, int blockSlots) {
        if (blockSlots < 1) {
            throw new IllegalArgumentException("a cache block needs at least one slot, not " + blockSlots);
        }
        this.homes = homes;
        this.blockSlots = blockSlots;
    }

    /** Slot {@code slot} of object {@code id} as this node sees it. */
    long get(long id, int slot) {
        CachedObject o = objects.get(id);
        if (o != null) {
            o.checkIndex(slot);
            CachedBlock b = o.blockOf(slot);
            if (b != null) {
                int i = slot - b.first;
                if (b.readable(i, epoch.get(), o.isFinal(slot))) {
                    return b.value(i);
                }
            }
        }
        return miss(id, slot);
    }

    /** Writes slot {@code slot} of object {@code id} here; it reaches the home at the next flush. */
    void put(long id, int slot, long value) {
        CachedObject o = objects.get(id);
        if (o == null) {
            miss(id, slot); // Hyperion loads a copy on a write too: it tells the object's length and finals
            o = objects.get(id);
        }
        o.checkIndex(slot);
        CachedBlock b = o.blockFor(slot);
        if (b.put(slot - b.first, value)) {
            dirty.add(b);
        }
    }

    /** The length in slots of object {@code id}. */
    int length(long id) {
        CachedObject o = objects.get(id);
        if (o == null) {
            long requestEpoch = epoch.get();
            Block first = fetch(id, 0);
            o = entry(id, first);
            if (first.values().length > 0) {
                // no block existed before the fetch, so none was cleaned; if one was meanwhile, nothing is stored
                o.blockFor(0).fill(requestEpoch, first.values(), 0, 0);
            }
        }
        return o.length;
    }

    /** Starts a new epoch: every block fetched before is stale (dirty and final slots stay readable). */
    void invalidate() {
        epoch.incrementAndGet();
        invalidations.increment();
    }

    /** Writes every dirty slot of this node back to its home and waits until each home has stored them. */
    void flush() {
        flushLock.lock();
        try {
            if (dirty.isEmpty()) {
                return;
            }
            Map<Integer, List<long[]>> byHome = new HashMap<>();
            List<CachedBlock> blocks = new ArrayList<>();
            List<long[]> runs = new ArrayList<>();
            for (CachedBlock b : dirty) {
                dirty.remove(b);
                long[] run = b.snapshot();
                if (run != null) {
                    blocks.add(b);
                    runs.add(run);
                    byHome.computeIfAbsent(ObjectIds.home(b.objectId), h -> new ArrayList<>()).add(run);
                }
            }
            for (Map.Entry<Integer, List<long[]>> e : byHome.entrySet()) {
                homes.writeBack(e.getKey(), concat(e.getValue()));
                writeBacks.increment();
            }
            for (int k = 0; k < blocks.size(); k++) {
                if (blocks.get(k).acknowledged(runs.get(k))) {
                    dirty.add(blocks.get(k));
                }
            }
        } finally {
            flushLock.unlock();
        }
    }

    /** How many blocks this node fetched, write-backs it sent (one per home per flush), and invalidations. */
    long fetches() {
        return fetches.sum();
    }

    long writeBacks() {
        return writeBacks.sum();
    }

    long invalidations() {
        return invalidations.sum();
    }

    private long miss(long id, int slot) {
        if (slot < 0) {
            throw new ArrayIndexOutOfBoundsException("Index " + slot + " out of bounds (shared object "
                + ObjectIds.describe(id) + ")");
        }
        while (true) {
            CachedObject known = objects.get(id);
            CachedBlock before = known == null || slot >= known.length ? null : known.blockOf(slot);
            int cleanings = before == null ? 0 : before.cleanings();
            long requestEpoch = epoch.get();
            Block fetched = fetch(id, slot / blockSlots);
            CachedObject o = entry(id, fetched);
            o.checkIndex(slot);
            CachedBlock b = o.blockFor(slot);
            OptionalLong v = b.fill(requestEpoch, fetched.values(), slot - b.first, cleanings);
            if (v.isPresent()) {
                return v.getAsLong();
            }
            // a write-back of the block landed while the fetch was out: its answer may predate it, ask again
        }
    }

    /** The cache entry of {@code id}, made from what its first fetch told. */
    private CachedObject entry(long id, Block fetched) {
        return objects.computeIfAbsent(id, k -> new CachedObject(id, fetched.length(), fetched.finals(), blockSlots));
    }

    private Block fetch(long id, int block) {
        fetches.increment();
        return homes.fetch(id, block, blockSlots);
    }

    private static long[] concat(List<long[]> runs) {
        int n = 0;
        for (long[] r : runs) {
            n += r.length;
        }
        long[] all = new long[n];
        int at = 0;
        for (long[] r : runs) {
            System.arraycopy(r, 0, all, at, r.length);
            at += r.length;
        }
        return all;
    }
}
