package dev.cumulus.internal.singlevm;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What the node cache fetches and keeps: blocks of large arrays, final slots across invalidations, bounds, null. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class CachingTest {

    /** A large array is fetched a block at a time; a write under a monitor reaches its home. */
    @Test
    void largeArraysAreFetchedInBlocks() {
        int length = 4_000_000;
        LocalCluster.run(2, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long array = Heaps.share(cluster, 0, 0, () -> {
                long a = heap.allocateArray(length);
                heap.putLong(a, length - 1, 42);
                heap.putDouble(a, 3, 2.5);
                return a;
            });
            if (cluster.nodeId() == 1) {
                long before = heap.fetches();
                assertEquals(length, heap.length(array));
                assertEquals(1, heap.fetches() - before, "the length comes with the first block");
                assertEquals(0, heap.getLong(array, 1));
                assertEquals(1, heap.fetches() - before, "the first block is cached");
                assertEquals(42, heap.getLong(array, length - 1));
                assertEquals(2.5, heap.getDouble(array, 3));
                assertEquals(0, heap.getLong(array, 4));
                assertEquals(2, heap.fetches() - before, "two blocks, each fetched once");
                heap.monitorEnter(array);
                heap.putLong(array, length / 2, 9);
                heap.monitorExit(array);
                assertThrows(ArrayIndexOutOfBoundsException.class, () -> heap.getLong(array, length));
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                heap.monitorEnter(array);
                assertEquals(9, heap.getLong(array, length / 2));
                heap.monitorExit(array);
            }
            cluster.barrier();
        });
    }

    /** Final slots stay cached across an acquire; the others are fetched again. */
    @Test
    void finalSlotsStayCachedAcrossInvalidations() {
        LocalCluster.run(2, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long point = Heaps.share(cluster, 0, 0, () -> {
                long p = heap.allocate(2, 0);
                heap.putLong(p, 0, 11);
                heap.putLong(p, 1, 12);
                return p;
            });
            if (cluster.nodeId() == 1) {
                assertEquals(11, heap.getLong(point, 0));
                long fetched = heap.fetches();
                heap.acquire();
                assertEquals(11, heap.getLong(point, 0));
                assertEquals(fetched, heap.fetches(), "a final slot is read from the cache after an acquire");
                assertEquals(12, heap.getLong(point, 1));
                assertEquals(fetched + 1, heap.fetches(), "a plain slot is fetched again after an acquire");
                assertThrows(NullPointerException.class, () -> heap.getLong(0, 0));
            }
            cluster.barrier();
        });
    }

    /** A node's own unreleased write stays readable here across an invalidation and reaches the home later. */
    @Test
    void dirtySlotsSurviveInvalidation() {
        LocalCluster.run(2, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long cell = Heaps.share(cluster, 0, 0, () -> heap.allocate(2));
            if (cluster.nodeId() == 1) {
                heap.putLong(cell, 0, 5);
                heap.acquire();
                assertEquals(5, heap.getLong(cell, 0));
                assertEquals(0, heap.getLong(cell, 1));
                heap.release();
            }
            cluster.barrier();
            heap.acquire();
            assertEquals(5, heap.getLong(cell, 0));
            cluster.barrier();
        });
    }
}
