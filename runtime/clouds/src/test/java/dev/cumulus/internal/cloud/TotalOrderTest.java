package dev.cumulus.internal.cloud;

import dev.cumulus.internal.node.NodeSettings;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ordering protocol on a simulated network that delays and reorders messages (a random scheduler picks which
 * in-flight message arrives next), with random broadcasts from every node, interleaved with token migrations.
 */
@Timeout(60)
class TotalOrderTest {

    /** A simulated network: one queue per (source, destination); {@code fifo} keeps each queue in order. */
    static final class SimNetwork {
        final Map<Long, ArrayDeque<OrderMessage>> queues = new HashMap<>();
        final Random random;
        final boolean fifo;
        int inFlight;

        SimNetwork(Random random, boolean fifo) {
            this.random = random;
            this.fifo = fifo;
        }

        TotalOrder.Network from(int source) {
            return (destination, message) -> {
                // round-trip the encoding so the codec is exercised too
                UnsafeBuffer b = new UnsafeBuffer(new byte[OrderMessage.encodedLength(message)]);
                int n = OrderMessage.encode(message, new OrderFlyweight().wrap(b, 0));
                OrderMessage copy = OrderMessage.decode(new OrderFlyweight().wrap(b, 0), n, 64);
                queues.computeIfAbsent(((long) source << 32) | destination, k -> new ArrayDeque<>()).add(copy);
                inFlight++;
            };
        }

        /** Delivers one random in-flight message; returns false when none is in flight. */
        boolean step(TotalOrder[] nodes) {
            List<Long> busy = queues.entrySet().stream().filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey)
                .toList();
            if (busy.isEmpty()) {
                return false;
            }
            long key = busy.get(random.nextInt(busy.size()));
            ArrayDeque<OrderMessage> q = queues.get(key);
            OrderMessage m;
            if (fifo || q.size() == 1) {
                m = q.poll();
            } else {
                List<OrderMessage> list = new ArrayList<>(q);
                m = list.remove(random.nextInt(list.size()));
                q.clear();
                q.addAll(list);
            }
            inFlight--;
            nodes[(int) key].onMessage((int) (key >>> 32), m);
            return true;
        }
    }

    record Delivered(long seq, int origin, int counter) {
    }

    private static byte[] payload(int origin, int counter) {
        return ByteBuffer.allocate(8).putInt(origin).putInt(counter).array();
    }

    private static List<List<Delivered>> simulate(int size, NodeSettings.Sequencer mode, long seed, int perNode,
                                                  boolean fifo, int[] migrationsOut) {
        Random random = new Random(seed);
        SimNetwork net = new SimNetwork(random, fifo);
        List<List<Delivered>> delivered = new ArrayList<>();
        TotalOrder[] nodes = new TotalOrder[size];
        for (int i = 0; i < size; i++) {
            List<Delivered> log = new ArrayList<>();
            delivered.add(log);
            nodes[i] = new TotalOrder(i, size, mode, 0, net.from(i), (seq, origin, p) -> {
                ByteBuffer b = ByteBuffer.wrap(p);
                log.add(new Delivered(seq, origin, b.getInt(4)));
                assertEquals(origin, b.getInt(0), "origin travels with the payload");
            }, (from, next, waitingCount) -> migrationsOut[0]++);
        }
        int[] sent = new int[size];
        int total = size * perNode;
        long guard = 0;
        while (true) {
            boolean allSent = true;
            for (int s : sent) {
                allSent &= s == perNode;
            }
            if (allSent && net.inFlight == 0 && delivered.stream().allMatch(l -> l.size() == total)) {
                break;
            }
            assertTrue(++guard < 5_000_000, "the protocol made no progress (livelock or lost message)");
            int action = random.nextInt(10);
            int node = random.nextInt(size);
            if (action < 2 && sent[node] < perNode) {
                nodes[node].submit(payload(node, sent[node]++));
            } else if (action < 5) {
                nodes[node].doWork();
            } else if (!net.step(nodes)) {
                nodes[node].doWork();
            }
        }
        for (TotalOrder n : nodes) {
            assertEquals(0, n.earlyCount());
            assertEquals(total - 1, n.delivered());
        }
        return delivered;
    }

    @ParameterizedTest(name = "{0} nodes, {1}, seed {2}")
    @CsvSource({
        "1, MIGRATING, 1", "2, MIGRATING, 2", "3, MIGRATING, 3", "4, MIGRATING, 4", "5, MIGRATING, 5",
        "4, MIGRATING, 6", "4, MIGRATING, 7", "8, MIGRATING, 8",
        "1, STATIC, 1", "2, STATIC, 2", "3, STATIC, 3", "4, STATIC, 4", "8, STATIC, 8"})
    void everyNodeDeliversTheSameSequenceExactlyOnceInSenderOrder(int size, NodeSettings.Sequencer mode, long seed) {
        int[] migrations = new int[1];
        List<List<Delivered>> logs = simulate(size, mode, seed, 60, true, migrations);
        List<Delivered> reference = logs.getFirst();
        for (List<Delivered> log : logs) {
            assertEquals(reference, log, "all nodes deliver the same messages in the same order");
        }
        Set<String> seen = new HashSet<>();
        int[] lastCounter = new int[size];
        Arrays.fill(lastCounter, -1);
        for (int i = 0; i < reference.size(); i++) {
            Delivered d = reference.get(i);
            assertEquals(i, d.seq(), "numbers are consecutive from 0");
            assertTrue(seen.add(d.origin() + ":" + d.counter()), "delivered once: " + d);
            assertEquals(lastCounter[d.origin()] + 1, d.counter(), "each sender's messages keep their order");
            lastCounter[d.origin()] = d.counter();
        }
        if (mode == NodeSettings.Sequencer.STATIC) {
            assertEquals(0, migrations[0], "a static sequencer never moves");
        } else if (size > 1) {
            assertTrue(migrations[0] > 0, "the token migrated to writers");
        }
    }

    @Test
    void agreementHoldsEvenWhenEveryMessageMayOvertakeEveryOther() {
        for (long seed = 100; seed < 110; seed++) {
            List<List<Delivered>> logs = simulate(4, NodeSettings.Sequencer.MIGRATING, seed, 40, false, new int[1]);
            for (List<Delivered> log : logs) {
                assertEquals(logs.getFirst(), log);
            }
        }
    }

    @Test
    void aLoneWriterKeepsTheTokenAfterOneMigration() {
        Random random = new Random(1);
        SimNetwork net = new SimNetwork(random, true);
        int[] migrations = new int[1];
        TotalOrder[] nodes = new TotalOrder[3];
        for (int i = 0; i < 3; i++) {
            nodes[i] = new TotalOrder(i, 3, NodeSettings.Sequencer.MIGRATING, 0, net.from(i), (s, o, p) -> { },
                (f, n, w) -> migrations[0]++);
        }
        for (int k = 0; k < 50; k++) {
            nodes[2].submit(payload(2, k));
            do {
                for (TotalOrder n : nodes) {
                    n.doWork();
                }
            } while (net.step(nodes));
        }
        assertEquals(1, migrations[0], "the token moved to node 2 once and stayed");
        assertTrue(nodes[2].holding());
        assertEquals(49, nodes[1].delivered());
    }
}
