package dev.cumulus.internal.singlevm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The node cache when a fetch and a write-back of the same block are out together: the home answers the fetch before
 * the write-back reaches it, and the write-back is acknowledged (its slots clean) before the answer is stored. The
 * answer must not be stored over the written slot. A home in this class runs the race in that order on one thread.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class NodeCacheWriteBackRaceTest {
    private static final long ID = ObjectIds.of(1, 1);

    /** One object of eight slots homed on node 1; a fetch can be made to let a flush overtake its answer. */
    private static final class Home implements NodeCache.Homes {
        final long[] slots = new long[8];
        NodeCache cache;
        boolean overtake;

        @Override
        public Block fetch(long id, int block, int blockSlots) {
            Block answer = new Block(slots.length, new long[0], Arrays.copyOf(slots, slots.length));
            if (overtake) {
                overtake = false;
                cache.flush(); // another thread's release: its write-back lands after the home answered
            }
            return answer;
        }

        @Override
        public void writeBack(int home, long[] updates) {
            for (int k = 0, at = 2; k < updates[1]; k++, at += 2) {
                slots[(int) updates[at]] = updates[at + 1];
            }
        }
    }

    @Test
    void anAnswerOlderThanAnAcknowledgedWriteBackIsNotStoredOverTheWrittenSlot() {
        Home home = new Home();
        NodeCache cache = new NodeCache(home, 8);
        home.cache = cache;
        cache.put(ID, 3, 7);
        cache.invalidate(); // an acquire: the block must be fetched again for a slot not written here
        home.overtake = true;
        assertEquals(0, cache.get(ID, 4));
        assertEquals(7, home.slots[3], "the write-back reached the home");
        assertEquals(7, cache.get(ID, 3), "the slot this node wrote keeps its value after the overtaken fetch");
    }
}
