package dev.cumulus.singlevm;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A task of a {@link SpreadExecutor} and its outcome, guarded by its monitor. A failure reaches {@link #get} as the
 * cause of an {@link ExecutionException}, as {@code FutureTask} gives it: with {@code --single-vm} the exception moves
 * between nodes as any exception in a shared field does (docs/design/SINGLEVM.md, "Wire form").
 */
final class SharedFuture<V> implements RunnableFuture<V> {
    private static final int NEW = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;
    private static final int FAILED = 3;
    private static final int CANCELLED = 4;

    private final SpreadExecutor pool;
    private final Callable<V> callable;
    private final Runnable runnable;
    private Object result;
    private Throwable failure;
    private int state;

    SharedFuture(SpreadExecutor pool, Callable<V> callable, Runnable runnable, V value) {
        this.pool = pool;
        this.callable = callable;
        this.runnable = runnable;
        this.result = value;
    }

    @Override
    public void run() {
        synchronized (this) {
            if (state != NEW) {
                return;
            }
            state = RUNNING;
        }
        Object value = null;
        Throwable failed = null;
        try {
            if (callable != null) {
                value = callable.call();
            } else {
                runnable.run();
            }
        } catch (Throwable e) {
            failed = e;
        }
        synchronized (this) {
            if (failed != null) {
                failure = failed;
                state = FAILED;
            } else {
                if (callable != null) {
                    result = value;
                }
                state = DONE;
            }
            notifyAll();
        }
        pool.changed();
    }

    @Override
    public synchronized boolean cancel(boolean mayInterruptIfRunning) {
        if (state != NEW) {
            return false;
        }
        state = CANCELLED;
        notifyAll();
        return true;
    }

    @Override
    public synchronized boolean isCancelled() {
        return state == CANCELLED;
    }

    @Override
    public synchronized boolean isDone() {
        return state >= DONE;
    }

    @Override
    public synchronized V get() throws InterruptedException, ExecutionException {
        while (state < DONE) {
            wait();
        }
        return outcome();
    }

    @Override
    public synchronized V get(long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (state < DONE) {
            long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (leftMs <= 0) {
                throw new TimeoutException("the task did not complete in " + timeout + " " + unit);
            }
            wait(leftMs);
        }
        return outcome();
    }

    @SuppressWarnings("unchecked")
    private V outcome() throws ExecutionException {
        return switch (state) {
            case DONE -> (V) result;
            case FAILED -> throw new ExecutionException(failure);
            default -> throw new CancellationException("the task was cancelled");
        };
    }
}
