package dev.cumulus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Four nodes call eight counters (per-caller sequence numbers) while threads on two nodes migrate them at random with
 * all three kinds; afterwards every call was applied exactly once and in each caller's order, and every node finds
 * every object at the same place. CI runs it for a few seconds; {@code ./build chaos [SECONDS]} runs it longer, handing
 * the seconds over in {@value #SECONDS_VARIABLE}.
 */
@Timeout(600)
class MigrationChaosTest {
    static final int NODES = 4;
    static final int OBJECTS = 8;
    static final int CALLERS_PER_NODE = 2;
    /** How long the objects move, in seconds; unset: {@value #DEFAULT_SECONDS} (what the suite does). */
    static final String SECONDS_VARIABLE = "CUMULUS_CHAOS_SECONDS";
    static final long DEFAULT_SECONDS = 4;

    public interface SeqCounter {
        /** Applies call {@code seq} of {@code caller}; returns false if it came out of that caller's order. */
        boolean apply(String caller, long seq);

        /** How many calls of {@code caller} were applied, and whether all came in order ({@code -1} if not). */
        long applied(String caller);
    }

    /** The state that moves: per caller, the last sequence number applied and whether any came out of order. */
    public static class PlainCounter implements SeqCounter {
        private final HashMap<String, Long> last = new HashMap<>();
        private boolean disordered;

        @Override
        public synchronized boolean apply(String caller, long seq) {
            long previous = last.getOrDefault(caller, 0L);
            if (seq != previous + 1) {
                disordered = true;
            }
            last.put(caller, seq);
            return seq == previous + 1;
        }

        @Override
        public synchronized long applied(String caller) {
            return disordered ? -1 : last.getOrDefault(caller, 0L);
        }
    }

    @SafeMode
    public static class SafeCounter extends PlainCounter {
        @Override
        public synchronized boolean apply(String caller, long seq) {
            Migration.point();
            return super.apply(caller, seq);
        }
    }

    static long seconds(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_SECONDS;
        }
        try {
            long seconds = Long.parseLong(value.strip());
            if (seconds >= 1) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(SECONDS_VARIABLE + "=" + value + " is not a number of seconds: give a "
            + "whole number of at least 1, e.g. ./build chaos 60");
    }

    @Test
    void everyCallRunsExactlyOnceInItsCallersOrderWhileObjectsMoveAtRandom() {
        long seconds = seconds(System.getenv(SECONDS_VARIABLE));
        Map<String, Long> sent = new ConcurrentHashMap<>();
        Map<String, Long> applied = new ConcurrentHashMap<>();
        Map<Integer, List<Integer>> locations = new ConcurrentHashMap<>();
        AtomicInteger moves = new AtomicInteger();
        AtomicInteger refusedBusy = new AtomicInteger();
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        LocalCluster.run(NODES, cluster -> {
            int me = cluster.nodeId();
            for (int i = 0; i < OBJECTS; i++) {
                if (i % NODES == me) {
                    if (i % 2 == 0) {
                        cluster.export(new SafeCounter(), SeqCounter.class, "c" + i);
                    } else {
                        cluster.export(new PlainCounter(), SeqCounter.class, "c" + i);
                    }
                }
            }
            cluster.barrier();
            SeqCounter[] counters = new SeqCounter[OBJECTS];
            for (int i = 0; i < OBJECTS; i++) {
                counters[i] = cluster.lookup("c" + i, SeqCounter.class);
            }
            AtomicBoolean running = new AtomicBoolean(true);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < CALLERS_PER_NODE; t++) {
                String caller = me + "/" + t;
                boolean async = t % 2 == 1;
                threads.add(Thread.ofPlatform().start(() -> noting(failures, running,
                    () -> call(caller, async, counters, running, sent))));
            }
            if (me < 2) { // two migrators: moves of one object may meet
                threads.add(Thread.ofPlatform().start(() -> noting(failures, running,
                    () -> migrate(counters, running, moves, refusedBusy))));
            }
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
                try {
                    Thread.sleep(50); // the test's own duration, not a wait for an outcome
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            running.set(false);
            for (Thread thread : threads) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            cluster.barrier(); // every call of every node has returned
            for (int i = 0; i < OBJECTS; i++) {
                for (int t = 0; t < CALLERS_PER_NODE; t++) {
                    String caller = me + "/" + t;
                    applied.put(caller + "@c" + i, counters[i].applied(caller));
                }
            }
            cluster.barrier();
            List<Integer> where = new ArrayList<>();
            for (int i = 0; i < OBJECTS; i++) {
                counters[i].applied("nobody"); // a stale proxy finds the object once
                where.add(Remote.nodeOf(counters[i]));
            }
            locations.put(me, where);
            cluster.barrier();
        });
        failures.forEach(Throwable::printStackTrace);
        assertTrue(failures.isEmpty(), failures.size() + " caller or migrator threads failed, first: " + failures.peek());
        assertTrue(moves.get() > 0, "no object moved");
        assertEquals(sent.keySet(), applied.keySet());
        for (Map.Entry<String, Long> e : sent.entrySet()) {
            assertEquals(e.getValue(), applied.get(e.getKey()),
                e.getKey() + ": calls sent vs applied in order (-1: out of order)");
        }
        for (int node = 1; node < NODES; node++) {
            assertEquals(locations.get(0), locations.get(node), "node " + node + " finds the objects elsewhere");
        }
        System.out.println("chaos: " + moves.get() + " moves, " + refusedBusy.get() + " idle moves refused as busy, "
            + sent.values().stream().mapToLong(Long::longValue).sum() + " calls");
    }

    /** Runs {@code body}; a failure is kept for the test and stops every thread of the run. */
    private static void noting(Queue<Throwable> failures, AtomicBoolean running, Runnable body) {
        try {
            body.run();
        } catch (Throwable t) {
            failures.add(t);
            running.set(false);
        }
    }

    private static void call(String caller, boolean async, SeqCounter[] counters, AtomicBoolean running,
                             Map<String, Long> sent) {
        long[] seq = new long[OBJECTS];
        while (running.get()) {
            int i = ThreadLocalRandom.current().nextInt(OBJECTS);
            long next = seq[i] + 1;
            boolean inOrder;
            if (async) {
                SeqCounter ticket = AsyncTicket.newTicket(counters[i]);
                ticket.apply(caller, next);
                inOrder = AsyncTicket.<Boolean>getResult(ticket);
            } else {
                inOrder = counters[i].apply(caller, next);
            }
            assertTrue(inOrder, caller + " call " + next + " on c" + i + " came out of order");
            seq[i] = next;
        }
        for (int i = 0; i < OBJECTS; i++) {
            sent.put(caller + "@c" + i, seq[i]);
        }
    }

    private static void migrate(SeqCounter[] counters, AtomicBoolean running, AtomicInteger moves,
                                AtomicInteger refusedBusy) {
        Migration[] kinds = Migration.values();
        while (running.get()) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            int i = random.nextInt(OBJECTS);
            Migration kind = kinds[random.nextInt(kinds.length)];
            if (kind == Migration.SAFE_POINT && i % 2 == 1) {
                kind = Migration.DELAYED; // plain counters are not @SafeMode
            }
            try {
                Remote.migrate(counters[i], random.nextInt(NODES), kind);
                moves.incrementAndGet();
            } catch (MigrationException e) {
                if (kind != Migration.IDLE || !e.getMessage().contains("busy")) {
                    throw e;
                }
                refusedBusy.incrementAndGet();
            }
        }
    }
}
