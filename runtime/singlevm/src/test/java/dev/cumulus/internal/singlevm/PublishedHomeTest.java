package dev.cumulus.internal.singlevm;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An array that first leaves its node in a write-back is homed where it is published (docs/design/SINGLEVM.md,
 * "Homed where first published"): node 1 makes an array and writes it into an array homed on node 0 (a pool); the
 * release that writes it back hands it to node 0, which keeps its master, and node 1's original becomes its copy.
 * The steps run one after the other across the nodes, with barriers between them.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PublishedHomeTest {
    @Test
    void aWriteThroughAnAccessSiteThatTookThePublishedArrayForAnOriginalStillReachesItsNewHome() {
        long[] ids = new long[1];
        LocalCluster.run(2, cluster -> {
            ObjectSpace space = new ObjectSpace(Heaps.of(cluster), PublishedHomeTest.class.getClassLoader());
            space.bind();
            try {
                Object[] pool = new Object[4];
                long poolId = Heaps.share(cluster, 0, 0, () -> space.idOf(pool));
                if (cluster.nodeId() == 1) {
                    Object[] copy = (Object[]) space.resolve(poolId, Object[].class.getName() + "/4");
                    int[] state = new int[3];
                    Object known = SingleVmHooks.storeInt(state, 0, 1, null);
                    assertSame(state, known, "an original of this node: the site remembers it");
                    SingleVmHooks.storeRef(copy, 0, state, null);
                    space.flush(); // the release that publishes it (monitor exit)
                    long id = space.idOf(state);
                    assertEquals(0, ObjectIds.home(id), "homed where it was published");
                    assertNotNull(space.arrayCopy(state), "node 1's original is now its copy");
                    ids[0] = id;
                    // the same site again after a re-lock: it still takes the array for an original, stores plainly
                    SingleVmHooks.storeInt(state, 0, 2, known);
                    SingleVmHooks.storeInt(state, 2, 5, null); // a site that checks marks the element dirty
                    space.flush(); // the next release
                }
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    int[] master = (int[]) space.resolve(ids[0], int[].class.getName() + "/3");
                    assertSame(master, pool[0], "the pool holds node 0's own master");
                    assertNull(space.arrayCopy(master), "node 0 holds no copy of it");
                    assertEquals(2, master[0], "the write of the site that took it for an original arrived");
                    assertEquals(5, master[2]);
                }
                cluster.barrier();
            } finally {
                space.close();
            }
        });
    }

    @Test
    void thePublisherReadsTheNewHomesWritesAfterAnAcquireAndKeepsItsOwnNewerOnes() {
        long[] ids = new long[1];
        LocalCluster.run(2, cluster -> {
            ObjectSpace space = new ObjectSpace(Heaps.of(cluster), PublishedHomeTest.class.getClassLoader());
            space.bind();
            try {
                Object[] pool = new Object[4];
                long poolId = Heaps.share(cluster, 0, 0, () -> space.idOf(pool));
                int[] state = new int[3];
                if (cluster.nodeId() == 1) {
                    Object[] copy = (Object[]) space.resolve(poolId, Object[].class.getName() + "/4");
                    state[1] = 10;
                    SingleVmHooks.storeRef(copy, 1, state, null);
                    space.flush();
                    ids[0] = space.idOf(state);
                }
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    int[] master = (int[]) pool[1];
                    assertEquals(10, master[1], "the publishing write-back carried the contents");
                    master[0] = 42; // node 0 writes its master in place
                }
                cluster.barrier();
                if (cluster.nodeId() == 1) {
                    state[2] = 7; // a plain store (an access site that took it for an original) before the acquire
                    space.invalidate(); // an acquire
                    SingleVmHooks.arrayRead(state, 0, null);
                    assertEquals(42, state[0], "the acquire made the copy stale: node 0's write is fetched");
                    assertEquals(7, state[2], "a fill keeps this node's write that the twin tells from the home's");
                    space.flush();
                }
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    assertEquals(7, ((int[]) pool[1])[2]);
                    assertTrue(ObjectIds.namedElsewhere(ids[0]));
                }
                cluster.barrier();
            } finally {
                space.close();
            }
        });
    }

    /**
     * Every flush compares every twin, so the twins' entries are bounded: once arrays published from node 1 fill
     * {@link Publisher#TWIN_BUDGET}, the next array that leaves in a write-back keeps node 1 as its home, stays its
     * original (no copy, no twin), and node 0 still reads it through the pool.
     */
    @Test
    void pastTheTwinBudgetAnArrayThatLeavesInAWriteBackKeepsItsCreatorAsHome() {
        int length = 1024;
        int published = Publisher.TWIN_BUDGET / length;
        long[] ids = new long[1];
        LocalCluster.run(2, cluster -> {
            ObjectSpace space = new ObjectSpace(Heaps.of(cluster), PublishedHomeTest.class.getClassLoader());
            space.bind();
            try {
                Object[] pool = new Object[published + 1];
                long poolId = Heaps.share(cluster, 0, 0, () -> space.idOf(pool));
                if (cluster.nodeId() == 1) {
                    Object[] copy = (Object[]) space.resolve(poolId, Object[].class.getName() + "/" + pool.length);
                    for (int k = 0; k < published; k++) {
                        SingleVmHooks.storeRef(copy, k, new long[length], null);
                        space.flush();
                        assertEquals(0, ObjectIds.home(space.idOf(copy[k])), "array " + k + " within the budget");
                    }
                    long[] past = new long[length];
                    past[7] = 77;
                    SingleVmHooks.storeRef(copy, published, past, null);
                    space.flush();
                    ids[0] = space.idOf(past);
                    assertEquals(1, ObjectIds.home(ids[0]), "past the budget the creator stays its home");
                    assertNull(space.arrayCopy(past), "and its original stays one");
                }
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    long[] fetched = (long[]) pool[published];
                    assertNotNull(space.arrayCopy(fetched), "node 0 holds a copy of node 1's array");
                    SingleVmHooks.arrayRead(fetched, 7, null);
                    assertEquals(77, fetched[7]);
                }
                cluster.barrier();
            } finally {
                space.close();
            }
        });
    }
}
