package dev.cumulus.internal.singlevm;

/**
 * Written entries of this node's copies on their way to one home, in {@code writeObjects}' form: {@code ids[k]} is an
 * object id (or {@code 0} for a class's statics), entry {@code j} of {@code images[k]} is its entry
 * {@code offsets[k] + j}; only present entries were written.
 */
record Writes(long[] ids, int[] offsets, ObjectImage[] images) {
    /** No writes. */
    static final Writes NONE = new Writes(new long[0], new int[0], new ObjectImage[0]);

    boolean isEmpty() {
        return ids.length == 0;
    }
}
