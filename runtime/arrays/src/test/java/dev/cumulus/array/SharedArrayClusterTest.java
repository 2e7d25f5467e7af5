package dev.cumulus.array;

import dev.cumulus.Barrier;
import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.LocalCluster;
import dev.cumulus.NodeFailedException;
import dev.cumulus.SharedDouble;
import dev.cumulus.SharedLong;
import dev.cumulus.internal.array.ArrayRuntime;
import dev.cumulus.internal.cluster.NodeCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Shared arrays, barriers and scalars on an in-process cluster. */
@Timeout(120)
class SharedArrayClusterTest {

    static ArrayRuntime runtime(Cluster cluster) {
        return ((NodeCluster) cluster).capability(ArrayRuntime.class);
    }

    @Test
    void writesBeforeABarrierAreVisibleEverywhereAfterIt() {
        LocalCluster.run(3, cluster -> {
            int me = cluster.nodeId();
            SharedDoubleArray a = cluster.sharedDoubleArray("A", ArrayShape.of(12, 12).blocks(4, 4));
            Barrier stage = cluster.barrier("stage");
            // every node writes its band of rows, whoever the homes are
            for (int i = me * 4; i < me * 4 + 4; i++) {
                for (int j = 0; j < 12; j++) {
                    a.set(i, j, i * 100 + j);
                }
            }
            stage.await();
            for (int i = 0; i < 12; i++) {
                for (int j = 0; j < 12; j++) {
                    assertEquals(i * 100 + j, a.get(i, j), "node " + me + " at (" + i + ", " + j + ")");
                }
            }
            stage.await();
            // second phase: node (me+1) overwrites node me's rows; the copies cached above must not be served
            int victim = (me + 2) % 3;
            for (int i = victim * 4; i < victim * 4 + 4; i++) {
                for (int j = 0; j < 12; j++) {
                    a.set(i, j, -(i * 100 + j));
                }
            }
            stage.await();
            double[] all = a.readBlock(0, 0, 12, 12);
            for (int i = 0; i < 12; i++) {
                for (int j = 0; j < 12; j++) {
                    assertEquals(-(i * 100 + j), all[i * 12 + j], "node " + me + " at (" + i + ", " + j + ")");
                }
            }
        });
    }

    @Test
    void concurrentWritersFromEveryNodeToOnePartitionLoseNothing() {
        LocalCluster.run(3, cluster -> {
            int me = cluster.nodeId();
            SharedLongArray a = cluster.sharedLongArray("one-partition", ArrayShape.of(48).blocks(48));
            Barrier b = cluster.barrier("writers", 2);
            List<Thread> threads = new ArrayList<>();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            for (int t = 0; t < 2; t++) {
                int slot = me * 2 + t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        b.await();
                        for (int k = 0; k < 8; k++) {
                            a.set(slot * 8 + k, slot * 1000L + k); // different elements of the same partition
                        }
                        b.await();
                    } catch (Throwable e) {
                        failed.set(e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            if (failed.get() != null) {
                throw new AssertionError(failed.get());
            }
            for (int slot = 0; slot < 6; slot++) {
                for (int k = 0; k < 8; k++) {
                    assertEquals(slot * 1000L + k, a.get(slot * 8 + k), "slot " + slot + " k " + k);
                }
            }
        });
    }

    @Test
    void ownershipPingPongsBetweenNodesAndCacheStatesFollow() {
        LocalCluster.run(2, cluster -> {
            int me = cluster.nodeId();
            SharedIntArray a = cluster.sharedIntArray("ping", ArrayShape.of(8).blocks(8));
            SharedLong turn = cluster.sharedLong("turn");
            Barrier b = cluster.barrier("ping-barrier");
            int p = a.partitionOf(0);
            assertEquals(0, a.homeOf(p));
            for (int round = 0; round < 20; round++) {
                if (round % 2 == me) {
                    while (turn.get() != round) {
                        Thread.onSpinWait();
                    }
                    a.set(0, a.get(0) + 1);
                    assertEquals(CacheState.EXCLUSIVE, a.cacheState(p));
                    turn.incrementAndGet();
                }
            }
            b.await();
            assertEquals(20, a.get(0));
            b.await();
            // explicit control: acquire, then the other node's copy is invalid
            if (me == 1) {
                a.acquirePartition(p);
                assertEquals(CacheState.EXCLUSIVE, a.cacheState(p));
            }
            b.await();
            if (me == 0) {
                assertEquals(CacheState.INVALID, a.cacheState(p));
                a.requestPartitionCopy(p);
                assertEquals(CacheState.SHARED, a.cacheState(p));
            }
            b.await();
            assertTrue(runtime(cluster).writeMisses("ping") > 0);
        });
    }

    @Test
    void treeBarrierWithSeveralThreadsPerNodeSeparatesPhases() {
        LocalCluster.run(3, cluster -> {
            int me = cluster.nodeId();
            int threadsHere = me + 1; // 1, 2 and 3 threads: any group of threads
            SharedLongArray a = cluster.sharedLongArray("phases", ArrayShape.of(6).blocks(1));
            Barrier b = cluster.barrier("phases", threadsHere);
            SharedLong arrivals = cluster.sharedLong("arrivals");
            List<Thread> threads = new ArrayList<>();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            for (int t = 0; t < threadsHere; t++) {
                int slot = me * (me + 1) / 2 + t; // 0..5
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int phase = 1; phase <= 5; phase++) {
                            a.set(slot, phase);
                            arrivals.incrementAndGet();
                            b.await();
                            assertEquals(6L * phase, arrivals.get(), "every thread arrived before the release");
                            for (int s = 0; s < 6; s++) {
                                assertEquals(phase, a.get(s), "slot " + s + " after phase " + phase);
                            }
                            b.await();
                        }
                    } catch (Throwable e) {
                        failed.compareAndSet(null, e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            if (failed.get() != null) {
                throw new AssertionError(failed.get());
            }
            assertEquals(10, b.generation());
            Barrier local = cluster.localBarrier("here", 2);
            CompletableFuture<Void> other = CompletableFuture.runAsync(local::await);
            local.await();
            other.join();
        });
    }

    @Test
    void aBarrierSomeNodeNeverReachesTimesOutNamingIt() {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        LocalCluster.run(3, cluster -> {
            Barrier b = cluster.barrier("incomplete");
            Barrier done = cluster.barrier("done");
            if (cluster.nodeId() != 2) {
                try {
                    b.await(Duration.ofMillis(400));
                } catch (CumulusException e) {
                    seen.compareAndSet(null, e);
                }
            }
            done.await();
        });
        String message = seen.get().getMessage();
        assertTrue(message.contains("'incomplete'") && message.contains("node 2"), message);
    }

    @Test
    void localThreadsThatNeverArriveAreNamedInTheTimeout() {
        LocalCluster.run(1, cluster -> {
            Barrier b = cluster.barrier("two-threads", 2);
            CumulusException e = assertThrows(CumulusException.class, () -> b.await(Duration.ofMillis(200)));
            assertTrue(e.getMessage().contains("1 of 2 local threads arrived"), e.getMessage());
            assertTrue(e.getMessage().contains(Thread.currentThread().getName()), e.getMessage());
        });
    }

    @Test
    void sharedScalarsAreAtomicAcrossNodes() {
        LocalCluster.run(3, cluster -> {
            SharedLong count = cluster.sharedLong("count");
            SharedDouble sum = cluster.sharedDouble("sum");
            SharedDouble best = cluster.sharedDouble("best");
            Barrier b = cluster.barrier("scalars");
            for (int k = 0; k < 100; k++) {
                count.incrementAndGet();
                sum.addAndGet(0.5);
            }
            best.maxAndGet(cluster.nodeId() * 1.5);
            b.await();
            assertEquals(300, count.get());
            assertEquals(150.0, sum.get());
            assertEquals(3.0, best.get());
            b.await();
            if (cluster.nodeId() == 0) {
                assertTrue(count.compareAndSet(300, 7));
            }
            b.await();
            assertEquals(7, count.get());
            CumulusException e = assertThrows(CumulusException.class, () -> cluster.sharedDouble("count"));
            assertTrue(e.getMessage().contains("'count'") && e.getMessage().contains("SharedLong"), e.getMessage());
        });
    }

    @Test
    void asyncAccessesAndBlocksAndEveryKind() {
        LocalCluster.run(2, cluster -> {
            int me = cluster.nodeId();
            SharedFloatArray f = cluster.sharedFloatArray("f",
                ArrayShape.of(8, 8).blocks(2, 4).distribution(Distribution.BLOCK_CYCLIC));
            SharedIntArray ints = cluster.sharedIntArray("ints", ArrayShape.of(16).blocks(4));
            Barrier b = cluster.barrier("async");
            if (me == 1) {
                List<CompletableFuture<Void>> writes = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    writes.add(f.setAsync(i, i, i + 0.5f));
                }
                ints.writeBlockAsync(0, 0, 1, 16, new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
            }
            b.await(); // covers this node's pending asynchronous writes
            for (int i = 0; i < 8; i++) {
                assertEquals(i + 0.5f, f.getAsync(i, i).join());
            }
            assertArrayEquals(new int[] {4, 5, 6, 7, 8, 9}, ints.readBlockAsync(0, 4, 1, 6).join());
            assertEquals(12, ints.get(12));
            assertEquals(0, f.get(0, 1));
            ArrayLayout layout = f.layout(2);
            assertEquals(me * 4, layout.startingIndexAtThread(0));
            assertEquals(me * 4 + 4, layout.maxIndexAtThread(1));
        });
    }

    @Test
    void aNodeDyingWhileItOwnsPartitionsFailsCallersNamingTheArray() {
        ConcurrentHashMap<Integer, Throwable> seen = new ConcurrentHashMap<>();
        // Node 2 dies only once the others are past the barrier: otherwise its failure may reach them while they
        // still wait in it, and the barrier (not the array) is what fails.
        CountDownLatch othersPastBarrier = new CountDownLatch(2);
        assertThrows(RuntimeException.class, () -> LocalCluster.run(3, cluster -> {
            SharedDoubleArray a = cluster.sharedDoubleArray("doomed", ArrayShape.of(3, 4));
            Barrier b = cluster.barrier("before-death");
            if (cluster.nodeId() == 2) {
                a.acquirePartition(0); // node 2 now owns a partition homed on node 0
            }
            b.await();
            if (cluster.nodeId() == 2) {
                assertTrue(othersPastBarrier.await(30, TimeUnit.SECONDS));
                throw new IllegalStateException("node 2 dies on purpose");
            }
            othersPastBarrier.countDown();
            try {
                while (true) {
                    a.get(2, 0); // partition 2 lives on node 2; later calls fail once the failure is known
                    a.set(0, 0, 1.0);
                    Thread.onSpinWait();
                }
            } catch (Throwable e) {
                seen.put(cluster.nodeId(), e);
                throw e;
            }
        }));
        for (int n = 0; n < 2; n++) {
            Throwable e = seen.get(n);
            assertTrue(e instanceof NodeFailedException, String.valueOf(e));
            assertTrue(e.getMessage().contains("'doomed'") && e.getMessage().contains("node 2"), e.getMessage());
        }
    }

    @Test
    void aNodeThatOnlyHitsItsCopiesLearnsOfAFailureToo() {
        ConcurrentHashMap<Integer, Throwable> seen = new ConcurrentHashMap<>();
        CountDownLatch othersOnlyHit = new CountDownLatch(2);
        assertThrows(RuntimeException.class, () -> LocalCluster.run(3, cluster -> {
            int me = cluster.nodeId();
            SharedDoubleArray a = cluster.sharedDoubleArray("cached", ArrayShape.of(3, 4));
            cluster.barrier("cached-ready").await();
            if (me == 2) {
                assertTrue(othersOnlyHit.await(30, TimeUnit.SECONDS));
                throw new IllegalStateException("node 2 dies on purpose");
            }
            try {
                // a shared copy of node 2's partition and our own partition exclusive: from here on, only hits
                a.get(2, 0);
                a.set(me, 0, 1.0);
                othersOnlyHit.countDown();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (System.nanoTime() < deadline) {
                    a.get(2, 0);
                    a.set(me, 0, 1.0);
                    Thread.onSpinWait();
                }
            } catch (Throwable e) {
                seen.put(me, e);
                throw e;
            }
            throw new AssertionError("node " + me + ": hits on its copies kept succeeding 30 s after node 2 died");
        }));
        for (int n = 0; n < 2; n++) {
            Throwable e = seen.get(n);
            assertTrue(e instanceof NodeFailedException, String.valueOf(e));
            assertTrue(e.getMessage().contains("'cached'") && e.getMessage().contains("node 2"), e.getMessage());
        }
    }
}
