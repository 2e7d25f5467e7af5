package dev.cumulus.internal.singlevm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongFunction;
import java.util.function.LongToIntFunction;

/**
 * The home side's walk for a {@link FetchReply}: from the fetched object's image, breadth first, the objects and
 * arrays it refers to that this node homes, up to {@link #MAX_DEPTH} references away, each no longer than
 * {@link Copy#BLOCK} entries (a large array is fetched a block at a time, never whole), until {@link #MAX_ENTRIES}
 * entries are sent in all. Only the images of masters: other homes' objects and statics are fetched as before.
 */
final class Referred {
    /** References followed from the fetched object: its rows (depth 1) and what they refer to (depth 2). */
    static final int MAX_DEPTH = 2;
    /** Entries (fields and elements) of referred objects one reply carries at most. */
    static final int MAX_ENTRIES = 1024;

    private Referred() {
    }

    /**
     * The reply for {@code image} of object {@code id}: {@code imageOf} gives the image of a master homed here, or
     * {@code null} for one not to send (a plain object, a large array); {@code lengthOf} its entry count without
     * encoding it ({@code -1}: not to send).
     */
    static FetchReply walk(long id, ObjectImage image, int self, LongToIntFunction lengthOf,
                           LongFunction<ObjectImage> imageOf) {
        List<Long> ids = new ArrayList<>();
        List<ObjectImage> images = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        seen.add(id);
        ArrayDeque<ObjectImage> level = new ArrayDeque<>();
        level.add(image);
        int budget = MAX_ENTRIES;
        for (int depth = 1; depth <= MAX_DEPTH && !level.isEmpty(); depth++) {
            ArrayDeque<ObjectImage> next = new ArrayDeque<>();
            for (ObjectImage from : level) {
                for (int i = 0; i < from.length(); i++) {
                    if (from.kinds()[i] != ImageCodec.REF) {
                        continue;
                    }
                    long ref = from.bits()[i];
                    if (ObjectIds.home(ref) != self || !seen.add(ref)) {
                        continue;
                    }
                    int length = lengthOf.applyAsInt(ref);
                    if (length < 0 || length > budget) {
                        continue;
                    }
                    ObjectImage referred = imageOf.apply(ref);
                    budget -= referred.length();
                    ids.add(ref);
                    images.add(referred);
                    next.add(referred);
                }
            }
            level = next;
        }
        long[] idArray = new long[ids.size()];
        for (int k = 0; k < idArray.length; k++) {
            idArray[k] = ids.get(k);
        }
        return new FetchReply(image, idArray, images.toArray(new ObjectImage[0]));
    }
}
