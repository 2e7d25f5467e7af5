package dev.cumulus.internal.singlevm;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Java-memory-model litmus tests across the nodes of a local cluster, over the shared heap's API as the woven code
 * will call it. Data, flags and monitors are homed on different nodes, and readers keep stale copies cached, so a
 * missing invalidation or an early release would show.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JmmLitmusTest {
    private static final int ROUNDS = 300;

    /**
     * Message passing through a monitor: the writer writes the data (plain, homed on node 0) and then, under the
     * monitor (homed on node 2), the flag; a reader that sees the flag under the monitor sees the data.
     */
    @Test
    void messagePassingThroughAMonitor() {
        LocalCluster.run(3, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long data = Heaps.share(cluster, 0, 0, () -> heap.allocate(2));
            long box = Heaps.share(cluster, 1, 2, () -> heap.allocate(1));
            switch (cluster.nodeId()) {
                case 1 -> {
                    for (int i = 1; i <= ROUNDS; i++) {
                        heap.putLong(data, 0, i);
                        heap.putLong(data, 1, -i);
                        heap.monitorEnter(box);
                        heap.putLong(box, 0, i);
                        heap.notifyAll(box);
                        heap.monitorExit(box);
                    }
                }
                case 2 -> {
                    long seen = 0;
                    while (seen < ROUNDS) {
                        heap.monitorEnter(box);
                        while (heap.getLong(box, 0) == seen) {
                            heap.await(box);
                        }
                        seen = heap.getLong(box, 0);
                        heap.monitorExit(box);
                        long d0 = heap.getLong(data, 0);
                        long d1 = heap.getLong(data, 1);
                        if (d0 < seen || -d1 < seen) {
                            fail("saw flag " + seen + " under the monitor but data " + d0 + ", " + d1);
                        }
                    }
                }
                default -> {
                }
            }
            cluster.barrier();
        });
    }

    /**
     * Message passing through a volatile: the writer writes the data (plain, cached, homed on node 0) and then the
     * volatile flag (homed on node 2); a reader that sees the flag sees the data.
     */
    @Test
    void messagePassingThroughAVolatile() {
        LocalCluster.run(3, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long data = Heaps.share(cluster, 0, 0, () -> heap.allocate(1));
            long flag = Heaps.share(cluster, 1, 2, () -> heap.allocate(1));
            switch (cluster.nodeId()) {
                case 1 -> {
                    for (int i = 1; i <= ROUNDS; i++) {
                        heap.putLong(data, 0, i);
                        heap.putVolatile(flag, 0, i);
                    }
                }
                case 2 -> {
                    long seen = 0;
                    long stale = heap.getLong(data, 0); // cached before any flag is seen
                    assertTrue(stale >= 0);
                    while (seen < ROUNDS) {
                        long f = heap.getVolatile(flag, 0);
                        long d = heap.getLong(data, 0);
                        if (d < f) {
                            fail("saw volatile flag " + f + " but data " + d);
                        }
                        seen = f;
                        Thread.onSpinWait();
                    }
                }
                default -> {
                }
            }
            cluster.barrier();
        });
    }

    /**
     * Store buffering with volatiles: x = 1; r1 = y on one node, y = 1; r2 = x on another, each round on fresh
     * variables homed one on each writer's node; r1 == r2 == 0 is forbidden (volatiles are sequentially consistent).
     */
    @Test
    void storeBufferingWithVolatilesNeverSeesBothZero() {
        LocalCluster.run(3, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long xs = Heaps.share(cluster, 0, 1, () -> heap.allocateArray(ROUNDS));
            long ys = Heaps.share(cluster, 1, 2, () -> heap.allocateArray(ROUNDS));
            long seen = Heaps.share(cluster, 2, 0, () -> heap.allocateArray(2 * ROUNDS));
            int me = cluster.nodeId();
            for (int i = 0; i < ROUNDS; i++) {
                cluster.barrier();
                if (me == 1) {
                    heap.putVolatile(xs, i, 1);
                    heap.putLong(seen, 2 * i, heap.getVolatile(ys, i));
                } else if (me == 2) {
                    heap.putVolatile(ys, i, 1);
                    heap.putLong(seen, 2 * i + 1, heap.getVolatile(xs, i));
                }
            }
            heap.release();
            cluster.barrier();
            if (me == 0) {
                heap.acquire();
                int[] outcomes = new int[4];
                for (int i = 0; i < ROUNDS; i++) {
                    long r1 = heap.getLong(seen, 2 * i);
                    long r2 = heap.getLong(seen, 2 * i + 1);
                    outcomes[(int) (r1 * 2 + r2)]++;
                }
                assertEquals(0, outcomes[0], "r1 == r2 == 0 appeared; outcomes (00, 01, 10, 11): "
                    + java.util.Arrays.toString(outcomes));
            }
            cluster.barrier();
        });
    }

    /**
     * IRIW with volatiles: x = 1 on node 0, y = 1 on node 1; node 2 reads x then y, node 3 reads y then x, each round
     * on fresh variables (x homed on node 0, y on node 1). The readers must not disagree on the order of the writes:
     * (1, 0) on node 2 together with (1, 0) on node 3 is forbidden.
     */
    @Test
    void independentReadsOfIndependentWritesAgreeOnTheirOrder() {
        int rounds = ROUNDS / 2;
        LocalCluster.run(4, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long xs = Heaps.share(cluster, 0, 0, () -> heap.allocateArray(rounds));
            long ys = Heaps.share(cluster, 1, 1, () -> heap.allocateArray(rounds));
            long seen = Heaps.share(cluster, 2, 2, () -> heap.allocateArray(4 * rounds));
            int me = cluster.nodeId();
            for (int i = 0; i < rounds; i++) {
                cluster.barrier();
                switch (me) {
                    case 0 -> heap.putVolatile(xs, i, 1);
                    case 1 -> heap.putVolatile(ys, i, 1);
                    case 2 -> {
                        heap.putLong(seen, 4 * i, heap.getVolatile(xs, i));
                        heap.putLong(seen, 4 * i + 1, heap.getVolatile(ys, i));
                    }
                    default -> {
                        heap.putLong(seen, 4 * i + 2, heap.getVolatile(ys, i));
                        heap.putLong(seen, 4 * i + 3, heap.getVolatile(xs, i));
                    }
                }
            }
            heap.release();
            cluster.barrier();
            if (me == 0) {
                heap.acquire();
                for (int i = 0; i < rounds; i++) {
                    long x1 = heap.getLong(seen, 4 * i);
                    long y1 = heap.getLong(seen, 4 * i + 1);
                    long y2 = heap.getLong(seen, 4 * i + 2);
                    long x2 = heap.getLong(seen, 4 * i + 3);
                    assertTrue(!(x1 == 1 && y1 == 0 && y2 == 1 && x2 == 0), "round " + i + ": node 2 saw x before y, "
                        + "node 3 saw y before x");
                }
            }
            cluster.barrier();
        });
    }
}
