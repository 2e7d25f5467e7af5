package dev.cumulus.internal.singlevm;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cluster-wide monitors over the shared heap: mutual exclusion, wait/notify hand-off, recursion, interrupts. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MonitorTest {

    /** Two threads on each of 3 nodes increment a counter homed on node 0 under a monitor homed on node 1. */
    @Test
    void countersUnderAMonitorLoseNoUpdate() {
        int perThread = 150;
        int threadsPerNode = 2;
        LocalCluster.run(3, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long counter = Heaps.share(cluster, 0, 0, () -> heap.allocate(2));
            long lock = Heaps.share(cluster, 1, 1, () -> heap.allocate(0));
            AtomicReference<Throwable> failed = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < threadsPerNode; t++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < perThread; i++) {
                            heap.monitorEnter(lock);
                            heap.putLong(counter, 0, heap.getLong(counter, 0) + 1);
                            heap.putLong(counter, 1, heap.getLong(counter, 1) + 2); // two fields, one write-back
                            heap.monitorExit(lock);
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
                throw new AssertionError("a counting thread failed", failed.get());
            }
            cluster.barrier();
            heap.monitorEnter(lock);
            long total = 3L * threadsPerNode * perThread;
            assertEquals(total, heap.getLong(counter, 0), "lost updates");
            assertEquals(2 * total, heap.getLong(counter, 1), "lost updates");
            heap.monitorExit(lock);
            cluster.barrier();
        });
    }

    /**
     * A one-slot mailbox (its monitor homed on node 0, its value on node 2): a producer on node 1 hands 1..N to a
     * consumer on node 2 with wait/notifyAll; the consumer sees every value once, in order.
     */
    @Test
    void waitNotifyHandOffAcrossNodes() {
        int n = 200;
        LocalCluster.run(3, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long box = Heaps.share(cluster, 0, 0, () -> heap.allocate(1)); // slot 0: full
            long value = Heaps.share(cluster, 1, 2, () -> heap.allocate(1));
            if (cluster.nodeId() == 1) {
                for (int i = 1; i <= n; i++) {
                    heap.monitorEnter(box);
                    while (heap.getLong(box, 0) != 0) {
                        heap.await(box);
                    }
                    heap.putLong(value, 0, i);
                    heap.putLong(box, 0, 1);
                    heap.notifyAll(box);
                    heap.monitorExit(box);
                }
            } else if (cluster.nodeId() == 2) {
                for (int i = 1; i <= n; i++) {
                    heap.monitorEnter(box);
                    while (heap.getLong(box, 0) == 0) {
                        heap.await(box);
                    }
                    assertEquals(i, heap.getLong(value, 0), "hand-off " + i);
                    heap.putLong(box, 0, 0);
                    heap.notifyOne(box);
                    heap.monitorExit(box);
                }
            }
            cluster.barrier();
        });
    }

    /** Recursion is counted on the holder's node; only the outermost exit releases the monitor. */
    @Test
    void recursiveEntryReleasesAtTheOutermostExit() {
        LocalCluster.run(2, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long lock = Heaps.share(cluster, 0, 0, () -> heap.allocate(1));
            if (cluster.nodeId() == 1) {
                heap.monitorEnter(lock);
                heap.monitorEnter(lock);
                heap.putLong(lock, 0, 7);
                heap.monitorExit(lock);
                assertTrue(heap.holdsLock(lock));
                heap.monitorExit(lock);
                assertFalse(heap.holdsLock(lock));
                assertThrows(IllegalMonitorStateException.class, () -> heap.monitorExit(lock));
                assertThrows(IllegalMonitorStateException.class, () -> heap.notifyOne(lock));
                assertThrows(IllegalMonitorStateException.class, () -> heap.await(lock));
            }
            cluster.barrier();
            heap.monitorEnter(lock);
            assertEquals(7, heap.getLong(lock, 0));
            heap.monitorExit(lock);
            cluster.barrier();
        });
    }

    /**
     * A wait on a monitor homed elsewhere ends with InterruptedException when the thread is interrupted (before or
     * while it waits), and with the monitor held again; so does a wait with a timeout nobody notifies within.
     */
    @Test
    void interruptAndTimeoutEndAWaitWithTheMonitorHeld() {
        LocalCluster.run(2, cluster -> {
            SharedHeap heap = Heaps.of(cluster);
            long lock = Heaps.share(cluster, 0, 0, () -> heap.allocate(1));
            if (cluster.nodeId() == 1) {
                AtomicReference<Throwable> outcome = new AtomicReference<>();
                AtomicReference<Boolean> heldAfter = new AtomicReference<>();
                Thread waiter = Thread.ofPlatform().start(() -> {
                    heap.monitorEnter(lock);
                    try {
                        heap.await(lock);
                        outcome.set(new AssertionError("the wait returned without a notify"));
                    } catch (InterruptedException e) {
                        outcome.set(e);
                    }
                    heldAfter.set(heap.holdsLock(lock));
                    heap.monitorExit(lock);
                });
                waiter.interrupt();
                waiter.join();
                assertTrue(outcome.get() instanceof InterruptedException, String.valueOf(outcome.get()));
                assertTrue(heldAfter.get());

                heap.monitorEnter(lock);
                heap.await(lock, 20); // nobody notifies: the timeout ends it
                assertTrue(heap.holdsLock(lock));
                heap.monitorExit(lock);
            }
            cluster.barrier();
            heap.monitorEnter(lock); // free again on every node
            heap.monitorExit(lock);
            cluster.barrier();
        });
    }
}
