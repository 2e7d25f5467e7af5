package dev.cumulus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Remote objects that move (Babylon §4.2): the three kinds, forwarding, state by value, and refusals. */
@Timeout(120)
class MigrationTest {

    public interface Counter {
        int add(int amount);

        int value();

        List<String> log();

        /** Blocks until {@link #RELEASE} opens, then adds one. */
        int slowAdd();

        /** Migrates this very object from inside one of its methods. */
        void migrateMyself(Migration kind, int node);
    }

    static final CountDownLatch ENTERED = new CountDownLatch(1);
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    public static class CounterImpl implements Counter, MigrationAware {
        private int total;
        private final List<String> log = new ArrayList<>();
        transient Object proxyOfMe;
        static final AtomicInteger BEFORE = new AtomicInteger();
        static final AtomicInteger AFTER = new AtomicInteger();

        @Override
        public synchronized int add(int amount) {
            total += amount;
            log.add("+" + amount);
            return total;
        }

        @Override
        public synchronized int value() {
            return total;
        }

        @Override
        public synchronized List<String> log() {
            return log;
        }

        @Override
        public int slowAdd() {
            ENTERED.countDown();
            try {
                RELEASE.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return add(1);
        }

        @Override
        public void migrateMyself(Migration kind, int node) {
            Remote.migrate(proxyOfMe, node, kind);
        }

        @Override
        public void beforeMigration() {
            BEFORE.incrementAndGet();
        }

        @Override
        public void afterMigration() {
            AFTER.incrementAndGet();
        }
    }

    @Test
    void anIdleObjectMovesWithItsStateAndEveryProxyFollowsIt() {
        Map<Integer, Integer> seenValue = new ConcurrentHashMap<>();
        Map<Integer, Integer> seenNode = new ConcurrentHashMap<>();
        LocalCluster.run(3, cluster -> {
            Counter counter;
            if (cluster.nodeId() == 0) {
                counter = cluster.export(new CounterImpl(), Counter.class, "counter");
                counter.add(5);
            }
            cluster.barrier();
            counter = cluster.lookup("counter", Counter.class);
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                Remote.migrate(counter, 1, Migration.IDLE);
                assertEquals(1, Remote.nodeOf(counter));
                Remote.migrate(counter, 2, Migration.DELAYED);
                assertEquals(2, Remote.nodeOf(counter));
            }
            cluster.barrier();
            assertEquals(cluster.nodeId() == 0 ? 2 : 0, Remote.nodeOf(counter),
                "the proxy that moved it knows; one that has not called since keeps its old node");
            seenValue.put(cluster.nodeId(), counter.add(1)); // follows 0 -> 1 -> 2 once
            seenNode.put(cluster.nodeId(), Remote.nodeOf(counter));
            cluster.barrier();
            Counter fresh = cluster.lookup("counter", Counter.class);
            assertEquals(2, Remote.nodeOf(fresh), "the name directory points at the new place");
            assertEquals(8, fresh.value());
            assertEquals(List.of("+5", "+1", "+1", "+1"), fresh.log());
            cluster.barrier();
        });
        assertEquals(3, seenValue.size());
        assertEquals(List.of(6, 7, 8), seenValue.values().stream().sorted().toList(),
            "each call ran exactly once, on the moved state");
        assertEquals(Map.of(0, 2, 1, 2, 2, 2), seenNode);
        assertTrue(CounterImpl.BEFORE.get() >= 2 && CounterImpl.AFTER.get() >= 2, "MigrationAware was told");
    }

    @Test
    void idleRefusesABusyObjectAndDelayedWaitsForItsCallsAndHoldsNewOnes() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(3, cluster -> {
            if (cluster.nodeId() == 0) {
                cluster.export(new CounterImpl(), Counter.class, "busy");
            }
            cluster.barrier();
            Counter counter = cluster.lookup("busy", Counter.class);
            if (cluster.nodeId() == 1) {
                seen.put("slow", counter.slowAdd()); // runs on node 0 until node 2 releases it
            } else if (cluster.nodeId() == 2) {
                await(ENTERED);
                MigrationException busy = assertThrows(MigrationException.class,
                    () -> Remote.migrate(counter, 1, Migration.IDLE));
                seen.put("busy", busy.getMessage());
                assertEquals(0, Remote.nodeOf(counter), "a refused move leaves the object where it was");
                Thread mover = Thread.ofVirtual().start(() -> Remote.migrate(counter, 1, Migration.DELAYED));
                RELEASE.countDown();
                join(mover);
                seen.put("node", Remote.nodeOf(counter));
                seen.put("after", counter.add(10));
            }
            cluster.barrier();
        });
        assertTrue(((String) seen.get("busy")).contains("busy"), (String) seen.get("busy"));
        assertTrue(((String) seen.get("busy")).contains("DELAYED"), "the refusal says what would work");
        assertEquals(1, seen.get("slow"));
        assertEquals(1, seen.get("node"));
        assertEquals(11, seen.get("after"));
    }

    public interface Worker {
        /** Counts steps, calling Migration.point() after each, until {@link #STOP} is set. */
        String run();

        int runs();
    }

    static final CountDownLatch SAFE_ENTERED = new CountDownLatch(1);
    static volatile boolean stop;

    @SafeMode
    public static class SafeWorker implements Worker {
        private int runs;
        private int steps;

        @Override
        public String run() {
            runs++;
            do {
                steps++;
                SAFE_ENTERED.countDown();
                Migration.point();
                Thread.onSpinWait();
            } while (!stop);
            return "runs=" + runs + " steps=" + steps;
        }

        @Override
        public int runs() {
            return runs;
        }
    }

    @Test
    void aSafePointMigrationStopsTheCallRestoresTheCheckpointAndRunsItAgainOnTheNewNode() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 0) {
                cluster.export(new SafeWorker(), Worker.class, "safe");
            }
            cluster.barrier();
            Worker worker = cluster.lookup("safe", Worker.class);
            if (cluster.nodeId() == 0) {
                Thread caller = Thread.ofVirtual().start(() -> seen.put("result", worker.run()));
                await(SAFE_ENTERED);
                Remote.migrate(worker, 1, Migration.SAFE_POINT); // stops the running call at its next point
                seen.put("node", Remote.nodeOf(worker));
                stop = true; // the call, run again on node 1, may end now
                join(caller);
                seen.put("runs", worker.runs());
            }
            cluster.barrier();
        });
        assertEquals(1, seen.get("node"));
        assertTrue(String.valueOf(seen.get("result")).startsWith("runs=1 "),
            "the interrupted call's changes were undone and it ran again from its start: " + seen.get("result"));
        assertEquals(1, seen.get("runs"), "the caller saw one call");
    }

    @Test
    void refusalsAreClearAndTheObjectStillServes() {
        Map<String, String> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 0) {
                Counter counter = cluster.export(new CounterImpl(), Counter.class, "refusals");
                seen.put("range", assertThrows(MigrationException.class,
                    () -> Remote.migrate(counter, 7, Migration.IDLE)).getMessage());
                seen.put("proxy", assertThrows(MigrationException.class,
                    () -> Remote.migrate("not a proxy", 1, Migration.IDLE)).getMessage());
                seen.put("kind", assertThrows(MigrationException.class,
                    () -> Remote.migrate(counter, 1, Migration.SAFE_POINT)).getMessage());
                Holder holder = cluster.export(new HolderImpl(), Holder.class, "holder");
                seen.put("state", assertThrows(MigrationException.class,
                    () -> Remote.migrate(holder, 1, Migration.IDLE)).getMessage());
                assertEquals(0, Remote.nodeOf(holder));
                assertEquals(1, holder.ping());
                CounterImpl impl = new CounterImpl();
                Counter me = cluster.export(impl, Counter.class, "self");
                impl.proxyOfMe = me;
                seen.put("self", assertThrows(MigrationException.class,
                    () -> me.migrateMyself(Migration.DELAYED, 1)).getMessage());
                assertEquals(3, counter.add(3));
            }
            cluster.barrier();
        });
        assertTrue(seen.get("range").contains("nodes 0..1"), seen.get("range"));
        assertTrue(seen.get("proxy").contains("java.lang.String"), seen.get("proxy"));
        assertTrue(seen.get("kind").contains("@SafeMode"), seen.get("kind"));
        assertTrue(seen.get("state").contains("stream") && seen.get("state").contains("Thread"), seen.get("state"));
        assertTrue(seen.get("self").contains("its own object"), seen.get("self"));
    }

    @Test
    void anObjectThatFollowsItsCallsMovesToTheNodeThatMakesThem() {
        Map<String, Integer> seen = new ConcurrentHashMap<>();
        LocalCluster.run(3, cluster -> {
            if (cluster.nodeId() == 0) {
                Counter counter = cluster.export(new CounterImpl(), Counter.class, "follower");
                Remote.autoPlace(counter);
            }
            cluster.barrier();
            if (cluster.nodeId() == 2) {
                Counter counter = cluster.lookup("follower", Counter.class);
                int calls = 0;
                while (Remote.nodeOf(counter) != 2) { // the test's timeout bounds this
                    counter.add(1);
                    calls++;
                }
                seen.put("calls", calls);
                seen.put("value", counter.value());
            }
            cluster.barrier();
        });
        assertEquals(seen.get("calls"), seen.get("value"), "every call ran once while it moved");
    }

    public interface Fragile {
        int bump();
    }

    /** Refuses to arrive: its afterMigration throws on the new node, so the transfer fails there. */
    public static class FragileImpl implements Fragile, MigrationAware {
        private int bumps;
        private transient boolean arrived;

        @Override
        public synchronized int bump() {
            return ++bumps;
        }

        @Override
        public void afterMigration() {
            if (!arrived && bumps > 0) {
                // a fresh copy (transient arrived is false) on the new node
                throw new IllegalStateException("cannot reopen my file here");
            }
        }

        FragileImpl markArrived() {
            arrived = true;
            return this;
        }
    }

    @Test
    void aTransferThatFailsLeavesTheObjectServingWhereItWas() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 0) {
                Fragile fragile = cluster.export(new FragileImpl().markArrived(), Fragile.class, "fragile");
                fragile.bump();
                MigrationException failed = assertThrows(MigrationException.class,
                    () -> Remote.migrate(fragile, 1, Migration.DELAYED));
                seen.put("failed", failed.getMessage());
                seen.put("node", Remote.nodeOf(fragile));
                seen.put("bump", fragile.bump());
            }
            cluster.barrier();
        });
        assertTrue(((String) seen.get("failed")).contains("cannot reopen my file here"), (String) seen.get("failed"));
        assertTrue(((String) seen.get("failed")).contains("stays on node 0"), (String) seen.get("failed"));
        assertEquals(0, seen.get("node"));
        assertEquals(2, seen.get("bump"), "the object kept its state and serves where it was");
    }

    public interface Relay {
        /** Adds {@code amount} to the counter this relay keeps a proxy of. */
        int relay(int amount);
    }

    public static class RelayImpl implements Relay {
        private Counter counter;

        RelayImpl(Counter counter) {
            this.counter = counter;
        }

        @Override
        public int relay(int amount) {
            return counter.add(amount);
        }
    }

    @Test
    void aProxyStoredInAnObjectThatMovesKeepsWorkingAfterBothMoveAnyNumberOfTimes() {
        Map<String, Integer> seen = new ConcurrentHashMap<>();
        LocalCluster.run(3, cluster -> {
            if (cluster.nodeId() == 0) {
                Counter counter = cluster.export(new CounterImpl(), Counter.class, "stored-counter");
                Relay relay = cluster.export(new RelayImpl(counter), Relay.class, "relay");
                relay.relay(1);
                for (int round = 0; round < 6; round++) {
                    Remote.migrate(relay, (round + 1) % 3, Migration.DELAYED);
                    Remote.migrate(counter, (round + 2) % 3, Migration.IDLE);
                    relay.relay(1); // through the proxy the relay carried in its state
                }
                seen.put("value", counter.value());
                seen.put("relayNode", Remote.nodeOf(relay));
                seen.put("counterNode", Remote.nodeOf(counter));
            }
            cluster.barrier();
        });
        assertEquals(7, seen.get("value"), "every relayed call counted once");
        assertEquals(0, seen.get("relayNode"));
        assertEquals(1, seen.get("counterNode"));
    }

    public interface Holder {
        int ping();
    }

    public static class HolderImpl implements Holder {
        private final Thread stream = Thread.currentThread();

        @Override
        public int ping() {
            return stream == null ? 0 : 1;
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(60, TimeUnit.SECONDS), "timed out");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void join(Thread thread) {
        try {
            assertTrue(thread.join(java.time.Duration.ofSeconds(60)), "timed out");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
