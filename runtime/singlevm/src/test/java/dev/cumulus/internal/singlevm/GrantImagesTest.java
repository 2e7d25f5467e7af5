package dev.cumulus.internal.singlevm;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Grants that carry images and exits that carry write-backs (docs/design/SINGLEVM.md): a thread of node 1 locks an
 * array homed on node 0, which node 0 holds and writes until it lets go. The grant brings the array as node 0 left it,
 * so the new holder reads it without a fetch; what it writes under the lock travels with its exit and is in the
 * master when the exit returns. When another thread of node 1 acquired while the request was out, the image is
 * filled as of the request's epoch: the acquiring thread still reads it, the other thread does not.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class GrantImagesTest {
    @Test
    void theGrantBringsTheLockedArrayAndTheExitTakesItsWritesHome() throws Exception {
        grantedWhileHeld(false);
    }

    @Test
    void anImageOlderThanAnotherThreadsAcquireServesOnlyTheThreadItWasGrantedTo() throws Exception {
        grantedWhileHeld(true);
    }

    private static void grantedWhileHeld(boolean neighbourAcquires) throws Exception {
        CountDownLatch queued = new CountDownLatch(1);
        CountDownLatch neighbourDone = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        LocalCluster.run(2, cluster -> {
            ObjectSpace space = new ObjectSpace(Heaps.of(cluster), GrantImagesTest.class.getClassLoader());
            space.bind();
            try {
                long[] master = new long[8];
                long id = Heaps.share(cluster, 0, 0, () -> space.idOf(master));
                if (cluster.nodeId() == 0) {
                    space.monitorEnter(master, id);
                    master[2] = 7;
                }
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    awaitQueued(Heaps.of(cluster), id);
                    queued.countDown();
                    await(neighbourDone);
                    master[5] = 9; // under the lock, after node 1 asked: only the grant's image can bring it
                    space.heap().monitorExit(id);
                } else {
                    long[] copy = (long[]) space.resolve(id, long[].class.getName() + "/8");
                    Copy c = space.arrayCopy(copy);
                    Thread holder = new Thread(() -> {
                        try {
                            space.monitorEnter(copy, id);
                            assertTrue(GrantedFills.mayRead(c) || Epochs.validHere(c.arrayState),
                                "the grant filled the copy for the thread it was granted to");
                            assertEquals(7, copy[2]);
                            assertEquals(9, copy[5]);
                            assertEquals(neighbourAcquires, !Epochs.validHere(c.arrayState),
                                "filled as of the acquire's own epoch only when no other thread acquired meanwhile");
                            SingleVmHooks.storeLong(copy, 6, 11);
                            space.heap().monitorExit(id);
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    });
                    holder.start();
                    await(queued);
                    if (neighbourAcquires) {
                        space.heap().acquire(); // another thread of node 1 acquires while the request is out
                    }
                    neighbourDone.countDown();
                    holder.join();
                    if (neighbourAcquires) {
                        assertFalse(Epochs.validHere(c.arrayState) || GrantedFills.mayRead(c),
                            "the neighbour acquired after the request was sent: the image may predate its acquire");
                    }
                }
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    assertEquals(11, master[6], "the exit carried the write and the home stored it before replying");
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            } finally {
                space.close();
            }
        });
        assertNull(failure.get(), () -> "node 1's holder failed: " + failure.get());
    }

    /** Waits until a thread of another node queues for the monitor of {@code id}, held here. */
    private static void awaitQueued(SharedHeap heap, long id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (heap.homedMonitors().get(id) == null || heap.homedMonitors().get(id).state().entries().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("node 1's thread never queued for the monitor");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
        }
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(60, TimeUnit.SECONDS), "a step of the other node never came");
    }
}
