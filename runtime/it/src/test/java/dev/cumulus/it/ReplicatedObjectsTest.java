package dev.cumulus.it;

import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.LocalCluster;
import dev.cumulus.NodeFailedException;
import dev.cumulus.NotTransferableException;
import dev.cumulus.internal.cloud.BroadcastEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Replicated objects on an in-process cluster: real agent weaving, real ordered broadcast over Aeron IPC. */
@Timeout(120)
class ReplicatedObjectsTest {

    @Test
    void writesReachEveryReplicaAndABarrierMakesThemVisible() {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        LocalCluster.run(4, cluster -> {
            Minimum best = cluster.replicated("best", Minimum::new);
            best.set(100 - cluster.nodeId() * 7);
            assertTrue(best.get() <= 100 - cluster.nodeId() * 7, "the caller sees its own write at once");
            cluster.barrier();
            seen.add(best.get());
        });
        assertEquals(List.of(79, 79, 79, 79), seen, "after the barrier every replica holds the global minimum");
    }

    @Test
    void aWriteJustBeforeABarrierIsVisibleEverywhereAfterIt() {
        LocalCluster.run(3, cluster -> {
            Journal journal = cluster.replicated("rounds", Journal::new);
            for (int round = 0; round < 40; round++) {
                if (round % cluster.size() == cluster.nodeId()) {
                    journal.append(cluster.nodeId(), "round " + round);
                }
                cluster.barrier();
                // Every write of rounds <= round is visible; the next round's write may already be, too.
                int size = journal.size();
                assertTrue(size == round + 1 || size == round + 2,
                    "after barrier " + round + " node " + cluster.nodeId() + " sees " + size + " writes");
            }
        });
    }

    @Test
    void randomConcurrentWritesFromAllNodesLeaveIdenticalReplicas() {
        for (String sequencer : List.of("migrating", "static")) {
            System.setProperty("cumulus.sequencer", sequencer);
            try {
                Set<Long> hashes = ConcurrentHashMap.newKeySet();
                AtomicInteger totals = new AtomicInteger();
                LocalCluster.run(3, cluster -> {
                    Journal journal = cluster.replicated("journal", Journal::new);
                    Random random = new Random(cluster.nodeId());
                    Thread[] writers = new Thread[2];
                    for (int t = 0; t < writers.length; t++) {
                        int thread = t;
                        writers[t] = Thread.ofPlatform().start(() -> {
                            for (int i = 0; i < 60; i++) {
                                journal.append(cluster.nodeId(), "t" + thread + "-" + i + "-" + random.nextInt(1000));
                                if (i % 20 == 7) {
                                    assertThrows(IllegalArgumentException.class, () -> journal.fail("no " + thread));
                                }
                            }
                        });
                    }
                    for (Thread w : writers) {
                        w.join();
                    }
                    cluster.barrier();
                    assertEquals(3 * 2 * 60, journal.size());
                    for (int n = 0; n < 3; n++) {
                        assertEquals(120, journal.countOf(n));
                    }
                    hashes.add(journal.stateHash());
                    totals.incrementAndGet();
                });
                assertEquals(3, totals.get());
                assertEquals(1, hashes.size(), sequencer + ": replicas diverged: " + hashes);
            } finally {
                System.clearProperty("cumulus.sequencer");
            }
        }
    }

    @Test
    void replicasStayIdenticalWhenTheNetworkBelowTheOrderingLayerDelaysAndReorders() {
        List<DelayReorderNetwork> networks = new CopyOnWriteArrayList<>();
        BroadcastEndpoint.injectFaults((node, real) -> {
            DelayReorderNetwork n = new DelayReorderNetwork(real, 1000 + node, 50);
            networks.add(n);
            return n;
        });
        try {
            Set<Long> hashes = ConcurrentHashMap.newKeySet();
            LocalCluster.run(3, cluster -> {
                Journal journal = cluster.replicated("journal", Journal::new);
                Random random = new Random(cluster.nodeId() * 31L);
                for (int i = 0; i < 80; i++) {
                    journal.append(cluster.nodeId(), "w" + i + "-" + random.nextInt(100));
                }
                cluster.barrier();
                assertEquals(240, journal.size());
                hashes.add(journal.stateHash());
            });
            assertEquals(1, hashes.size(), "replicas diverged: " + hashes);
            assertTrue(networks.stream().mapToInt(n -> n.delayed).sum() > 240, "messages went through the fault layer");
        } finally {
            BroadcastEndpoint.injectFaults(null);
        }
    }

    @Test
    void waitAndNotifyWorkAcrossNodesWithProducersAndConsumersEverywhere() {
        Set<Integer> consumed = ConcurrentHashMap.newKeySet();
        AtomicInteger count = new AtomicInteger();
        LocalCluster.run(3, cluster -> {
            Bin bin = cluster.replicated("bin", Bin::new);
            int me = cluster.nodeId();
            Thread producer = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 20; i++) {
                    try {
                        bin.put(me * 1000 + i);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            for (int i = 0; i < 20; i++) {
                int v = bin.get();
                assertTrue(consumed.add(v), "consumed twice: " + v);
                count.incrementAndGet();
            }
            producer.join();
            cluster.barrier();
        });
        assertEquals(60, count.get());
        assertEquals(60, consumed.size(), "every value put was taken exactly once");
    }

    @Test
    void aReadThatReachesAWriteAtRunTimeIsRestartedAsAReplicatedWrite() {
        List<Integer> looks = new CopyOnWriteArrayList<>();
        LocalCluster.run(2, cluster -> {
            Gauge gauge = cluster.replicated("gauge", Gauge::new);
            assertEquals(0, gauge.peek(), "a plain probe: a local read");
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                gauge.install(true);
                gauge.raise();
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                assertEquals(1001, gauge.peek(), "the restarted read returns its result");
                assertEquals(1002, gauge.peek());
            }
            cluster.barrier();
            looks.add(gauge.looks());
        });
        assertEquals(List.of(2, 2), looks, "the writes inside peek() ran on every replica");
    }

    @Test
    void aCloudNameUsedForTwoClassesIsRefusedOnEveryNode() {
        AtomicInteger refused = new AtomicInteger();
        LocalCluster.run(2, cluster -> {
            CumulusException e = assertThrows(CumulusException.class, () -> {
                if (cluster.nodeId() == 0) {
                    cluster.replicated("clash", Minimum::new);
                } else {
                    cluster.replicated("clash", Other::new);
                }
            });
            assertTrue(e.getMessage().contains(Minimum.class.getName()) && e.getMessage().contains(Other.class.getName()),
                e.getMessage());
            refused.incrementAndGet();
        });
        assertEquals(2, refused.get());
    }

    public interface Holder {
        int minimumOf(Minimum m);
    }

    @Test
    void aCloudPassedInARemoteCallArrivesAsTheReceiversReplica() {
        LocalCluster.run(2, cluster -> {
            Minimum best = cluster.replicated("shared-min", Minimum::new);
            if (cluster.nodeId() == 1) {
                cluster.export(m -> {
                    assertSame(best, m, "the receiver gets its own replica, not a copy");
                    return m.get();
                }, Holder.class, "holder");
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                best.set(5);
                Holder h = cluster.lookup("holder", Holder.class);
                assertEquals(5, h.minimumOf(best), "node 1 read its replica, which has node 0's write");
            }
            cluster.barrier();
        });
    }

    @Test
    void aFatalErrorOnOneReplicaEndsTheRunEverywhereWithItsMessage() {
        NodeFailedException e = assertThrows(NodeFailedException.class, () -> LocalCluster.run(3, cluster -> {
                Fragile fragile = cluster.replicated("fragile", () -> {
                    Fragile f = new Fragile();
                    if (cluster.nodeId() == 1) {
                        f.markNodeOne(); // runs as plain Java: the object is not a replica yet
                    }
                    return f;
                });
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    fragile.write();
                }
                cluster.barrier();
            }));
        assertTrue(e.getMessage().contains("OutOfMemoryError") && e.getMessage().contains("simulated"),
            e.getMessage());
        assertEquals(1, e.nodeId(), "the failure names the node whose replica failed");
    }

    @Test
    void anArgumentThatCannotBeTransferredIsRefusedAtTheCallerAndNothingIsShipped() {
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        LocalCluster.run(2, cluster -> {
            Bag bag = cluster.replicated("bag", Bag::new);
            if (cluster.nodeId() == 0) {
                @SuppressWarnings({"unchecked", "rawtypes"})
                List<String> polluted = (List) List.of(new StringBuilder("mutable"));
                NotTransferableException e = assertThrows(NotTransferableException.class, () -> bag.addAll(polluted));
                assertTrue(e.getMessage().contains("java.lang.StringBuilder"), e.getMessage());
                bag.addAll(List.of("fine"));
            }
            cluster.barrier();
            sizes.add(bag.size());
        });
        assertEquals(List.of(1, 1), sizes);
    }

    @Test
    void oneNodeClusterStillReplicates() {
        LocalCluster.run(1, (Cluster cluster) -> {
            Minimum m = cluster.replicated("solo", Minimum::new);
            m.set(3);
            assertEquals(3, m.get());
        });
    }
}
