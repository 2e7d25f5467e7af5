package dev.cumulus.internal.singlevm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fill and a write-back of the same copy in flight together: a fetch the home answered before this node's
 * write-back reached it must not be stored over the written entries once the write-back made them clean (a thread's
 * own write would be lost). The steps run in the order of that race, one after the other, on node 1; the arrays are
 * homed on node 0. The fetch is sent after the write and answered before the flush (another thread's release) sends
 * it, so the home's answer holds the old element.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class FillAfterWriteBackTest {
    private static final int LARGE = 3 * Copy.BLOCK;

    @Test
    void aFetchAnsweredBeforeAWriteBackLandedIsNotStoredOverTheWrittenElement() {
        Heaps.onTwoNodes((space, cluster) -> {
            Object[] master = new Object[16];
            long id = Heaps.share(cluster, 0, 0, () -> space.idOf(master));
            if (cluster.nodeId() == 1) {
                Object[] copy = (Object[]) space.resolve(id, Object[].class.getName() + "/16");
                Copy c = space.arrayCopy(copy);
                SingleVmHooks.storeRef(copy, 3, "written on node 1", null);
                ObjectSpace.Fetched early = space.fetchWhole(c, "[]"); // the home does not hold the write yet
                space.flush(); // another thread's release: the write reaches the home, element 3 is clean
                boolean stored = space.apply(c, early);
                assertEquals("written on node 1", copy[3], "the thread's own write is still there");
                assertFalse(stored, "a fetch answered before the write-back landed is not stored");
                space.fillRange(c, 3, 1);
                assertEquals("written on node 1", copy[3]);
                assertTrue(Epochs.validHere(c.arrayState), "the fill sent after the write-back is stored");
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                assertEquals("written on node 1", master[3]);
            }
        });
    }

    @Test
    void aBlockFetchedBeforeAWriteBackLandedIsNotStoredOverTheWrittenElement() {
        Heaps.onTwoNodes((space, cluster) -> {
            long[] master = new long[LARGE];
            long id = Heaps.share(cluster, 0, 0, () -> space.idOf(master));
            if (cluster.nodeId() == 1) {
                long[] copy = (long[]) space.resolve(id, long[].class.getName() + "/" + LARGE);
                Copy c = space.arrayCopy(copy);
                int i = Copy.BLOCK + 5;
                SingleVmHooks.storeLong(copy, i, 42, null);
                ObjectSpace.Fetched early = space.fetchBlock(c, 1);
                space.flush();
                boolean stored = space.applyBlock(c, 1, early);
                assertEquals(42, copy[i], "the thread's own write is still there");
                assertFalse(stored, "a block answered before the write-back landed is not stored");
                space.fillRange(c, i, 1);
                assertEquals(42, copy[i]);
                assertTrue(Epochs.validHere(c.blockStates.get(1)), "the fill sent after the write-back is stored");
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                assertEquals(42, master[Copy.BLOCK + 5]);
            }
        });
    }
}
