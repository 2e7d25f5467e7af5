package dev.cumulus.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.LocalCluster;
import dev.cumulus.internal.pastset.PastSetRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static dev.cumulus.pastset.PastSetTestSupport.awaitCondition;
import static dev.cumulus.pastset.PastSetTestSupport.runtime;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PastSet across the nodes of an in-process cluster (real Aeron IPC, one driver). */
@Timeout(120)
class PastSetClusterTest {

    @Test
    void everyNodeSeesTheSameOrderInTheElementsLog() {
        int perNode = 50;
        Map<Integer, List<String>> seen = new ConcurrentHashMap<>();
        LocalCluster.run(3, cluster -> {
            Element log = cluster.pastSet(Placement.ROUND_ROBIN).enter("log", int.class, int.class);
            cluster.barrier();
            for (int i = 0; i < perNode; i++) {
                log.move(cluster.nodeId(), i);
            }
            cluster.barrier();
            List<String> mine = new ArrayList<>();
            int[] nextFrom = new int[3];
            for (long i = 0; i <= log.last(); i++) {
                Tuple t = log.observe(i);
                assertEquals(i, t.index());
                int from = t.getInt(0);
                assertEquals(nextFrom[from]++, t.getInt(1), "one mover's tuples stay in its order");
                mine.add(from + ":" + t.getInt(1));
            }
            assertEquals(3 * perNode, mine.size());
            seen.put(cluster.nodeId(), mine);
        });
        assertEquals(seen.get(0), seen.get(1));
        assertEquals(seen.get(0), seen.get(2));
    }

    @Test
    void aBlockedObserveIsWokenByAMoveOnAnotherNode() {
        AtomicReferenceArray<PastSetRuntime> runtimes = new AtomicReferenceArray<>(3);
        LocalCluster.run(3, cluster -> {
            runtimes.set(cluster.nodeId(), runtime(cluster));
            Template t = Template.of("wake", String.class);
            PastSet space = cluster.pastSet(Placement.CENTRAL);
            Element e = space.enter(t);
            assertEquals(0, e.homeNode());
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                Tuple got = e.observe();
                assertEquals("from node 2", got.getString(0));
            } else if (cluster.nodeId() == 2) {
                awaitCondition(() -> runtimes.get(0).waiting(Placement.CENTRAL, t) == 1);
                e.move("from node 2");
            }
        });
    }

    @Test
    void deltaFlowControlBlocksARemoteMoverUntilARemoteObserveMakesRoom() {
        AtomicReferenceArray<PastSetRuntime> runtimes = new AtomicReferenceArray<>(3);
        LocalCluster.run(3, cluster -> {
            runtimes.set(cluster.nodeId(), runtime(cluster));
            Template t = Template.of("pipe", int.class);
            Element e = cluster.pastSet(Placement.CENTRAL).enter(t);
            if (cluster.nodeId() == 0) {
                e.delta(3);
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                for (int i = 0; i < 3; i++) {
                    e.move(i);
                }
                CompletableFuture<Long> fourth = e.moveAsync(3);
                awaitCondition(() -> runtimes.get(0).waiting(Placement.CENTRAL, t) == 1);
                assertFalse(fourth.isDone());
                cluster.barrier(); // A: the mover is blocked
                assertEquals(3L, fourth.join());
                for (int i = 4; i < 100; i++) {
                    e.move(i);
                }
            } else {
                cluster.barrier(); // A
                if (cluster.nodeId() == 2) {
                    for (int i = 0; i < 100; i++) {
                        assertEquals(i, e.observe().getInt(0));
                        assertTrue(e.last() - e.first() + 1 <= 3, "never more than DeltaValue unobserved");
                    }
                }
            }
            cluster.barrier();
            if (cluster.nodeId() == 2) {
                CumulusException bad = assertThrows(CumulusException.class, () -> e.delta(-1));
                assertTrue(bad.getMessage().contains("at least 1"), bad.getMessage());
            }
        });
    }

    /**
     * Many asynchronous moves in flight from one thread (each sent before it returns): every one lands once, by value,
     * in the order they were made (FIFO, though the home may run two of them on different threads), at the index its
     * future reports.
     */
    @Test
    void pipelinedAsynchronousMovesLandInTheOrderTheyWereMadeByValueAtTheIndexTheirFutureReports() {
        int moves = 2_000;
        LocalCluster.run(2, cluster -> {
            Element e = cluster.pastSet(Placement.CENTRAL).enter("pipelined", int.class, byte[].class);
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                byte[] payload = new byte[16 * 1024]; // larger than one IPC frame: the call is reassembled at home
                List<CompletableFuture<Long>> sent = new ArrayList<>();
                for (int i = 0; i < moves; i++) {
                    payload[0] = (byte) i;
                    payload[payload.length - 1] = (byte) (i >> 8);
                    sent.add(e.moveAsync(i, payload)); // by value: the next change does not show in this tuple
                }
                Set<Long> indexes = new TreeSet<>();
                for (int i = 0; i < moves; i++) {
                    long index = sent.get(i).join();
                    assertEquals(i, index, "move " + i + " went in out of order");
                    assertTrue(indexes.add(index), "index " + index + " reported twice");
                    Tuple t = e.observe(index);
                    assertEquals(i, t.getInt(0), "the tuple at the index move " + i + "'s future reports");
                    assertEquals((byte) i, t.getBytes(1)[0]);
                    assertEquals((byte) (i >> 8), t.getBytes(1)[payload.length - 1]);
                }
                assertEquals(moves - 1, ((TreeSet<Long>) indexes).last());
            }
            cluster.barrier();
        });
    }

    @Test
    void movesHeldByFlowControlGoInInTheOrderTheyCame() {
        AtomicReferenceArray<PastSetRuntime> runtimes = new AtomicReferenceArray<>(3);
        LocalCluster.run(3, cluster -> {
            int me = cluster.nodeId();
            runtimes.set(me, runtime(cluster));
            Template t = Template.of("held", String.class);
            Element e = cluster.pastSet(Placement.CENTRAL).enter(t);
            if (me == 0) {
                e.delta(1);
                e.move("first");
            }
            cluster.barrier();
            CompletableFuture<Long> mine = null;
            if (me == 1) {
                mine = e.moveAsync("from node 1"); // parked at the home, its reply deferred
                awaitCondition(() -> runtimes.get(0).waiting(Placement.CENTRAL, t) == 1);
            }
            cluster.barrier();
            if (me == 2) {
                mine = e.moveAsync("from node 2");
                awaitCondition(() -> runtimes.get(0).waiting(Placement.CENTRAL, t) == 2);
            }
            cluster.barrier();
            if (me == 0) {
                mine = e.moveAsync("local, last"); // room comes one tuple at a time: the parked moves go first
                awaitCondition(() -> runtimes.get(0).waiting(Placement.CENTRAL, t) == 3);
                List<String> order = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    order.add(e.observe().getString(0));
                }
                assertEquals(List.of("first", "from node 1", "from node 2", "local, last"), order);
            }
            if (mine != null) {
                assertEquals(me == 0 ? 3L : me, mine.join());
            }
            cluster.barrier();
        });
    }

    @Test
    void truncateAndBadInputOnARemoteElement() {
        LocalCluster.run(2, cluster -> {
            Element e = cluster.pastSet(Placement.CENTRAL).enter("remote-log", int.class, String.class);
            if (cluster.nodeId() == 1) {
                assertFalse(e.isLocal());
                for (int i = 0; i < 5; i++) {
                    e.move(i, "t" + i);
                }
                CumulusException mismatch = assertThrows(CumulusException.class, () -> e.move("t5", 5));
                assertTrue(mismatch.getMessage().contains("must be int but was java.lang.String"),
                    mismatch.getMessage());
                assertEquals(4, e.last(), "nothing stored");
                e.truncate(3);
                CumulusException gone = assertThrows(CumulusException.class, () -> e.observe(1));
                assertTrue(gone.getMessage().contains("truncated"), gone.getMessage());
                assertEquals("t3", e.observe().getString(1));
                CumulusException past = assertThrows(CumulusException.class, () -> e.truncate(9));
                assertTrue(past.getMessage().contains("at most last() + 1 = 5"), past.getMessage());
            }
        });
    }

    @Test
    void reductionsWaitForAllContributionsOfARound() {
        int rounds = 5;
        LocalCluster.run(3, cluster -> {
            PastSet space = cluster.pastSet(Placement.ROUND_ROBIN);
            Template sumT = Template.of("sum", double.class);
            Template minT = Template.of("min", long.class);
            Template maxT = Template.of("max", int[].class);
            if (cluster.nodeId() == 0) {
                space.redefine(sumT, Semantics.sum(3));
                space.redefine(minT, Semantics.min(3));
                space.redefine(maxT, Semantics.max(3));
            }
            cluster.barrier();
            Element sum = space.enter(sumT);
            Element min = space.enter(minT);
            Element max = space.enter(maxT);
            int me = cluster.nodeId();
            for (int r = 0; r < rounds; r++) {
                sum.move((double) (me + 1) * (r + 1));
                min.move((long) (10 * me - r));
                max.move(new int[] {me, -me, r});
                assertEquals(6.0 * (r + 1), sum.observe().getDouble(0), 1e-12);
                assertEquals(-r, min.observe().getLong(0));
                assertArrayEquals(new int[] {2, 0, r}, max.observe().getInts(0));
            }
            cluster.barrier();
            if (me == 0) {
                assertEquals(rounds - 1, sum.last(), "one result tuple per round");
            }
        });
    }

    @Test
    void allGatherAssemblesOneTuplePerRound() {
        LocalCluster.run(3, cluster -> {
            PastSet space = cluster.pastSet();
            Template t = Template.of("gather", int.class, double[].class);
            if (cluster.nodeId() == 0) {
                space.redefine(t, Semantics.allGather(3));
            }
            cluster.barrier();
            Element g = space.enter(t);
            for (int round = 0; round < 4; round++) {
                g.move(cluster.nodeId(), new double[] {cluster.nodeId(), round});
                Tuple all = g.observe();
                assertEquals(3, all.size());
                for (int r = 0; r < 3; r++) {
                    assertArrayEquals(new double[] {r, round}, all.getDoubles(r));
                }
            }
        });
    }

    @Test
    void placementPolicies() {
        Map<String, Integer> homes = new ConcurrentHashMap<>();
        LocalCluster.run(3, cluster -> {
            int me = cluster.nodeId();
            PastSet central = cluster.pastSet(Placement.CENTRAL);
            PastSet roundRobin = cluster.pastSet(Placement.ROUND_ROBIN);
            PastSet firstTouch = cluster.pastSet(Placement.FIRST_TOUCH);
            assertEquals(Placement.FIRST_TOUCH, cluster.pastSet().placement(), "first touch is the default");
            Set<Integer> rrHomes = new TreeSet<>();
            for (int i = 0; i < 30; i++) {
                Template t = Template.of("e" + i, int.class);
                assertEquals(0, central.enter(t).homeNode());
                int h = roundRobin.enter(t).homeNode();
                rrHomes.add(h);
                homes.merge("rr" + i, h, (a, b) -> {
                    assertEquals(a, b, "round robin is deterministic");
                    return a;
                });
            }
            assertEquals(Set.of(0, 1, 2), rrHomes, "round robin spreads elements over the nodes");

            // first touch: each node enters its own element first, then everybody enters all of them
            Element mine = firstTouch.enter(Template.of("owner-" + me, int.class));
            assertTrue(mine.isLocal());
            assertEquals(me, mine.homeNode());
            cluster.barrier();
            for (int n = 0; n < 3; n++) {
                assertEquals(n, firstTouch.enter(Template.of("owner-" + n, int.class)).homeNode());
            }
            // concurrent first touches agree on one home
            Element contested = firstTouch.enter("contested", int.class);
            homes.merge("contested", contested.homeNode(), (a, b) -> {
                assertEquals(a, b, "one home agreed by all");
                return a;
            });
            contested.move(me);
            cluster.barrier();
            assertEquals(2, contested.last());
        });
    }

    @Test
    void localElementsTakeTheFastPathAndRemoteOnesSendMessages() {
        LocalCluster.run(2, cluster -> {
            PastSetRuntime rt = runtime(cluster);
            PastSet space = cluster.pastSet(Placement.CENTRAL);
            Element e = space.enter("ping", int.class);
            Element back = space.enter("pong", int.class);
            cluster.barrier();
            int n = 2_000;
            if (cluster.nodeId() == 0) {
                assertTrue(e.isLocal());
                long remoteBefore = rt.remoteOperations();
                for (int i = 0; i < n + 200; i++) {
                    assertEquals(i, e.observe().getInt(0));
                    back.move(i);
                }
                assertEquals(remoteBefore, rt.remoteOperations(), "the home node never sends a message");
            } else {
                assertFalse(e.isLocal());
                long remoteBefore = rt.remoteOperations();
                for (int i = 0; i < 200; i++) {
                    e.move(i);
                    back.observe();
                }
                long t0 = System.nanoTime();
                for (int i = 200; i < n + 200; i++) {
                    e.move(i);
                    back.observe();
                }
                long rtNs = (System.nanoTime() - t0) / n;
                assertEquals(remoteBefore + 2L * (n + 200), rt.remoteOperations());
                System.out.printf("PastSet remote round trip (remote move + remote observe, 4-byte tuple): %.1f us%n",
                    rtNs / 1000.0);
            }
        });
    }

    @Test
    void aBrokenRedefinitionOnAnotherNodeIsReportedToRemoteCallersAndTheSpaceKeepsWorking() {
        LocalCluster.run(2, cluster -> {
            PastSet space = cluster.pastSet(Placement.CENTRAL);
            Template bad = Template.of("remote-bad", int.class);
            Template boom = Template.of("remote-boom", int.class);
            if (cluster.nodeId() == 1) {
                CumulusException missing = assertThrows(CumulusException.class,
                    () -> space.redefine(bad, Semantics.custom("com.example.Missing", "x")));
                assertTrue(missing.getMessage().contains("com.example.Missing"), missing.getMessage());
                CumulusException reported = assertThrows(CumulusException.class, () -> space.enter(bad).move(1));
                assertTrue(reported.getMessage().contains("remote-bad(int)")
                    && reported.getMessage().contains("com.example.Missing"), reported.getMessage());

                space.redefine(boom, Semantics.custom(PastSetSingleNodeTest.Exploding.class));
                CumulusException thrown = assertThrows(CumulusException.class, () -> space.enter(boom).move(1));
                assertTrue(thrown.getMessage().contains("kaboom"), thrown.getMessage());

                Element fine = space.enter("remote-fine", int.class);
                fine.move(4);
                assertEquals(4, fine.observe().getInt(0), "the space keeps working");
            }
        });
    }
}
