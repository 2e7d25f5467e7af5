package dev.cumulus.internal.rpc;

import dev.cumulus.LocalCluster;
import dev.cumulus.Migration;
import dev.cumulus.MigrationAware;
import dev.cumulus.MigrationException;
import dev.cumulus.MigrationPending;
import dev.cumulus.Remote;
import dev.cumulus.SafeMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Migration at its edges: calls of an object that re-enter it, {@code Migration.point()} in a nested call, a
 * {@code beforeMigration} that throws, a transfer whose mover is interrupted. Looks at the object's {@link ObjectGate}
 * to wait for the moment a move has closed it.
 */
@Timeout(120)
class MigrationEdgesTest {
    /** How long a test waits for a condition before it fails (a hang is the failure these tests look for). */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    public interface Nester {
        /** Waits for {@code go}, then calls {@link #add} of its own object through its proxy. */
        int outer();

        int add(int amount);

        /** Calls a method of another object of its node, which runs {@code Migration.point()} until released. */
        String callOther();
    }

    static final CountDownLatch NEST_ENTERED = new CountDownLatch(1);
    static final CountDownLatch NEST_GO = new CountDownLatch(1);

    public static class NesterImpl implements Nester {
        private int total;
        Nester self;
        Spinner other;

        @Override
        public int outer() {
            NEST_ENTERED.countDown();
            await(NEST_GO);
            return self.add(1);
        }

        @Override
        public synchronized int add(int amount) {
            total += amount;
            return total;
        }

        @Override
        public String callOther() {
            return other.spin();
        }
    }

    @Test
    void aMethodThatCallsItsOwnObjectWhileADelayedMoveWaitsForItDoesNotDeadlock() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 0) {
                NesterImpl impl = new NesterImpl();
                Nester nester = cluster.export(impl, Nester.class, "nester");
                impl.self = Remote.withTimeout(nester, PATIENCE); // a hang shows as a timeout
                Thread caller = Thread.ofVirtual().start(() -> {
                    try {
                        seen.put("outer", nester.outer());
                    } catch (Throwable t) {
                        seen.put("outer", t);
                    }
                });
                await(NEST_ENTERED);
                Thread mover = Thread.ofVirtual().start(() -> Remote.migrate(nester, 1, Migration.DELAYED));
                waitFor(() -> closed(gateOf(nester)), "the move closes the gate");
                NEST_GO.countDown(); // the running method now calls its own object
                join(caller);
                join(mover);
                seen.put("node", Remote.nodeOf(nester));
                seen.put("after", nester.add(10));
            }
            cluster.barrier();
        });
        assertEquals(1, seen.get("outer"), "the nested call of the running method ran (it was not held behind "
            + "the move that waits for that method): " + seen.get("outer"));
        assertEquals(1, seen.get("node"));
        assertEquals(11, seen.get("after"));
    }

    public interface Reentrant {
        /** Calls {@link #inner} through its own proxy. */
        int outer();

        int inner();
    }

    @SafeMode
    public static class SafeReentrant implements Reentrant {
        Reentrant self;
        private int calls;

        @Override
        public int outer() {
            calls++;
            return self.inner() + 1;
        }

        @Override
        public int inner() {
            calls++;
            return calls;
        }
    }

    @Test
    void aSafeModeMethodThatCallsItsOwnObjectDoesNotDeadlock() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(1, cluster -> {
            SafeReentrant impl = new SafeReentrant();
            Reentrant reentrant = cluster.export(impl, Reentrant.class, "reentrant");
            impl.self = Remote.withTimeout(reentrant, PATIENCE);
            try {
                seen.put("outer", reentrant.outer());
            } catch (Throwable t) {
                seen.put("outer", t);
            }
        });
        assertEquals(3, seen.get("outer"), "the nested call ran inside the outer one, as a synchronized method "
            + "re-enters its monitor: " + seen.get("outer"));
    }

    public interface Spinner {
        /** Runs {@code Migration.point()} until {@link #SPIN_STOP}; says whether a point threw. */
        String spin();
    }

    static final CountDownLatch SPIN_ENTERED = new CountDownLatch(1);
    static final AtomicLong SPINS = new AtomicLong();
    static volatile boolean spinStop;
    static final AtomicBoolean POINT_THREW = new AtomicBoolean();

    /** Not {@code @SafeMode}: {@code Migration.point()} is a no-op in its methods. */
    public static class PlainSpinner implements Spinner {
        @Override
        public String spin() {
            SPIN_ENTERED.countDown();
            while (!spinStop) {
                try {
                    Migration.point();
                } catch (MigrationPending p) {
                    POINT_THREW.set(true);
                    throw p;
                }
                SPINS.incrementAndGet();
            }
            return "spun";
        }
    }

    @SafeMode
    public static class SafeNester extends NesterImpl {
    }

    @Test
    void migrationPointInANestedLocalCallOfAnotherObjectIsANoOp() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 0) {
                Spinner spinner = cluster.export(new PlainSpinner(), Spinner.class, "spinner");
                SafeNester impl = new SafeNester();
                impl.other = spinner;
                Nester safe = cluster.export(impl, Nester.class, "safe-nester");
                Thread caller = Thread.ofVirtual().start(() -> {
                    try {
                        seen.put("result", safe.callOther());
                    } catch (Throwable t) {
                        seen.put("result", t);
                    }
                });
                await(SPIN_ENTERED);
                Thread mover = Thread.ofVirtual().start(() -> Remote.migrate(safe, 1, Migration.SAFE_POINT));
                ObjectGate gate = gateOf(safe);
                waitFor(gate::safePointPending, "the safe-point move is pending");
                long spins = SPINS.get();
                waitFor(() -> POINT_THREW.get() || SPINS.get() > spins + 1, "the spinner passes its point again");
                spinStop = true;
                join(caller);
                join(mover);
                seen.put("node", Remote.nodeOf(safe));
            }
            cluster.barrier();
        });
        assertFalse(POINT_THREW.get(), "Migration.point() in a method of an object that is not @SafeMode threw "
            + "MigrationPending because the thread also ran a call of a @SafeMode object");
        assertEquals("spun", seen.get("result"));
        assertEquals(1, seen.get("node"));
    }

    public interface Flaky {
        int bump();
    }

    /** Its first {@code beforeMigration} throws (a file it could not close); later ones let it go. */
    public static class FlakyImpl implements Flaky, MigrationAware {
        static final AtomicInteger BEFORE = new AtomicInteger();
        private int bumps;

        @Override
        public synchronized int bump() {
            return ++bumps;
        }

        @Override
        public void beforeMigration() {
            if (BEFORE.incrementAndGet() == 1) {
                throw new IllegalStateException("cannot close my file now");
            }
        }
    }

    /** The same, for the rebalancer test (its own count). */
    public static class FlakyFollower implements Flaky, MigrationAware {
        static final AtomicInteger BEFORE = new AtomicInteger();
        private int bumps;

        @Override
        public synchronized int bump() {
            return ++bumps;
        }

        @Override
        public void beforeMigration() {
            if (BEFORE.incrementAndGet() == 1) {
                throw new IllegalStateException("cannot close my file now");
            }
        }
    }

    @Test
    void aBeforeMigrationThatThrowsDoesNotStopTheRebalancer() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(3, cluster -> {
            if (cluster.nodeId() == 0) {
                Flaky flaky = cluster.export(new FlakyFollower(), Flaky.class, "flaky");
                Remote.autoPlace(flaky);
            }
            cluster.barrier();
            if (cluster.nodeId() == 2) {
                Flaky flaky = cluster.lookup("flaky", Flaky.class);
                int calls = 0;
                long deadline = System.nanoTime() + PATIENCE.toNanos();
                while (Remote.nodeOf(flaky) != 2 && System.nanoTime() < deadline) {
                    flaky.bump();
                    calls++;
                }
                seen.put("node", Remote.nodeOf(flaky));
                seen.put("calls", calls);
                seen.put("value", flaky.bump() - 1);
            }
            cluster.barrier();
        });
        assertTrue(FlakyFollower.BEFORE.get() >= 2, "the rebalancer tried again after the first move failed: "
            + FlakyFollower.BEFORE.get());
        assertEquals(2, seen.get("node"), "the object follows its calls once beforeMigration lets it go");
        assertEquals(seen.get("calls"), seen.get("value"));
    }

    @Test
    void aBeforeMigrationThatThrowsRefusesTheMoveWithAMigrationException() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 1) {
                Flaky flaky = cluster.export(new FlakyImpl(), Flaky.class, "flaky-refusal");
                Throwable refused = assertThrows(Throwable.class, () -> Remote.migrate(flaky, 0, Migration.IDLE));
                seen.put("refused", refused);
                seen.put("node", Remote.nodeOf(flaky));
                seen.put("bump", flaky.bump());
            }
            cluster.barrier();
        });
        MigrationException refused = assertInstanceOf(MigrationException.class, seen.get("refused"),
            "Remote.migrate documents MigrationException for an object that cannot move");
        assertTrue(refused.getMessage().contains("cannot close my file now"), refused.getMessage());
        assertEquals(1, seen.get("node"));
        assertEquals(1, seen.get("bump"));
    }

    public interface Signal {
        /** Waits until {@link #signal} is called (a long call, as a worker's run()). */
        String awaitSignal();

        void signal();

        int ping();
    }

    static final CountDownLatch SIGNAL_WAITING = new CountDownLatch(1);
    static final CountDownLatch SIGNALLED = new CountDownLatch(1);

    public static class SignalImpl implements Signal {
        private int pings;

        @Override
        public String awaitSignal() {
            SIGNAL_WAITING.countDown();
            MigrationEdgesTest.await(SIGNALLED);
            return "signalled";
        }

        @Override
        public void signal() {
            SIGNALLED.countDown();
        }

        @Override
        public synchronized int ping() {
            return ++pings;
        }
    }

    @Test
    void theRebalancerDoesNotHoldTheCallsOfAnObjectWhoseLongCallWaitsForOneOfThem() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(3, cluster -> {
            if (cluster.nodeId() == 0) {
                Signal signal = cluster.export(new SignalImpl(), Signal.class, "signal");
                Remote.autoPlace(signal);
            }
            cluster.barrier();
            Signal signal = Remote.withTimeout(cluster.lookup("signal", Signal.class), PATIENCE);
            if (cluster.nodeId() == 1) {
                try {
                    seen.put("waited", signal.awaitSignal()); // runs until node 0 signals
                } catch (Throwable t) {
                    seen.put("waited", t);
                }
            } else if (cluster.nodeId() == 2) {
                await(SIGNAL_WAITING);
                Thread pinger = Thread.ofVirtual().start(() -> { // node 2 makes most calls: the object should come
                    try {
                        while (!seen.containsKey("waited")) {
                            signal.ping();
                        }
                    } catch (Throwable t) {
                        seen.put("ping", t);
                    }
                });
                join(pinger);
            } else {
                await(SIGNAL_WAITING);
                ObjectGate gate = gateOf(signal);
                waitFor(() -> closed(gate), "the rebalancer starts to move the object (DELAYED)");
                try {
                    signal.signal(); // the call the long call waits for
                    seen.put("signal", "ok");
                } catch (Throwable t) {
                    seen.put("signal", t);
                }
            }
            cluster.barrier();
        });
        assertEquals("signalled", seen.get("waited"), "the rebalancer's move held the call the running call waits for");
        assertEquals("ok", seen.get("signal"));
    }

    /** A value whose constructor refuses while {@link #refuseTokens} is set: decoding it then fails. */
    public record Token(int value) {
        public Token {
            if (refuseTokens) {
                throw new IllegalStateException("tokens are refused now");
            }
        }
    }

    static volatile boolean refuseTokens;
    static final CountDownLatch FUSSY_ENTERED = new CountDownLatch(1);
    static volatile boolean fussyStop;

    public interface Fussy {
        /** Makes its checkpoint undecodable, then runs Migration.point() until {@link #fussyStop}. */
        int run();

        int value();
    }

    @SafeMode
    public static class FussyImpl implements Fussy {
        private Token token = new Token(1);

        @Override
        public int run() {
            refuseTokens = true;
            FUSSY_ENTERED.countDown();
            while (!fussyStop) {
                Migration.point();
                Thread.onSpinWait();
            }
            return token.value();
        }

        @Override
        public int value() {
            return token.value();
        }
    }

    @Test
    void aCheckpointThatCannotBeRestoredAnswersTheCallAndTheObjectGoesOnServing() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 0) {
                Fussy fussy = Remote.withTimeout(cluster.export(new FussyImpl(), Fussy.class, "fussy"), PATIENCE);
                Thread caller = Thread.ofVirtual().start(() -> {
                    try {
                        seen.put("run", fussy.run());
                    } catch (Throwable t) {
                        seen.put("run", t);
                    }
                });
                await(FUSSY_ENTERED);
                try {
                    Remote.migrate(fussy, 1, Migration.SAFE_POINT); // the new node cannot decode the state either
                    seen.put("migrate", "moved");
                } catch (Throwable t) {
                    seen.put("migrate", t);
                }
                fussyStop = true;
                join(caller);
                refuseTokens = false;
                try {
                    seen.put("value", fussy.value());
                } catch (Throwable t) {
                    seen.put("value", t);
                }
            }
            cluster.barrier();
        });
        assertInstanceOf(MigrationException.class, seen.get("migrate"));
        assertFalse(seen.get("run") instanceof dev.cumulus.RemoteTimeoutException,
            "the stopped call whose checkpoint did not restore got no answer: " + seen.get("run"));
        assertEquals(1, seen.get("value"), "the object's call queue goes on after a failed restore");
    }

    public interface Arriving {
        int value();
    }

    static final CountDownLatch ARRIVING = new CountDownLatch(1);
    static final CountDownLatch ARRIVE = new CountDownLatch(1);

    /** Its copy on the new node waits in {@code afterMigration} until the test lets it arrive. */
    public static class ArrivingImpl implements Arriving, MigrationAware {
        private int value = 7;
        private transient boolean original;

        ArrivingImpl markOriginal() {
            original = true;
            return this;
        }

        @Override
        public int value() {
            return value;
        }

        @Override
        public void afterMigration() {
            if (!original) {
                ARRIVING.countDown();
                await(ARRIVE);
            }
        }
    }

    @Test
    void aMoverInterruptedDuringTheTransferLeavesOneCopyOfTheObject() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 0) {
                Arriving arriving = cluster.export(new ArrivingImpl().markOriginal(), Arriving.class, "arriving");
                Thread mover = Thread.ofVirtual().start(() -> {
                    try {
                        Remote.migrate(arriving, 1, Migration.IDLE);
                        seen.put("moved", "yes");
                    } catch (Throwable t) {
                        seen.put("moved", t);
                    }
                });
                await(ARRIVING); // node 1 builds the copy
                mover.interrupt();
                ARRIVE.countDown();
                join(mover);
                long id = handlerOf(arriving).ref().objectId();
                seen.put("servedHere", engineOf(arriving).exports().get(id).gate().movedTo() < 0);
                seen.put("id", id);
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                long id = (long) waitForValue(seen, "id");
                RpcEngine engine = engineOf(cluster.lookup("arriving", Arriving.class));
                // ARRIVE let the copy in: the receive ends by serving it here
                waitFor(() -> engine.exports().get(id) != null, "node 1 serves the copy it received");
                seen.put("copyHere", engine.exports().get(id).gate().movedTo() < 0);
            }
            cluster.barrier();
        });
        boolean servedOn0 = (boolean) seen.get("servedHere");
        boolean servedOn1 = (boolean) seen.get("copyHere");
        assertFalse(servedOn0 && servedOn1, "two live copies: node 0 reopened after the interrupt (" + seen.get("moved")
            + ") while node 1 serves the copy it received");
    }

    // ------------------------------------------------------------------------------------------ helpers

    static RemoteInvocationHandler handlerOf(Object proxy) {
        return (RemoteInvocationHandler) Proxy.getInvocationHandler(proxy);
    }

    static RpcEngine engineOf(Object proxy) {
        try {
            Field engine = RemoteInvocationHandler.class.getDeclaredField("engine");
            engine.setAccessible(true);
            return (RpcEngine) engine.get(handlerOf(proxy));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The gate of the object behind {@code proxy} on the proxy's node, where the object lives. */
    static ObjectGate gateOf(Object proxy) {
        return engineOf(proxy).exports().get(handlerOf(proxy).ref().objectId()).gate();
    }

    static boolean closed(ObjectGate gate) {
        try {
            Field state = ObjectGate.class.getDeclaredField("state");
            state.setAccessible(true);
            return (((AtomicInteger) state.get(gate)).get() & (1 << 30)) != 0;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    static void waitFor(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            Thread.onSpinWait();
        }
    }

    static Object waitForValue(Map<String, Object> map, String key) {
        waitFor(() -> map.containsKey(key), key + " is set");
        return map.get(key);
    }

    static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(PATIENCE.toSeconds(), TimeUnit.SECONDS), "timed out");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static void join(Thread thread) {
        try {
            assertTrue(thread.join(PATIENCE.plusSeconds(5)), "timed out");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
