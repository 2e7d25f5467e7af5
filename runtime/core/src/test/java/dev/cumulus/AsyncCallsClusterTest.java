package dev.cumulus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many asynchronous calls in flight through a real in-process cluster: two callers keep thousands of calls outstanding
 * to one node, whose main thread runs the calls of each poll one after another and sends their answers together; every
 * future gets its own call's result or exception. A node that fails with calls outstanding fails every future.
 */
@Timeout(120)
class AsyncCallsClusterTest {
    public interface Adder {
        long add(long a, long b);

        long failIfOdd(long x);
    }

    public static final class AdderImpl implements Adder {
        @Override
        public long add(long a, long b) {
            return a + b;
        }

        @Override
        public long failIfOdd(long x) {
            if (x % 2 != 0) {
                throw new IllegalArgumentException("odd: " + x);
            }
            return x;
        }
    }

    public interface Stuck {
        long take() throws InterruptedException;
    }

    @Test
    void thousandsOfOutstandingCallsFromTwoNodesEachGetTheirOwnAnswer() throws Exception {
        LocalCluster.run(3, cluster -> {
            if (cluster.nodeId() == 0) {
                cluster.export(new AdderImpl(), Adder.class, "adder");
            }
            cluster.barrier();
            if (cluster.nodeId() != 0) {
                Adder adder = cluster.lookup("adder", Adder.class);
                long base = cluster.nodeId() * 1_000_000L;
                List<CompletableFuture<Long>> sums = new ArrayList<>();
                List<CompletableFuture<Long>> checks = new ArrayList<>();
                for (int i = 0; i < 4000; i++) {
                    long x = base + i;
                    sums.add(Remote.async(adder, a -> a.add(x, x)));
                    if (i % 10 == 0) {
                        Adder ticket = AsyncTicket.newTicket(adder);
                        ticket.failIfOdd(x);
                        checks.add(AsyncTicket.future(ticket).thenApply(v -> (Long) v));
                    }
                }
                for (int i = 0; i < sums.size(); i++) {
                    assertEquals(2 * (base + i), sums.get(i).get(60, TimeUnit.SECONDS), "call " + i);
                }
                for (int k = 0; k < checks.size(); k++) {
                    long x = base + 10L * k;
                    if (x % 2 == 0) {
                        assertEquals(x, checks.get(k).get(60, TimeUnit.SECONDS));
                    } else {
                        int at = k;
                        ExecutionException e = assertThrows(ExecutionException.class,
                            () -> checks.get(at).get(60, TimeUnit.SECONDS));
                        assertEquals("odd: " + x, e.getCause().getMessage());
                    }
                }
            }
            cluster.barrier();
        });
    }

    @Test
    void aNodeThatFailsWithCallsOutstandingFailsEveryFuture() {
        CountDownLatch callArrived = new CountDownLatch(1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 1) {
                cluster.export((Stuck) () -> {
                    callArrived.countDown();
                    new CountDownLatch(1).await(); // never answers
                    return 0;
                }, Stuck.class, "stuck");
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                callArrived.await();
                throw new IllegalStateException("node 1 fails with calls outstanding");
            }
            Stuck stuck = cluster.lookup("stuck", Stuck.class);
            List<CompletableFuture<Long>> futures = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                futures.add(Remote.async(stuck, Stuck::take));
            }
            for (CompletableFuture<Long> f : futures) {
                ExecutionException failed = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
                NodeFailedException n = assertInstanceOf(NodeFailedException.class, failed.getCause());
                assertEquals(1, n.nodeId(), n.getMessage());
                assertTrue(n.getMessage().contains("stuck.take()"), n.getMessage());
            }
            throw new IllegalStateException("node 1 fails with calls outstanding");
        }));
        assertEquals("node 1 fails with calls outstanding", e.getMessage());
    }
}
