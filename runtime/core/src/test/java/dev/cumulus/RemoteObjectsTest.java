package dev.cumulus;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Remote objects on an in-process cluster (real Aeron IPC, one driver). */
@Timeout(60)
class RemoteObjectsTest {

    public interface Calculator {
        int add(int a, int b);

        double[] scale(double[] values, double factor);

        Map<String, List<Integer>> group(List<Integer> values);

        int whoAmI();

        void fail(String message);

        void failChecked() throws IOException;

        String sleepy(long millis) throws InterruptedException;
    }

    public static final class CalculatorImpl implements Calculator {
        private final int node;

        public CalculatorImpl() {
            this(-1);
        }

        CalculatorImpl(int node) {
            this.node = node;
        }

        @Override public int add(int a, int b) {
            return a + b;
        }

        @Override public double[] scale(double[] values, double factor) {
            double[] out = values.clone();
            for (int i = 0; i < out.length; i++) {
                out[i] *= factor;
            }
            return out;
        }

        @Override public Map<String, List<Integer>> group(List<Integer> values) {
            return Map.of("even", values.stream().filter(v -> v % 2 == 0).toList(),
                "odd", values.stream().filter(v -> v % 2 != 0).toList());
        }

        @Override public int whoAmI() {
            return node;
        }

        @Override public void fail(String message) {
            throw new IllegalStateException(message);
        }

        @Override public void failChecked() throws IOException {
            throw new IOException("disk on fire");
        }

        @Override public String sleepy(long millis) throws InterruptedException {
            Thread.sleep(millis);
            return "woke";
        }
    }

    /** Babylon Figure 2: a getter that blocks until a later call sets the value. */
    public interface Edge {
        double[] take() throws InterruptedException;

        void put(double[] values);
    }

    public static final class EdgeImpl implements Edge {
        private double[] value;

        @Override public synchronized double[] take() throws InterruptedException {
            while (value == null) {
                wait();
            }
            return value;
        }

        @Override public synchronized void put(double[] values) {
            value = values;
            notifyAll();
        }
    }

    public interface Relay {
        int addThrough(Calculator calculator, int a, int b);
    }

    public static final class RelayImpl implements Relay {
        @Override public int addThrough(Calculator calculator, int a, int b) {
            return calculator.add(a, b);
        }
    }

    @AfterEach
    void noDriverDirectoriesLeft() {
        String ours = "cumulus-local-" + ProcessHandle.current().pid() + "-";
        File[] left = new File("/dev/shm").listFiles((dir, name) -> name.startsWith(ours));
        assertTrue(left == null || left.length == 0, "driver directories left: " + Arrays.toString(left));
    }

    @Test
    void synchronousCallsPassArgumentsAndResultsByValue() {
        LocalCluster.run(3, cluster -> {
            cluster.export(new CalculatorImpl(cluster.nodeId()), Calculator.class, "calc-" + cluster.nodeId());
            cluster.barrier();
            Calculator next = cluster.lookup("calc-" + (cluster.nodeId() + 1) % 3, Calculator.class);
            assertEquals((cluster.nodeId() + 1) % 3, next.whoAmI());
            assertEquals(5, next.add(2, 3));
            double[] in = {1, 2, 3};
            double[] out = next.scale(in, 2);
            assertArrayEquals(new double[] {2, 4, 6}, out);
            assertArrayEquals(new double[] {1, 2, 3}, in, "the caller's array is untouched: passed by value");
            assertEquals(Map.of("even", List.of(2, 4), "odd", List.of(1, 3)), next.group(List.of(1, 2, 3, 4)));
            assertTrue(next.toString().contains("calc-"), next.toString());
        });
    }

    @Test
    void remoteExceptionsArriveWithTheirTypeAndRemoteStack() {
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 1) {
                cluster.export(new CalculatorImpl(1), Calculator.class, "calc");
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                Calculator calc = cluster.lookup("calc", Calculator.class);
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> calc.fail("boom"));
                assertEquals("boom", e.getMessage());
                assertTrue(Arrays.stream(e.getStackTrace())
                        .anyMatch(f -> f.getClassName().endsWith("CalculatorImpl") && f.getMethodName().equals("fail")),
                    "the remote stack trace is kept");
                assertEquals("fail", e.getStackTrace()[0].getMethodName(), "it comes first, where it was thrown");
                assertTrue(Arrays.stream(e.getStackTrace()).anyMatch(f -> f.getMethodName().contains(
                    "remoteExceptionsArriveWithTheirTypeAndRemoteStack")), "and the caller's frames follow it");
                IOException io = assertThrows(IOException.class, calc::failChecked);
                assertEquals("disk on fire", io.getMessage());
                long here = Arrays.stream(io.getStackTrace())
                    .filter(f -> f.getMethodName().contains("remoteExceptionsArriveWithTheirTypeAndRemoteStack")).count();
                assertEquals(1, here, "the caller's frames once: " + Arrays.toString(io.getStackTrace()));
            }
            cluster.barrier();
        });
    }

    @Test
    void aBlockedCallDoesNotBlockOtherCallsToTheSameNode() {
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 1) {
                cluster.export(new EdgeImpl(), Edge.class, "edge");
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                Edge edge = cluster.lookup("edge", Edge.class);
                Edge ticket = AsyncTicket.newTicket(edge);
                ticket.take();                                  // blocks on node 1 until put() arrives
                edge.put(new double[] {4, 2});                  // a second call on the same object gets through
                double[] got = AsyncTicket.getResult(ticket);
                assertArrayEquals(new double[] {4, 2}, got);
            }
            cluster.barrier();
        });
    }

    @Test
    void ticketsRunCallsConcurrentlyAndOfferFutures() {
        LocalCluster.run(3, cluster -> {
            cluster.export(new CalculatorImpl(cluster.nodeId()), Calculator.class, "c" + cluster.nodeId());
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                Calculator t1 = AsyncTicket.newTicket(cluster.lookup("c1", Calculator.class));
                Calculator t2 = AsyncTicket.newTicket(cluster.lookup("c2", Calculator.class));
                assertEquals(0, t1.add(20, 1), "a ticket call returns at once with a default value");
                t2.add(30, 2);
                CompletableFuture<Object> f2 = AsyncTicket.future(t2);
                assertEquals(21, (int) AsyncTicket.getResult(t1));
                assertEquals(32, f2.get(10, TimeUnit.SECONDS));
                assertThrows(CumulusException.class, () -> t1.add(1, 1), "one call per ticket");
                Calculator t3 = AsyncTicket.newTicket(cluster.lookup("c1", Calculator.class));
                t3.fail("async boom");
                assertEquals("async boom", assertThrows(IllegalStateException.class,
                    () -> AsyncTicket.getResult(t3)).getMessage());
                assertThrows(CumulusException.class, () -> AsyncTicket.getResult(cluster.lookup("c1", Calculator.class)));
            }
            cluster.barrier();
        });
    }

    @Test
    void proxiesPassedToAnotherNodeStillWork() {
        LocalCluster.run(3, cluster -> {
            if (cluster.nodeId() == 1) {
                cluster.export(new CalculatorImpl(1), Calculator.class, "calc");
            }
            if (cluster.nodeId() == 2) {
                cluster.export(new RelayImpl(), Relay.class, "relay");
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                Calculator calc = cluster.lookup("calc", Calculator.class);
                Relay relay = cluster.lookup("relay", Relay.class);
                assertEquals(42, relay.addThrough(calc, 40, 2), "node 2 called node 1 through the proxy node 0 sent");
                assertEquals(1, Remote.nodeOf(calc));
            }
            cluster.barrier();
        });
    }

    @Test
    void remoteNewCreatesTheObjectOnTheChosenNode() {
        LocalCluster.run(3, cluster -> {
            if (cluster.nodeId() == 0) {
                Calculator c = cluster.remoteNew(CalculatorImpl.class, Calculator.class, "made", 2);
                assertEquals(2, Remote.nodeOf(c));
                assertEquals(3, c.add(1, 2));
                Calculator again = cluster.lookup("made", Calculator.class);
                assertEquals(c, again);
            }
            cluster.barrier();
        });
    }

    @Test
    void badInputGetsClearErrors() {
        LocalCluster.run(2, cluster -> {
            cluster.export(new CalculatorImpl(cluster.nodeId()), Calculator.class, "calc" + cluster.nodeId());
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                CumulusException unknown = assertThrows(CumulusException.class,
                    () -> cluster.lookup("nope", Calculator.class, Duration.ofMillis(100)));
                assertTrue(unknown.getMessage().contains("'nope'"), unknown.getMessage());
                CumulusException taken = assertThrows(CumulusException.class,
                    () -> cluster.export(new CalculatorImpl(), Calculator.class, "calc1"));
                assertTrue(taken.getMessage().contains("already taken"), taken.getMessage());
                Calculator remote = cluster.lookup("calc1", Calculator.class);
                CumulusException wrongType = assertThrows(CumulusException.class,
                    () -> cluster.lookup("calc1", Edge.class));
                assertTrue(wrongType.getMessage().contains(Calculator.class.getName()), wrongType.getMessage());
                Relay relay = cluster.export(new RelayImpl(), Relay.class, "relay");
                assertNotEquals(null, relay);
                Calculator slow = Remote.withTimeout(remote, Duration.ofMillis(200));
                RemoteTimeoutException timeout = assertThrows(RemoteTimeoutException.class, () -> slow.sleepy(5_000));
                assertTrue(timeout.getMessage().contains("node 1"), timeout.getMessage());
            }
            cluster.barrier();
        });
    }

    public interface Sink {
        int accept(Object value);
    }

    @Test
    void untransferableArgumentsAreRefusedAtTheSender() {
        AtomicInteger calls = new AtomicInteger();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 1) {
                cluster.export(value -> calls.incrementAndGet(), Sink.class, "sink");
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                Sink sink = cluster.lookup("sink", Sink.class);
                NotTransferableException e = assertThrows(NotTransferableException.class,
                    () -> sink.accept(new Thread(() -> { })));
                assertTrue(e.getMessage().contains("java.lang.Thread"), e.getMessage());
                assertEquals(1, sink.accept("fine"));
            }
            cluster.barrier();
        });
        assertEquals(1, calls.get(), "the refused call never reached the remote object");
    }

    @Test
    void aCallPendingOnANodeThatFailsThrowsNamingTheNode() {
        CountDownLatch callArrived = new CountDownLatch(1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 1) {
                cluster.export(new Edge() {
                    @Override public double[] take() throws InterruptedException {
                        callArrived.countDown();
                        new CountDownLatch(1).await();           // never answers
                        return null;
                    }

                    @Override public void put(double[] values) {
                    }
                }, Edge.class, "stuck");
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                callArrived.await();
                throw new IllegalStateException("node 1 crashes while serving a call");
            }
            Edge stuck = cluster.lookup("stuck", Edge.class);
            NodeFailedException f = assertThrows(NodeFailedException.class, stuck::take);
            assertEquals(1, f.nodeId());
            assertTrue(f.getMessage().contains("node 1"), f.getMessage());
            throw f;
        }));
        assertEquals("node 1 crashes while serving a call", e.getMessage());
    }

    @Test
    void aCallToALiveNodeBlockedOnTheClusterFailsWhenAThirdNodeFails() {
        // Node 0 calls node 2, whose handler waits for something that will never come; node 1 then throws. Node 2's
        // program dies only of node 1's failure and announces none of its own, so node 0 must learn from node 1's.
        CountDownLatch callArrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> assertTimeoutPreemptively(
                Duration.ofSeconds(30), () -> LocalCluster.run(3, cluster -> {
                    if (cluster.nodeId() == 2) {
                        cluster.export(new Edge() {
                            @Override public double[] take() throws InterruptedException {
                                callArrived.countDown();
                                release.await();
                                return new double[0];
                            }

                            @Override public void put(double[] values) {
                            }
                        }, Edge.class, "waits");
                    }
                    cluster.barrier();
                    switch (cluster.nodeId()) {
                        case 0 -> {
                            Edge waits = cluster.lookup("waits", Edge.class);
                            NodeFailedException f = assertThrows(NodeFailedException.class, waits::take,
                                "a call to a live node whose handler waits must fail once the cluster has failed");
                            assertEquals(1, f.nodeId(), f.getMessage());
                            assertTrue(f.getMessage().contains("node 1 threw"), f.getMessage());
                            throw f;
                        }
                        case 1 -> {
                            callArrived.await();
                            throw new IllegalStateException("node 1 gives up while node 0 waits on node 2");
                        }
                        default -> {
                            NodeFailedException f = assertThrows(NodeFailedException.class, cluster::barrier);
                            throw f;
                        }
                    }
                })));
            assertEquals("node 1 gives up while node 0 waits on node 2", e.getMessage());
        } finally {
            release.countDown();
        }
    }

    @Test
    void namesStartingWithCumulusAreTheRuntimesOwn() {
        Map<String, String> seen = new ConcurrentHashMap<>();
        LocalCluster.run(1, cluster -> seen.put("refused", assertThrows(CumulusException.class,
            () -> cluster.export((Runnable) () -> { }, Runnable.class, "cumulus.mine")).getMessage()));
        assertTrue(seen.get("refused").contains("are Cumulus's own"), seen.get("refused"));
    }

    @Test
    void unevenBarriersEndWithAMismatchNamingBothSidesInsteadOfHanging() {
        CumulusException e = assertThrows(CumulusException.class, () -> LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 0) {
                cluster.barrier(); // one more barrier than node 1: node 1's closing barrier must not pair with it
            }
        }));
        assertTrue(e.getMessage().contains("barrier mismatch at barrier #1: node 1 entered close()'s barrier while "
            + "node 0 entered barrier()"), e.getMessage());
        assertTrue(e.getMessage().contains("called barrier() fewer times"), e.getMessage());
    }

    @Test
    void aNodeWhoseProgramEndsEarlyNeverReleasesItsPeersFromABarrierItDidNotEnter() {
        List<String> passed = new CopyOnWriteArrayList<>();
        assertThrows(IllegalStateException.class, () -> LocalCluster.run(3, cluster -> {
            try (cluster) {
                cluster.barrier();
                if (cluster.nodeId() == 2) {
                    throw new IllegalStateException("node 2 gives up"); // try-with-resources closes: close()'s barrier
                }
                cluster.barrier();
                passed.add("node " + cluster.nodeId());
            }
        }));
        assertEquals(List.of(), passed, "nobody passes a barrier node 2 never reached");
    }

    @Test
    void aNodeThatThrowsEndsTheClusterAndBlockedNodesLearnWhy() {
        CountDownLatch othersBlocked = new CountDownLatch(2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LocalCluster.run(3, cluster -> {
            if (cluster.nodeId() == 1) {
                othersBlocked.await(10, TimeUnit.SECONDS);
                throw new IllegalArgumentException("node 1 gives up");
            }
            othersBlocked.countDown();
            NodeFailedException f = assertThrows(NodeFailedException.class, cluster::barrier);
            assertEquals(1, f.nodeId());
            throw f;
        }));
        assertEquals("node 1 gives up", e.getMessage());
        assertEquals(2, e.getSuppressed().length, "the other nodes' failures are attached");
    }
}
