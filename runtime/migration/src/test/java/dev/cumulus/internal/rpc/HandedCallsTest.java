package dev.cumulus.internal.rpc;

import dev.cumulus.AsyncTicket;
import dev.cumulus.LocalCluster;
import dev.cumulus.Migration;
import dev.cumulus.Remote;
import dev.cumulus.SafeMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.cumulus.internal.rpc.MigrationEdgesTest.PATIENCE;
import static dev.cumulus.internal.rpc.MigrationEdgesTest.await;
import static dev.cumulus.internal.rpc.MigrationEdgesTest.closed;
import static dev.cumulus.internal.rpc.MigrationEdgesTest.engineOf;
import static dev.cumulus.internal.rpc.MigrationEdgesTest.handlerOf;
import static dev.cumulus.internal.rpc.MigrationEdgesTest.join;
import static dev.cumulus.internal.rpc.MigrationEdgesTest.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The calls that wait for a move go to the object's new node with it and run there first, in the order they came to
 * the old node, whichever nodes made them: three callers' calls reach a {@code @SafeMode} journal in a known order
 * (each waits until the one before is queued there) while the call it runs keeps the move waiting.
 */
@Timeout(120)
class HandedCallsTest {
    /** The nodes whose calls come, in this order (not the nodes' order, which a chance resend order might match). */
    static final int[] CALLERS = {3, 1, 2};

    public interface Journal {
        /** Notes "hold" once {@code holdGo} opens. */
        void hold();

        /** Runs until a pending safe-point move stops it, the first time; then notes "spin". */
        void spin();

        void note(String entry);

        List<String> entries();
    }

    static volatile CountDownLatch holdEntered;
    static volatile CountDownLatch holdGo;
    static final AtomicInteger SPINS = new AtomicInteger();

    @SafeMode
    public static class JournalImpl implements Journal {
        private final ArrayList<String> entries = new ArrayList<>();

        @Override
        public void hold() {
            holdEntered.countDown();
            await(holdGo);
            entries.add("hold");
        }

        @Override
        public void spin() {
            if (SPINS.incrementAndGet() == 1) {
                holdEntered.countDown();
                long deadline = System.nanoTime() + PATIENCE.toNanos();
                while (System.nanoTime() < deadline) {
                    Migration.point(); // throws once the safe-point move is pending
                    Thread.onSpinWait();
                }
                throw new AssertionError("no safe-point move stopped the call");
            }
            entries.add("spin");
        }

        @Override
        public void note(String entry) {
            entries.add(entry);
        }

        @Override
        public List<String> entries() {
            return entries;
        }
    }

    @Test
    void callsHeldWhileADelayedMoveWaitsForARunningCallRunOnTheNewNodeInTheOrderTheyCame() {
        Map<String, Object> seen = run(Migration.DELAYED);
        assertEquals(List.of("hold", "from 3", "from 1", "from 2"), seen.get("entries"));
        assertEquals(1, seen.get("node"));
    }

    @Test
    void aCallStoppedAtAMigrationPointRunsFirstOnTheNewNodeThenTheCallsThatWaited() {
        Map<String, Object> seen = run(Migration.SAFE_POINT);
        assertEquals(List.of("spin", "from 3", "from 1", "from 2"), seen.get("entries"));
        assertEquals(1, seen.get("node"));
    }

    /**
     * Node 0 serves the journal and starts a call that keeps it busy ({@code hold} for a delayed move, {@code spin}
     * for a safe-point one); the {@link #CALLERS} call it in turn, each once the call before is queued on node 0; the
     * journal moves to node 1. Returns what the journal noted and where node 0 finds it then.
     */
    private static Map<String, Object> run(Migration kind) {
        holdEntered = new CountDownLatch(1);
        holdGo = new CountDownLatch(1);
        SPINS.set(0);
        AtomicReference<ExportTable.Exported> served = new AtomicReference<>();
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(4, cluster -> {
            int me = cluster.nodeId();
            if (me == 0) {
                Journal journal = cluster.export(new JournalImpl(), Journal.class, "journal");
                served.set(engineOf(journal).exports().get(handlerOf(journal).ref().objectId()));
            }
            cluster.barrier();
            Journal journal = cluster.lookup("journal", Journal.class);
            Thread busy = null;
            Thread mover = null;
            if (me == 0) {
                busy = Thread.ofVirtual().start(kind == Migration.DELAYED ? journal::hold : journal::spin);
                await(holdEntered);
                if (kind == Migration.DELAYED) {
                    mover = move(journal, kind);
                    waitFor(() -> closed(served.get().gate()), "the move closes the gate");
                }
            }
            cluster.barrier();
            Journal ticket = null;
            for (int turn = 0; turn < CALLERS.length; turn++) {
                if (me == CALLERS[turn]) {
                    ticket = AsyncTicket.newTicket(journal);
                    ticket.note("from " + me);
                    int queuedBefore = turn + 1;
                    waitFor(() -> queued(served.get().safeMode()) == queuedBefore, "node " + me + "'s call is queued");
                }
                cluster.barrier(); // the next caller's call comes after this one's
            }
            if (me == 0) {
                if (kind == Migration.SAFE_POINT) {
                    mover = move(journal, kind); // the spinning call stops at its next Migration.point()
                }
                holdGo.countDown();
                join(mover);
                join(busy);
            } else if (ticket != null) {
                AsyncTicket.getResult(ticket);
            }
            cluster.barrier();
            if (me == 0) {
                seen.put("entries", journal.entries());
                seen.put("node", Remote.nodeOf(journal));
            }
            cluster.barrier();
        });
        return seen;
    }

    private static Thread move(Journal journal, Migration kind) {
        return Thread.ofVirtual().start(() -> Remote.migrate(journal, 1, kind));
    }

    /** The calls waiting in a safe-mode object's queue (not yet at its gate). */
    static int queued(ObjectMover.SafeModeQueue queue) {
        try {
            Field calls = queue.getClass().getDeclaredField("calls"); // runtime/migration's SafeModeCalls
            calls.setAccessible(true);
            synchronized (queue) {
                return ((ArrayDeque<?>) calls.get(queue)).size();
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
