package dev.cumulus.internal.migration;

import dev.cumulus.MigrationException;
import dev.cumulus.MigrationPending;
import dev.cumulus.internal.rpc.ObjectGate;
import dev.cumulus.internal.rpc.ObjectMover;
import dev.cumulus.internal.rpc.RpcEngine;

import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Supplier;

/**
 * The calls of one {@code @SafeMode} object: they run one at a time, in the order they arrived, on a call thread of
 * the engine (never on the polling thread); each runs after a checkpoint of the object's state ({@link ObjectState}),
 * which a call that stops at {@code Migration.point()} gets put back before it is held first in line. Any thread
 * submits.
 *
 * <p>With the object's {@link ObjectGate} the queue is one waiting line. The draining thread takes a call and lets it
 * in at the gate, or has the gate hold it, in one step under the queue's lock; a move that ends ({@link #forward},
 * {@link #reopen}) takes that lock too, so it finds every call that came before it held at the gate or still queued,
 * never on its way between the two, and keeps them in the order they came.
 */
final class SafeModeCalls implements ObjectMover.SafeModeQueue {
    /** What {@link #admit} returns for a call the gate let in. */
    private static final int ENTERED = -3;

    private final ArrayDeque<ObjectGate.Held> calls = new ArrayDeque<>();
    private final RpcEngine engine;
    private final Object object;
    private final String name;
    private final ObjectGate gate;
    /** A thread drains {@link #calls} (guarded by this). */
    private boolean draining;

    SafeModeCalls(RpcEngine engine, Object object, String name, ObjectGate gate) {
        this.engine = engine;
        this.object = object;
        this.name = name;
        this.gate = gate;
    }

    @Override
    public void submit(ObjectGate.Held call) {
        synchronized (this) {
            calls.add(call);
            if (!startDraining()) {
                return;
            }
        }
        engine.runAsync(this::drain);
    }

    /**
     * Queues a call ahead of every queued call: one that was running and stopped at a migration point of a move that
     * gave up meanwhile; it runs again here, first.
     */
    private void submitFirst(ObjectGate.Held call) {
        synchronized (this) {
            calls.addFirst(call);
            if (!startDraining()) {
                return;
            }
        }
        engine.runAsync(this::drain);
    }

    /** True when no thread drains the queue yet and the caller is to start one (guarded by this). */
    private boolean startDraining() {
        if (draining || calls.isEmpty()) {
            return false;
        }
        draining = true;
        return true;
    }

    @Override
    public synchronized List<ObjectGate.Held> forward(Supplier<List<ObjectGate.Held>> forward) {
        List<ObjectGate.Held> waiting = forward.get();
        waiting.addAll(calls);
        calls.clear();
        return waiting;
    }

    @Override
    public int reopen(Supplier<List<ObjectGate.Held>> reopen) {
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
        engine.runAsync(this::drain);
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

    /**
     * Runs a call this queue let in: takes the checkpoint, runs {@code body} where {@code Migration.point()} sees the
     * object; when the call stopped at a migration point, puts the checkpoint back and holds the call first in line,
     * to run again on the new node (or here, if the move fails).
     */
    @Override
    public void serve(ObjectGate.Held call, Runnable body) {
        ObjectState layout = ObjectState.of(object.getClass());
        byte[] checkpoint;
        try {
            checkpoint = layout.capture(engine.codec(), object);
        } catch (RuntimeException e) {
            call.fail(new MigrationException("@SafeMode object '" + name + "' cannot take its checkpoint before a "
                + "call: " + e.getMessage(), e));
            return;
        }
        ObjectGate outer = ObjectGate.runningSafeCall(gate);
        try {
            body.run();
        } catch (MigrationPending stopped) {
            try {
                layout.restore(engine.codecFor(object.getClass().getClassLoader()), object, checkpoint);
            } catch (RuntimeException e) {
                // not held: it would run again on a state it half changed. Its caller hears; the queue goes on
                call.fail(new MigrationException("@SafeMode object '" + name + "' stopped at Migration.point() and "
                    + "could not put back the checkpoint taken before the call: " + e.getMessage() + "; the call did "
                    + "not finish, and the object keeps the state it had then", e));
                return;
            }
            if (!gate.holdFirst(call)) {
                // the move gave up meanwhile: the call runs again here, from the checkpoint, before the calls after it
                submitFirst(call);
            }
        } finally {
            ObjectGate.runningSafeCall(outer);
        }
    }
}
