package dev.cumulus.internal.singlevm;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One block of a node's cached copy of a shared object: the slots' values, a dirty bitmap (one bit per slot, set by
 * a write here until its home acknowledged the value) and the epoch of the fetch that filled it. The block is valid
 * while that epoch is the node's current one; an invalidation starts a new epoch, so it costs nothing per block.
 * Dirty slots stay readable across invalidations (they hold this node's newest write, not yet at the home), and
 * final slots stay readable once fetched.
 *
 * <p>Reads take no lock: a writer stores the value before it publishes the dirty bit or the epoch (both volatile),
 * so a reader that sees either sees the value. Writes, fills and write-back snapshots hold the block's lock.
 */
final class CachedBlock {
    final long objectId;
    /** The object's slot number of this block's first slot. */
    final int first;
    private final long[] values;
    private final AtomicLongArray dirty;
    private volatile long epoch;
    private boolean queued;
    /**
     * How many slots a write-back made clean so far: a fill whose fetch was sent before one of those write-backs
     * reached the home may hold the slots' older values, so it stores nothing ({@link #fill}).
     */
    private int cleanings;

    CachedBlock(long objectId, int first, int length) {
        this.objectId = objectId;
        this.first = first;
        this.values = new long[length];
        this.dirty = new AtomicLongArray((length + 63) >>> 6);
    }

    /** Whether slot {@code i} of this block may be read here in epoch {@code current}. */
    boolean readable(int i, long current, boolean isFinal) {
        long e = epoch;
        return e == current || (isFinal && e != 0) || isDirty(i);
    }

    long value(int i) {
        return values[i];
    }

    boolean isDirty(int i) {
        return (dirty.get(i >>> 6) & (1L << i)) != 0;
    }

    /** How many slots a write-back made clean so far: read before a fetch of this block is sent. */
    synchronized int cleanings() {
        return cleanings;
    }

    /**
     * Fills the block with a fetch's values, but not the dirty slots; a fill requested before the block's last fill
     * (an older epoch) is dropped. Returns the value of slot {@code i} as this node sees it now, or nothing, storing
     * nothing, if a write-back made slots clean since the fetch was sent (its {@link #cleanings} were
     * {@code cleaningsBefore}): the home may have answered before that write-back reached it, so its values could be
     * older than this node's own writes; the caller fetches again.
     */
    synchronized OptionalLong fill(long requestEpoch, long[] fetched, int i, int cleaningsBefore) {
        if (cleanings != cleaningsBefore) {
            return OptionalLong.empty();
        }
        if (requestEpoch >= epoch) {
            for (int k = 0; k < fetched.length; k++) {
                if (!isDirty(k)) {
                    values[k] = fetched[k];
                }
            }
            epoch = requestEpoch;
        }
        return OptionalLong.of(isDirty(i) ? values[i] : fetched[i]);
    }

    /** Writes slot {@code i} here; returns true if the block must be queued for the next write-back. */
    synchronized boolean put(int i, long value) {
        values[i] = value;
        dirty.set(i >>> 6, dirty.get(i >>> 6) | (1L << i));
        if (queued) {
            return false;
        }
        queued = true;
        return true;
    }

    /**
     * Takes this block off the write-back queue and returns its dirty slots as a run {@code id, count, (slot,
     * value) x count} (slot numbers of the object), or {@code null} if none is dirty. The bits stay set until
     * {@link #acknowledged}.
     */
    synchronized long[] snapshot() {
        queued = false;
        int count = 0;
        for (int w = 0; w < dirty.length(); w++) {
            count += Long.bitCount(dirty.get(w));
        }
        if (count == 0) {
            return null;
        }
        long[] run = new long[2 + 2 * count];
        run[0] = objectId;
        run[1] = count;
        int at = 2;
        for (int w = 0; w < dirty.length(); w++) {
            for (long bits = dirty.get(w); bits != 0; bits &= bits - 1) {
                int i = (w << 6) + Long.numberOfTrailingZeros(bits);
                run[at++] = first + i;
                run[at++] = values[i];
            }
        }
        return run;
    }

    /**
     * The home stored the run {@link #snapshot} gave: a slot whose value is still the one sent is clean now (its home
     * holds it); one written again since stays dirty, and the block is queued again when {@code true} is returned.
     */
    synchronized boolean acknowledged(long[] run) {
        int count = (int) run[1];
        boolean stillDirty = false;
        for (int k = 0, at = 2; k < count; k++, at += 2) {
            int i = (int) run[at] - first;
            if (values[i] == run[at + 1]) {
                dirty.set(i >>> 6, dirty.get(i >>> 6) & ~(1L << i));
                cleanings++;
            } else {
                stillDirty = true;
            }
        }
        if (stillDirty && !queued) {
            queued = true;
            return true;
        }
        return false;
    }
}
