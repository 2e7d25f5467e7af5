package dev.cumulus.internal.singlevm;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fetch brings the small arrays the fetched array refers to ({@link FetchReply}): node 1 fills its copy of node 0's
 * {@code int[][]} and finds every row filled by the same answer, except a row too large to travel whole and a row
 * whose entries a write-back of node 1 made clean (that one is fetched on its own, and keeps node 1's write).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ReferredFetchTest {
    private static final int LARGE = Copy.BLOCK + 1;

    @Test
    void oneFetchFillsTheRowsOfATable() {
        onTwoNodes((space, cluster) -> {
            int[][] master = {{1, 2}, {3, 4, 5}, new int[LARGE]};
            master[2][LARGE - 1] = 6;
            long id = Heaps.share(cluster, 0, 0, () -> space.idOf(master));
            if (cluster.nodeId() == 1) {
                int[][] copy = (int[][]) space.resolve(id, int[][].class.getName() + "/3");
                space.fill(space.arrayCopy(copy), "[]");
                for (int r = 0; r < 2; r++) {
                    Copy row = space.arrayCopy(copy[r]);
                    assertTrue(Epochs.validHere(row.arrayState), "row " + r + " came with the table");
                    assertArrayEquals(master[r], copy[r]);
                }
                Copy large = space.arrayCopy(copy[2]);
                assertTrue(large.blocked());
                assertEquals(Epochs.NEVER_FILLED, large.blockStates.get(0), "a large row is fetched in blocks");
                space.fillRange(large, LARGE - 1, 1);
                assertEquals(6, copy[2][LARGE - 1], "its block is fetched when read");
            }
            cluster.barrier();
        });
    }

    @Test
    void aRowAWriteBackMadeCleanIsLeftForAFetchOfItsOwn() {
        onTwoNodes((space, cluster) -> {
            int[][] master = {{1, 2}, {3, 4}};
            long id = Heaps.share(cluster, 0, 0, () -> space.idOf(master));
            if (cluster.nodeId() == 1) {
                int[][] copy = (int[][]) space.resolve(id, int[][].class.getName() + "/2");
                Copy table = space.arrayCopy(copy);
                space.fill(table, "[]");
                SingleVmHooks.storeInt(copy[0], 1, 20, null);
                space.flush(); // element 1 of row 0 is clean again: a referred image may no longer fill row 0
                space.invalidate();
                space.fill(table, "[]");
                Copy row0 = space.arrayCopy(copy[0]);
                Copy row1 = space.arrayCopy(copy[1]);
                assertFalse(Epochs.validHere(row0.arrayState), "row 0 waits for a fetch of its own");
                assertTrue(Epochs.validHere(row1.arrayState), "row 1 came with the table again");
                space.fillRange(row0, 0, 2);
                assertArrayEquals(new int[] {1, 20}, copy[0]);
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                assertEquals(20, master[0][1]);
            }
        });
    }

    private interface NodeBody {
        void run(ObjectSpace space, dev.cumulus.Cluster cluster);
    }

    private static void onTwoNodes(NodeBody body) {
        LocalCluster.run(2, cluster -> {
            ObjectSpace space = new ObjectSpace(Heaps.of(cluster), ReferredFetchTest.class.getClassLoader());
            space.bind();
            try {
                body.run(space, cluster);
                cluster.barrier();
            } finally {
                space.close();
            }
        });
    }
}
