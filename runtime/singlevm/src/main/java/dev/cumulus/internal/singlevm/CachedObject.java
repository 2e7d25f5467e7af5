package dev.cumulus.internal.singlevm;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A node's cached copy of a shared object homed elsewhere: its length, its final slots, and its blocks, each made
 * when first read or written here (a large array is never copied whole).
 */
final class CachedObject {
    final long id;
    final int length;
    private final long[] finals;
    private final int blockSlots;
    private final AtomicReferenceArray<CachedBlock> blocks;

    CachedObject(long id, int length, long[] finals, int blockSlots) {
        this.id = id;
        this.length = length;
        this.finals = finals;
        this.blockSlots = blockSlots;
        this.blocks = new AtomicReferenceArray<>(length == 0 ? 0 : (length - 1) / blockSlots + 1);
    }

    boolean isFinal(int slot) {
        int w = slot >>> 6;
        return w < finals.length && (finals[w] & (1L << slot)) != 0;
    }

    /** The block holding {@code slot}, or {@code null} if this node has not touched it. */
    CachedBlock blockOf(int slot) {
        return blocks.get(slot / blockSlots);
    }

    /** The block holding {@code slot}, made empty (never filled) if this node has not touched it. */
    CachedBlock blockFor(int slot) {
        int b = slot / blockSlots;
        CachedBlock block = blocks.get(b);
        if (block != null) {
            return block;
        }
        int first = b * blockSlots;
        CachedBlock made = new CachedBlock(id, first, Math.min(blockSlots, length - first));
        return blocks.compareAndExchange(b, null, made) == null ? made : blocks.get(b);
    }

    void checkIndex(int slot) {
        if (slot < 0 || slot >= length) {
            throw new ArrayIndexOutOfBoundsException("Index " + slot + " out of bounds for length " + length
                + " (shared object " + ObjectIds.describe(id) + ")");
        }
    }
}
