package dev.cumulus.internal.rpc;

import dev.cumulus.MigrationException;
import dev.cumulus.MigrationPending;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Where calls enter one remote object on this node, so that it can migrate: it counts the calls running its methods,
 * and while a migration moves it, new calls are held here (not refused); once it has moved, the held calls go to its
 * new node with it, and later calls are answered with that node ({@link #movedTo()}, the forwarding address that stays
 * behind). Any thread.
 *
 * <p>A call {@link #enter}s (one atomic increment) and {@link #exit}s. The migrator closes the gate
 * ({@link #close}), waits for the running calls ({@link #awaitIdle}), and either opens it again ({@link #reopen}) or
 * leaves it closed for good ({@link #forward}); both hand back the calls held meanwhile, in arrival order. Only one
 * migration of the object runs at a time: {@link #close} waits for an earlier one to end. On the node an object moves
 * to, its gate starts closed ("arriving"): calls that reach it there wait until the calls handed over with it are
 * dispatched ahead of them ({@link #reopenWith}).
 */
public final class ObjectGate {
    /** A call that waits at a closed gate. */
    public interface Held {
        /** The gate opened (the migration failed, or the object arrived here): run the call here, never inline. */
        void runHere();

        /**
         * Runs the call, which this gate let in ({@link #enter}); it leaves the gate as it ends. A safe-mode object's
         * queue lets its calls in itself ({@link ObjectMover.SafeModeQueue}).
         */
        void runEntered();

        /** Answers the call with {@code failure}: it does not run. */
        void fail(Throwable failure);

        /** The object moved to {@code node}: answer the call with it. */
        void forwardTo(int node);

        /** The node that sent the call. */
        int source();

        /** The node its caller sent it to, in whose name it is answered (it may have been handed over since). */
        int sentTo();

        /** The call message as it came. */
        byte[] message();

        /** The call was handed over to the object's new node, which answers it: it has left this node. */
        default void handedOver() {
        }
    }

    /** The gate of the safe-mode object whose call this thread runs, or null ({@link #migrationPoint}). */
    private static final ThreadLocal<ObjectGate> SAFE_CALL = new ThreadLocal<>();
    /** Set in {@link #state} while the gate is closed; the low bits count the calls inside. */
    private static final int CLOSED = 1 << 30;
    private final AtomicInteger state = new AtomicInteger();
    /** How many times the object moved before it came to this node: orders the name directory's updates. */
    private final int moves;
    /** The node the object moved to, or -1 while it lives here. */
    private volatile int movedTo = -1;
    /** A safe-point migration waits for the running call to reach {@code Migration.point()}. */
    private volatile boolean safePointPending;
    /** Counts the calls let in by their caller node while the object follows its calls ({@link #countCalls}). */
    private volatile IntConsumer callCounter;
    /** Calls that came while the gate was closed, in arrival order (guarded by this). */
    private List<Held> held = new ArrayList<>();
    /** A migration of the object is under way (guarded by this). */
    private boolean migrating;
    /** The object is arriving here: the calls handed over with it have not come yet (guarded by this). */
    private boolean arriving;

    /**
     * @param moves    how many times the object moved before it came here
     * @param arriving the object is arriving: the gate starts closed, holding calls, until the calls handed over with
     *                 it come ({@link #reopenWith})
     */
    ObjectGate(int moves, boolean arriving) {
        this.moves = moves;
        if (arriving) {
            this.arriving = true;
            migrating = true;
            state.set(CLOSED);
        }
    }

    public int moves() {
        return moves;
    }

    /** Waits until no migration of the object runs (one that starts later is not waited for). */
    public synchronized void awaitMigrationEnd() throws InterruptedException {
        while (migrating) {
            wait();
        }
    }

    /**
     * Makes this thread's calls of {@code Migration.point()} see the safe-mode object behind {@code gate} (null: none),
     * for a call it runs; returns the gate they saw before, to put back.
     */
    public static ObjectGate runningSafeCall(ObjectGate gate) {
        ObjectGate outer = SAFE_CALL.get();
        if (outer != gate) {
            SAFE_CALL.set(gate);
        }
        return outer;
    }

    /**
     * {@code Migration.point()}: throws {@link MigrationPending} when this thread runs a call of a safe-mode object
     * whose safe-point migration is pending; else nothing.
     */
    public static void migrationPoint() {
        ObjectGate gate = SAFE_CALL.get();
        if (gate != null && gate.safePointPending) {
            throw new MigrationPending();
        }
    }

    /** Lets a call in; false when the gate is closed (then {@link #holdOrForward}). */
    public boolean enter() {
        if (state.getAndIncrement() >= CLOSED) {
            exit();
            return false;
        }
        return true;
    }

    /**
     * Lets in a call of a thread that already runs a method of the object (a nested local call), even while the gate
     * is closed: the migration that closed it waits for the outer call, which waits for this one.
     */
    void reenter() {
        state.getAndIncrement();
    }

    /** Counts a call of node {@code source} that entered, while the object follows its calls. */
    void tally(int source) {
        IntConsumer counter = callCounter;
        if (counter != null) {
            counter.accept(source);
        }
    }

    /** From now on, each call let in is counted by {@code counter}, given its caller node; the first counter stays. */
    public void countCalls(IntConsumer counter) {
        if (callCounter == null) {
            callCounter = counter;
        }
    }

    /** What counts the calls let in ({@link #countCalls}), or null while the object does not follow its calls. */
    public IntConsumer callCounter() {
        return callCounter;
    }

    /** A call that {@link #enter}ed has ended. */
    void exit() {
        if (state.decrementAndGet() == CLOSED) {
            synchronized (this) {
                notifyAll(); // the migrator waits for the last running call
            }
        }
    }

    /** The calls running the object's methods now. */
    public int running() {
        return state.get() & (CLOSED - 1);
    }

    /** The node the object moved to, or -1 while it lives here. */
    public int movedTo() {
        return movedTo;
    }

    boolean safePointPending() {
        return safePointPending;
    }

    /**
     * For a call that could not {@link #enter}: holds it while a migration runs and returns -1, or returns the node
     * the object moved to (answer the call with it). Returns -2 when the gate opened meanwhile: enter again.
     */
    public synchronized int holdOrForward(Held call) {
        if (movedTo >= 0) {
            return movedTo;
        }
        if ((state.get() & CLOSED) != 0) {
            held.add(call);
            return -1;
        }
        return -2;
    }

    /**
     * Holds a call that was running and stopped at a migration point: it runs first, here or on the new node. False
     * when the migration ended meanwhile (one that gave up waiting): then nobody would take it, and it runs here again.
     */
    public synchronized boolean holdFirst(Held call) {
        if (!migrating) {
            return false;
        }
        held.addFirst(call);
        return true;
    }

    /**
     * Closes the gate for a migration, after any earlier migration of the object ended. Returns false (gate not
     * closed) when the object has moved meanwhile.
     */
    public synchronized boolean close(boolean safePoint) throws InterruptedException {
        while (migrating) {
            wait();
        }
        if (movedTo >= 0) {
            return false;
        }
        migrating = true;
        safePointPending = safePoint;
        state.getAndAdd(CLOSED);
        return true;
    }

    /**
     * Waits until no call runs the object's methods (the gate is closed, so none starts), for at most
     * {@code timeoutNs} (0: as long as it takes); false when calls still run then.
     */
    public synchronized boolean awaitIdle(long timeoutNs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNs;
        while (running() > 0) {
            if (timeoutNs == 0) {
                wait();
            } else {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
        return true;
    }

    /**
     * The object arrived here and {@code first}, the calls handed over with it, are to run before the calls that came
     * here meanwhile: the gate opens; returns both, in that order, to run here.
     */
    synchronized List<Held> reopenWith(List<Held> first) {
        if (!arriving) {
            throw new MigrationException("the object is not arriving on this node: the calls handed over with it came "
                + "already, or it never moved here");
        }
        arriving = false;
        held.addAll(0, first);
        return reopen();
    }

    /** The migration failed: the gate opens; returns the calls held meanwhile, to run here in order. */
    public synchronized List<Held> reopen() {
        state.getAndAdd(-CLOSED);
        return endMigration();
    }

    /** The object moved to {@code node}: the gate stays closed for good; returns the calls held, to answer. */
    synchronized List<Held> forward(int node) {
        movedTo = node;
        return endMigration();
    }

    private List<Held> endMigration() {
        List<Held> taken = held;
        held = new ArrayList<>();
        migrating = false;
        safePointPending = false;
        notifyAll();
        return taken;
    }
}
