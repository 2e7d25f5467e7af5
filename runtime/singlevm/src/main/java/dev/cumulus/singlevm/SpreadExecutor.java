package dev.cumulus.singlevm;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A fixed pool of worker threads taking tasks from one queue; all state is guarded by the executor's monitor. With
 * {@code --single-vm} the executor is a shared object, its workers are the program's own threads (so they run round
 * robin on the nodes), its queue is made of shared objects and its monitor is cluster-wide. Made by
 * {@link dev.cumulus.SingleVm#executor(int)}.
 */
public final class SpreadExecutor extends AbstractExecutorService {
    /** One queued task. */
    static final class Slot {
        final Runnable task;
        Slot next;

        Slot(Runnable task) {
            this.task = task;
        }
    }

    /** A worker: takes tasks until the executor is shut down and its queue is empty. */
    static final class Worker implements Runnable {
        private final SpreadExecutor pool;

        Worker(SpreadExecutor pool) {
            this.pool = pool;
        }

        @Override
        public void run() {
            try {
                for (Runnable task = pool.take(); task != null; task = pool.take()) {
                    try {
                        task.run();
                    } catch (RuntimeException | Error e) {
                        System.err.println("a task of " + Thread.currentThread().getName() + " threw " + e);
                    } finally {
                        pool.finished();
                    }
                }
            } finally {
                pool.workerEnded();
            }
        }
    }

    private Slot head;
    private Slot tail;
    private boolean shutdown;
    private int workers;
    private int running;

    /** Starts {@code n} workers named {@code name-i}. */
    public SpreadExecutor(int n, String name) {
        if (n < 1) {
            throw new IllegalArgumentException("an executor needs at least one worker, got " + n);
        }
        Thread[] threads = new Thread[n];
        synchronized (this) {
            workers = n;
            for (int i = 0; i < n; i++) {
                threads[i] = new Thread(new Worker(this), name + "-" + i);
            }
        }
        for (Thread t : threads) {
            t.start();
        }
    }

    @Override
    public synchronized void execute(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        if (shutdown) {
            throw new RejectedExecutionException("the executor is shut down; submit tasks before shutdown()");
        }
        Slot s = new Slot(task);
        if (tail == null) {
            head = s;
        } else {
            tail.next = s;
        }
        tail = s;
        notifyAll();
    }

    /** The next task, waiting for one; null once the executor is shut down and its queue is empty. */
    synchronized Runnable take() {
        while (head == null && !shutdown) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        if (head == null) {
            return null;
        }
        Slot s = head;
        head = s.next;
        if (head == null) {
            tail = null;
        }
        running++;
        return s.task;
    }

    synchronized void finished() {
        running--;
        notifyAll();
    }

    synchronized void workerEnded() {
        workers--;
        notifyAll();
    }

    /** Wakes whoever waits on this executor (a task finished: {@code invokeAny}). */
    synchronized void changed() {
        notifyAll();
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
        notifyAll();
    }

    /** Shuts down and returns the tasks that never started (running tasks are not interrupted). */
    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> never = new ArrayList<>();
        for (Slot s = head; s != null; s = s.next) {
            never.add(s.task);
        }
        head = null;
        tail = null;
        notifyAll();
        return never;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown && workers == 0;
    }

    @Override
    public synchronized boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!(shutdown && workers == 0)) {
            long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (leftMs <= 0) {
                return false;
            }
            wait(leftMs);
        }
        return true;
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable task, T value) {
        return new SharedFuture<>(this, null, task, value);
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> task) {
        return new SharedFuture<>(this, task, null, null);
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        try {
            return any(tasks, Long.MAX_VALUE);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no deadline, yet timed out", e);
        }
    }

    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return any(tasks, System.nanoTime() + unit.toNanos(timeout));
    }

    /** The result of the first task that completes normally; the others are cancelled. */
    private <T> T any(Collection<? extends Callable<T>> tasks, long deadlineNs)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (tasks.isEmpty()) {
            throw new IllegalArgumentException("invokeAny needs at least one task");
        }
        List<Future<T>> futures = new ArrayList<>();
        for (Callable<T> t : tasks) {
            futures.add(submit(t));
        }
        try {
            synchronized (this) {
                while (true) {
                    int failed = 0;
                    ExecutionException last = null;
                    for (Future<T> f : futures) {
                        if (f.isDone()) {
                            try {
                                return f.get();
                            } catch (ExecutionException e) {
                                failed++;
                                last = e;
                            }
                        }
                    }
                    if (failed == futures.size()) {
                        throw last;
                    }
                    long leftMs = deadlineNs == Long.MAX_VALUE ? 0
                        : Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime()));
                    if (deadlineNs != Long.MAX_VALUE && System.nanoTime() >= deadlineNs) {
                        throw new TimeoutException("no task of invokeAny completed in time");
                    }
                    wait(leftMs);
                }
            }
        } finally {
            futures.forEach(f -> f.cancel(false));
        }
    }
}
