package dev.cumulus.internal.rpc;

import dev.cumulus.MigrationPending;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The calls of one {@code @SafeMode} object: they run one at a time, in the order they arrived, on a thread of their
 * own (never on the polling thread); the runner takes the state's checkpoint before each. Also the check behind
 * {@code Migration.point()}. Any thread submits.
 *
 * <p>With the object's {@link ObjectGate} the queue is one waiting line. The draining thread takes a call and lets it
 * in at the gate, or has the gate hold it, in one step under the queue's lock; a move that ends ({@link #forward},
 * {@link #reopen}) takes that lock too, so it finds every call that came before it held at the gate or still queued,
 * never on its way between the two, and keeps them in the order they came.
 */
public final class SafeModeCalls {
    /** The gate of the safe-mode object whose call this thread runs, or null. */
    private static final ThreadLocal<ObjectGate> RUNNING = new ThreadLocal<>();
    /** What {@link #admit} returns for a call the gate let in. */
    private static final int ENTERED = -3;

    private final ArrayDeque<ObjectGate.Held> calls = new ArrayDeque<>();
    private final ObjectGate gate;
    private final Executor threads;
    /** A thread drains {@link #calls} (guarded by this). */
    private boolean draining;

    SafeModeCalls(ObjectGate gate, Executor threads) {
        this.gate = gate;
        this.threads = threads;
    }

    /** Queues a call; it runs after every call submitted before it. */
    void submit(ObjectGate.Held call) {
        synchronized (this) {
            calls.add(call);
            if (!startDraining()) {
                return;
            }
        }
        threads.execute(this::drain);
    }

    /**
     * Queues a call ahead of every queued call: one that was running and stopped at a migration point of a move that
     * gave up meanwhile; it runs again here, first.
     */
    void submitFirst(ObjectGate.Held call) {
        synchronized (this) {
            calls.addFirst(call);
            if (!startDraining()) {
                return;
            }
        }
        threads.execute(this::drain);
    }

    /** True when no thread drains the queue yet and the caller is to start one (guarded by this). */
    private boolean startDraining() {
        if (draining || calls.isEmpty()) {
            return false;
        }
        draining = true;
        return true;
    }

    /**
     * The object moved for good: {@code forward} leaves the gate forwarding and returns the calls it held; the calls
     * still queued leave the queue and join them, after them, in the order they came. Returns them all: they wait for
     * the object's new node.
     */
    synchronized List<ObjectGate.Held> forward(Supplier<List<ObjectGate.Held>> forward) {
        List<ObjectGate.Held> waiting = forward.get();
        waiting.addAll(calls);
        calls.clear();
        return waiting;
    }

    /**
     * The gate opens: {@code reopen} opens it and returns the calls it held, which go ahead of the calls queued
     * meanwhile, in their order (they came first). Returns how many it held.
     */
    int reopen(Supplier<List<ObjectGate.Held>> reopen) {
        int held;
        synchronized (this) {
            List<ObjectGate.Held> first = reopen.get();
            held = first.size();
            for (int i = first.size() - 1; i >= 0; i--) {
                calls.addFirst(first.get(i));
            }
            if (!startDraining()) {
                return held;
            }
        }
        threads.execute(this::drain);
        return held;
    }

    private void drain() {
        for (;;) {
            ObjectGate.Held call;
            int admitted;
            synchronized (this) {
                call = calls.poll();
                if (call == null) {
                    draining = false;
                    return;
                }
                admitted = admit(call);
            }
            if (admitted == ENTERED) {
                call.runEntered();
            } else if (admitted >= 0) {
                call.forwardTo(admitted); // the object moved there
            } // else the gate holds it for a move under way
        }
    }

    /**
     * Lets {@code call} in at the gate ({@link #ENTERED}), or has the gate hold it (-1), or returns the node the object
     * moved to (answer the call with it). Under this queue's lock.
     */
    private int admit(ObjectGate.Held call) {
        for (;;) {
            if (gate.enter()) {
                return ENTERED;
            }
            int node = gate.holdOrForward(call);
            if (node != -2) {
                return node;
            }
            // the gate opened between the two looks: try to enter again
        }
    }

    /** Runs {@code body} as a call of the safe-mode object behind {@code gate} ({@link #migrationPoint} sees it). */
    static void runAs(ObjectGate gate, Runnable body) {
        ObjectGate outer = RUNNING.get();
        RUNNING.set(gate);
        try {
            body.run();
        } finally {
            RUNNING.set(outer);
        }
    }

    /**
     * Makes this thread's calls of {@code Migration.point()} see the safe-mode object behind {@code gate} (null: none)
     * for a nested call; returns the gate they saw before, to put back.
     */
    static ObjectGate runningAs(ObjectGate gate) {
        ObjectGate outer = RUNNING.get();
        if (outer != gate) {
            RUNNING.set(gate);
        }
        return outer;
    }

    /**
     * {@code Migration.point()}: throws {@link MigrationPending} when this thread runs a call of a safe-mode object
     * whose safe-point migration is pending; else nothing.
     */
    public static void migrationPoint() {
        ObjectGate gate = RUNNING.get();
        if (gate != null && gate.safePointPending()) {
            throw new MigrationPending();
        }
    }
}
