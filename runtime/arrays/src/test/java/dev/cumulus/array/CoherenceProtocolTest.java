package dev.cumulus.array;

import dev.cumulus.internal.array.CoherenceMessage;
import dev.cumulus.internal.array.ProtocolHarness;
import dev.cumulus.internal.array.ProtocolHarness.Envelope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The coherence state machines of several nodes on a simulated network the test steps by hand. */
@Timeout(60)
class CoherenceProtocolTest {
    private final SimulatedNetwork<Envelope> net = new SimulatedNetwork<>();

    private ProtocolHarness harness(int nodes, int partitions) {
        return new ProtocolHarness("A", nodes, partitions, false, (e, unused) -> net.send(e.from(), e.to(), e));
    }

    private void drainFifo(ProtocolHarness h) {
        while (!net.idle()) {
            h.deliver(net.next().message());
        }
    }

    private List<Class<?>> deliveredKinds() {
        List<Class<?>> kinds = new ArrayList<>();
        for (var m : net.delivered()) {
            kinds.add(m.message().message().getClass());
        }
        return kinds;
    }

    private static final Runnable NOTHING = () -> {
    };

    @Test
    void homeReadsAndWritesItsOwnPartitionWithoutRemoteMessages() {
        ProtocolHarness h = harness(3, 3); // partition p is homed on node p
        assertEquals(CacheState.SHARED, h.state(1, 1));
        ProtocolHarness.Issued r = h.read(1, 1, v -> { });
        assertTrue(r.done(), "a home reads its valid backing copy at once");
        ProtocolHarness.Issued w = h.write(1, 1, 7, NOTHING);
        drainFifo(h);
        assertTrue(w.done());
        for (var m : net.delivered()) {
            assertEquals(1, m.message().to(), "only messages to itself: " + m);
        }
        assertEquals(CacheState.EXCLUSIVE, h.state(1, 1));
    }

    @Test
    void readMissFromAValidHomeTakesTwoTransactions() {
        ProtocolHarness h = harness(3, 3);
        ProtocolHarness.Issued r = h.read(0, 2, v -> { });
        assertFalse(r.done());
        drainFifo(h);
        assertTrue(r.done());
        assertEquals(0, r.value());
        assertEquals(2, r.hops());
        assertEquals(List.of(CoherenceMessage.ReadRequest.class, CoherenceMessage.Grant.class), deliveredKinds());
        assertEquals(CacheState.SHARED, h.state(0, 2));
        assertEquals(List.of(0, 2), h.sharers(2));
    }

    @Test
    void readMissOnARemotelyOwnedPartitionIsForwardedThroughTheHomeInFourTransactions() {
        ProtocolHarness h = harness(3, 3);
        h.write(1, 2, 42, NOTHING);
        drainFifo(h);
        assertEquals(CacheState.EXCLUSIVE, h.state(1, 2));
        assertEquals(CacheState.INVALID, h.state(2, 2), "the home's own copy was invalidated");
        net.clearLog();

        ProtocolHarness.Issued r = h.read(0, 2, v -> { });
        drainFifo(h);
        assertEquals(42, r.value());
        assertEquals(4, r.hops());
        assertEquals(List.of(CoherenceMessage.ReadRequest.class, CoherenceMessage.Forward.class,
            CoherenceMessage.ForwardReply.class, CoherenceMessage.Grant.class), deliveredKinds());
        assertEquals(CacheState.SHARED, h.state(1, 2), "the old owner keeps a shared copy");
        assertEquals(CacheState.SHARED, h.state(0, 2));
        assertEquals("SHARED", h.directoryState(2));
        // the home's memory was updated on the way: its own read is a local miss served with the new value
        net.clearLog();
        ProtocolHarness.Issued home = h.read(2, 2, v -> { });
        drainFifo(h);
        assertEquals(42, home.value());
        assertEquals(List.of(CoherenceMessage.ReadRequest.class, CoherenceMessage.Grant.class), deliveredKinds());
    }

    @Test
    void writeInvalidatesEverySharerBeforeGrantingOwnership() {
        ProtocolHarness h = harness(4, 4);
        for (int n = 0; n < 3; n++) {
            h.read(n, 3, v -> { });
        }
        drainFifo(h);
        assertEquals(List.of(0, 1, 2, 3), h.sharers(3));
        net.clearLog();

        ProtocolHarness.Issued w = h.write(0, 3, 5, NOTHING);
        // home gets the request and sends three invalidations; no grant before every ack is in
        h.deliver(net.next().message());
        assertEquals(3, net.pending());
        assertEquals("AWAIT_ACKS", h.directoryPhase(3));
        for (var m : net.inFlight()) {
            assertInstanceOf(CoherenceMessage.Invalidate.class, m.message().message());
        }
        drainFifo(h);
        assertTrue(w.done());
        assertEquals(4, w.hops());
        assertEquals(CacheState.EXCLUSIVE, h.state(0, 3));
        for (int n = 1; n < 4; n++) {
            assertEquals(CacheState.INVALID, h.state(n, 3));
        }
        assertEquals(0, h.owner(3));
        // node 0 was a sharer: the grant upgrades its copy without sending data
        CoherenceMessage.Grant g = (CoherenceMessage.Grant) net.delivered().getLast().message().message();
        assertNull(g.data());
    }

    @Test
    void ownershipPingPongMovesTheDataEachTime() {
        ProtocolHarness h = harness(3, 3);
        for (int round = 1; round <= 6; round++) {
            int writer = round % 2;
            long expected = round - 1;
            long[] seen = {-1};
            h.read(writer, 2, v -> seen[0] = v);
            h.write(writer, 2, round, NOTHING);
            drainFifo(h);
            assertEquals(expected, seen[0], "round " + round);
            assertEquals(CacheState.EXCLUSIVE, h.state(writer, 2));
            assertEquals(CacheState.INVALID, h.state(1 - writer, 2));
        }
    }

    @Test
    void theHomeSerializesConflictingRequests() {
        ProtocolHarness h = harness(3, 3);
        h.write(1, 2, 1, NOTHING);
        drainFifo(h);
        net.clearLog();
        ProtocolHarness.Issued a = h.write(0, 2, 10, NOTHING);
        ProtocolHarness.Issued b = h.write(2, 2, 20, NOTHING); // the home itself
        // deliver both requests: the first starts a forward, the second waits in the home's queue
        var first = net.inFlight().stream().filter(m -> m.message().from() == 0).findFirst().orElseThrow();
        h.deliver(net.take(first).message());
        var second = net.inFlight().stream().filter(m -> m.message().from() == 2).findFirst().orElseThrow();
        h.deliver(net.take(second).message());
        assertEquals("AWAIT_FORWARD", h.directoryPhase(2));
        assertEquals(1, h.queuedAtHome(2));
        drainFifo(h);
        assertTrue(a.done() && b.done());
        assertEquals(CacheState.EXCLUSIVE, h.state(2, 2));
        assertEquals(20L, h.copyValue(2, 2));
    }

    @Test
    void anInvalidationThatOvertakesItsGrantWaitsForItAndTheAccessStillRuns() {
        ProtocolHarness h = harness(3, 3);
        long[] seen = {-1};
        ProtocolHarness.Issued r = h.read(0, 2, v -> seen[0] = v);
        h.deliver(net.next().message()); // ReadRequest at home -> Grant to node 0 in flight
        var grant = net.inFlight().getFirst();
        ProtocolHarness.Issued w = h.write(1, 2, 9, NOTHING);
        var writeRequest = net.inFlight().stream()
            .filter(m -> m.message().message() instanceof CoherenceMessage.WriteRequest).findFirst().orElseThrow();
        h.deliver(net.take(writeRequest).message());
        // now an Invalidate for node 0 is in flight next to the grant; deliver the invalidate first
        var inv = net.inFlight().stream()
            .filter(m -> m.message().message() instanceof CoherenceMessage.Invalidate && m.message().to() == 0)
            .findFirst().orElseThrow();
        h.deliver(net.take(inv).message());
        assertFalse(r.done(), "the invalidation waits for the grant it revokes");
        h.deliver(net.take(grant).message());
        assertTrue(r.done());
        assertEquals(0, seen[0], "the read ran on the granted copy before the invalidation");
        drainFifo(h);
        assertTrue(w.done());
        assertEquals(CacheState.INVALID, h.state(0, 2));
        assertEquals(CacheState.EXCLUSIVE, h.state(1, 2));
    }

    /**
     * Random accesses by every node to two partitions, messages delivered in random order: after every step at most
     * one node holds a writable copy, and no node holds a readable copy next to it; every read sees the last write
     * made before it ran; every access completes.
     */
    @Test
    void randomAccessesUnderReorderingKeepSingleWriterAndFreshReads() {
        for (long seed = 0; seed < 300; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int nodes = 2 + random.nextInt(3);
            int partitions = 2;
            SimulatedNetwork<Envelope> network = new SimulatedNetwork<>();
            ProtocolHarness h = new ProtocolHarness("R", nodes, partitions, random.nextBoolean(),
                (e, unused) -> network.send(e.from(), e.to(), e));
            long[] lastWritten = new long[partitions];
            List<ProtocolHarness.Issued> accesses = new ArrayList<>();
            long nextValue = 1;
            int steps = 0;
            int issued = 0;
            while (issued < 60 || !network.idle()) {
                if (issued < 60 && (network.idle() || random.nextInt(3) == 0)) {
                    int n = random.nextInt(nodes);
                    int p = random.nextInt(partitions);
                    if (random.nextBoolean()) {
                        final long fseed = seed;
                        accesses.add(h.read(n, p, v -> {
                            if (v != lastWritten[p]) {
                                fail("seed " + fseed + ": node " + n + " read " + v + " from partition " + p
                                    + " but the last write was " + lastWritten[p]);
                            }
                        }));
                    } else {
                        long value = nextValue++;
                        accesses.add(h.write(n, p, value, () -> lastWritten[p] = value));
                    }
                    issued++;
                } else {
                    h.deliver(network.next(random).message());
                }
                steps++;
                for (int p = 0; p < partitions; p++) {
                    int exclusive = 0;
                    int readable = 0;
                    for (int n = 0; n < nodes; n++) {
                        CacheState s = h.state(n, p);
                        if (s == CacheState.EXCLUSIVE) {
                            exclusive++;
                        }
                        if (s != CacheState.INVALID) {
                            readable++;
                            assertEquals(lastWritten[p], h.copyValue(n, p),
                                "seed " + seed + " step " + steps + ": node " + n + " holds a stale valid copy of " + p);
                        }
                    }
                    assertTrue(exclusive <= 1, "seed " + seed + ": two writable copies of partition " + p);
                    assertTrue(exclusive == 0 || readable == 1,
                        "seed " + seed + ": a readable copy next to the writable one of partition " + p);
                }
                assertTrue(steps < 100_000, "seed " + seed + ": no progress");
            }
            for (ProtocolHarness.Issued a : accesses) {
                assertTrue(a.done(), "seed " + seed + ": an access never completed");
            }
            for (int n = 0; n < nodes; n++) {
                for (int p = 0; p < partitions; p++) {
                    assertEquals(0, h.waiting(n, p));
                    assertFalse(h.requestPending(n, p));
                }
            }
        }
    }
}
