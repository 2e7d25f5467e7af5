package dev.cumulus.internal.rpc;

import dev.cumulus.MigrationPending;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * The calls of one {@code @SafeMode} object: they run one at a time, in the order they arrived, on a thread of their
 * own (never on the polling thread); the runner takes the state's checkpoint before each. Also the check behind
 * {@code Migration.point()}. Any thread submits.
 */
public final class SafeModeCalls {
    /** The gate of the safe-mode object whose call this thread runs, or null. */
    private static final ThreadLocal<ObjectGate> RUNNING = new ThreadLocal<>();

    private final ArrayDeque<Runnable> calls = new ArrayDeque<>();
    private final Executor threads;
    /** A thread drains {@link #calls} (guarded by this). */
    private boolean draining;

    SafeModeCalls(Executor threads) {
        this.threads = threads;
    }

    /** Queues a call; it runs after every call submitted before it. */
    void submit(Runnable call) {
        synchronized (this) {
            calls.add(call);
            if (draining) {
                return;
            }
            draining = true;
        }
        threads.execute(this::drain);
    }

    private void drain() {
        for (;;) {
            Runnable call;
            synchronized (this) {
                call = calls.poll();
                if (call == null) {
                    draining = false;
                    return;
                }
            }
            call.run();
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
