package dev.cumulus.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code moveAsync} is FIFO to the element's home (docs/design/PASTSET.md, Ordering): pipelined moves of several
 * threads, local and remote, held by flow control, followed by synchronous moves and observes, and a failure among
 * them. Real in-process clusters (Aeron IPC).
 */
@Timeout(120)
class PastSetFifoTest {

    @Test
    void twoThreadsPipeliningIntoARemoteElementEachSeeTheirOwnMovesInOrder() {
        int perThread = 1_000;
        LocalCluster.run(2, cluster -> {
            Element e = cluster.pastSet(Placement.CENTRAL).enter("two-pipes", int.class, int.class);
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                CountDownLatch start = new CountDownLatch(1);
                AtomicReference<Throwable> failed = new AtomicReference<>();
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    int pipe = t;
                    threads.add(Thread.ofPlatform().name("pipe-" + t).start(() -> {
                        try {
                            start.await();
                            List<CompletableFuture<Long>> sent = new ArrayList<>();
                            for (int i = 0; i < perThread; i++) {
                                sent.add(e.moveAsync(pipe, i));
                            }
                            long previous = -1;
                            for (CompletableFuture<Long> f : sent) {
                                long index = f.join();
                                assertTrue(index > previous, "a thread's moves went in out of order");
                                previous = index;
                            }
                        } catch (Throwable x) {
                            failed.compareAndSet(null, x);
                        }
                    }));
                }
                start.countDown();
                for (Thread t : threads) {
                    t.join();
                }
                assertNull(failed.get());
                int[] nextOf = new int[2];
                for (int index = 0; index < 2 * perThread; index++) {
                    Tuple t = e.observe(index);
                    assertEquals(nextOf[t.getInt(0)]++, t.getInt(1), "thread " + t.getInt(0) + "'s moves in order");
                }
            }
            cluster.barrier();
        });
    }

    /**
     * DeltaValue 4 holds nearly every move: the home's local moveAsyncs and a remote node's wait in the line of held
     * moves, and an observer on a third node sees each one's moves in the order they were made.
     */
    @Test
    void localAndRemoteMovesHeldByFlowControlAreReleasedInTheOrderTheyWereMade() {
        int perMover = 300;
        LocalCluster.run(3, cluster -> {
            int me = cluster.nodeId();
            Element e = cluster.pastSet(Placement.CENTRAL).enter("held-pipes", int.class, int.class);
            if (me == 0) {
                e.delta(4);
            }
            cluster.barrier();
            if (me == 0 || me == 1) {
                assertEquals(me == 0, e.isLocal());
                List<CompletableFuture<Long>> sent = new ArrayList<>();
                for (int i = 0; i < perMover; i++) {
                    sent.add(e.moveAsync(me, i));
                }
                long previous = -1;
                for (CompletableFuture<Long> f : sent) {
                    long index = f.join();
                    assertTrue(index > previous, "node " + me + "'s held moves went in out of order");
                    previous = index;
                }
            } else {
                int[] nextOf = new int[2];
                for (int n = 0; n < 2 * perMover; n++) {
                    Tuple t = e.observe();
                    assertEquals(nextOf[t.getInt(0)]++, t.getInt(1), "node " + t.getInt(0) + "'s moves in order");
                    assertTrue(e.last() - e.first() + 1 <= 4, "never more than DeltaValue unobserved");
                }
            }
            cluster.barrier();
        });
    }

    @Test
    void aMoveOrObserveAfterAsynchronousMovesGoesInAfterThem() {
        int rounds = 300;
        LocalCluster.run(2, cluster -> {
            Element e = cluster.pastSet(Placement.CENTRAL).enter("async-then-sync", int.class);
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                List<CompletableFuture<Long>> sent = new ArrayList<>();
                for (int i = 0; i < rounds; i++) {
                    sent.add(e.moveAsync(3 * i));
                    sent.add(e.moveAsync(3 * i + 1));
                    assertEquals(3L * i + 2, e.move(3 * i + 2), "the move went in before the asynchronous ones");
                }
                for (int i = 0; i < sent.size(); i++) {
                    assertEquals(3L * (i / 2) + i % 2, sent.get(i).join());
                }
                for (int i = 0; i < rounds; i++) {
                    CompletableFuture<Long> ahead = e.moveAsync(-1 - i);
                    assertEquals(i, e.observe().getInt(0), "observe() takes the oldest unobserved tuple");
                    assertEquals(3L * rounds + i, ahead.join());
                }
            }
            cluster.barrier();
        });
    }

    /**
     * A redefinition that throws on the tuple 13 breaks the element: that move's future and every later one's fail,
     * the thread's next operation throws the failure of its last asynchronous move, and once the element is redefined
     * the node's moves (still numbered where the home left off) work again.
     */
    @Test
    void aFailedAsynchronousMoveSurfacesOnItsFutureAndAtTheNextOperationOnTheElement() {
        LocalCluster.run(2, cluster -> {
            PastSet space = cluster.pastSet(Placement.CENTRAL);
            Template t = Template.of("fails-at-13", int.class);
            if (cluster.nodeId() == 0) {
                space.redefine(t, Semantics.custom(ExplodesAt13.class));
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                Element e = space.enter(t);
                List<CompletableFuture<Long>> sent = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    sent.add(e.moveAsync(i));
                }
                for (int i = 0; i < 20; i++) {
                    CompletableFuture<Long> f = sent.get(i);
                    if (i < 13) {
                        assertEquals(i, f.join(), "the moves before the failure went in, in order");
                    } else {
                        CompletionException failed = assertThrows(CompletionException.class, f::join);
                        assertTrue(String.valueOf(failed.getCause()).contains(i == 13 ? "thirteen" : "broken"),
                            String.valueOf(failed.getCause()));
                    }
                }
                CumulusException next = assertThrows(CumulusException.class, e::first);
                assertTrue(next.getMessage().contains("an earlier moveAsync")
                    && next.getMessage().contains("fails-at-13"), next.getMessage());
                CumulusException broken = assertThrows(CumulusException.class, () -> e.move(100));
                assertTrue(broken.getMessage().contains("broken"), broken.getMessage());

                space.redefine(t, Semantics.standard());
                List<CompletableFuture<Long>> again = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    again.add(e.moveAsync(200 + i));
                }
                long at = again.get(0).join();
                for (int i = 0; i < 50; i++) {
                    assertEquals(at + i, again.get(i).join(), "numbered moves work again after the redefinition");
                    assertEquals(200 + i, e.observe(at + i).getInt(0));
                }
            }
            cluster.barrier();
        });
    }

    /**
     * A tuple refused before anything is sent (it does not fit the template, or cannot be transferred) fails its
     * future, and the thread's next operation on the element throws that failure once, on a remote element and on a
     * local one alike; another thread's operations and the element's log are untouched.
     */
    @Test
    void aMoveAsyncRefusedBeforeItIsSentSurfacesAtTheThreadsNextOperationOnTheElement() {
        LocalCluster.run(2, cluster -> {
            Element e = cluster.pastSet(Placement.CENTRAL).enter("refused", int.class, Object.class);
            cluster.barrier();
            String where = e.isLocal() ? "local" : "remote";
            assertThrows(CompletionException.class, () -> e.moveAsync("not an int", 1).join(), where);
            CumulusException next = assertThrows(CumulusException.class, () -> e.move(1, "after"), where);
            assertTrue(next.getMessage().contains("an earlier moveAsync") && next.getMessage().contains("must be int"),
                where + ": " + next.getMessage());

            assertThrows(CompletionException.class, () -> e.moveAsync(2, new Object()).join(), where);
            AtomicReference<Throwable> other = new AtomicReference<>();
            Thread.ofPlatform().start(() -> {
                try {
                    e.last();
                } catch (Throwable x) {
                    other.set(x);
                }
            }).join();
            assertNull(other.get(), where + ": another thread's operation does not report this thread's failure");
            CumulusException observe = assertThrows(CumulusException.class, e::first, where);
            assertTrue(observe.getMessage().contains("is not transferable"), where + ": " + observe.getMessage());
            e.first(); // reported once
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                assertEquals(-1, e.last(), "no refused tuple went in, nor the move that reported the refusal");
            }
            cluster.barrier();
        });
    }

    /** Appends what it is given, but throws on 13 (which breaks the element). */
    public static final class ExplodesAt13 implements Semantics.Redefinition {
        @Override
        public long move(Semantics.Context element, Semantics.Caller caller, Object[] fields) {
            if ((Integer) fields[0] == 13) {
                throw new IllegalStateException("thirteen");
            }
            return element.append(fields);
        }

        @Override
        public long observe(Semantics.Context element, Semantics.Caller caller) {
            return Semantics.BLOCK;
        }
    }
}
