package dev.cumulus.internal.array;

import dev.cumulus.Barrier;
import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One node's side of a named barrier. {@link Mode#TREE}: threads gather here and the last to arrive is the node's
 * proxy towards the root (DSA §3.2), so the root sees one arrival per node. {@link Mode#CENTRAL}: every thread
 * arrives at the root itself (the baseline the benchmark compares with). {@link Mode#LOCAL}: a node-local barrier.
 */
final class NodeBarrier implements Barrier {
    enum Mode { TREE, CENTRAL, LOCAL }

    private final ArrayRuntime runtime;
    private final String name;
    private final int localThreads;
    private final Mode mode;
    private final int root;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private long generation;
    private int arrived;
    private final List<String> arrivedThreads = new ArrayList<>();
    private RuntimeException broken;

    NodeBarrier(ArrayRuntime runtime, String name, int localThreads, Mode mode, int root) {
        this.runtime = runtime;
        this.name = name;
        this.localThreads = localThreads;
        this.mode = mode;
        this.root = root;
    }

    Mode mode() {
        return mode;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int localThreads() {
        return localThreads;
    }

    @Override
    public long generation() {
        lock.lock();
        try {
            return generation;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void await() {
        await(runtime.barrierTimeout());
    }

    @Override
    public void await(Duration timeout) {
        if (localThreads == 0) {
            throw new CumulusException("barrier '" + name + "': node " + runtime.self()
                + " joined it with 0 threads, so its threads cannot await it");
        }
        long timeoutNs = Math.max(1, timeout.toNanos());
        long deadline = System.nanoTime() + timeoutNs;
        ArrayEvents.BarrierWait event = new ArrayEvents.BarrierWait();
        event.begin();
        if (mode == Mode.CENTRAL) {
            runtime.flushAsync(deadline);
            long gen = runtime.service(root).barrierArrive(name, runtime.self(), 1, timeoutNs);
            lock.lock();
            try {
                generation = Math.max(generation, gen);
            } finally {
                lock.unlock();
            }
            commit(event, gen, "central");
            return;
        }
        long gen;
        lock.lock();
        try {
            if (broken != null) {
                throw rethrow(broken);
            }
            gen = generation;
            arrived++;
            arrivedThreads.add(Thread.currentThread().getName());
            if (arrived < localThreads) {
                while (generation == gen && broken == null) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        broken = new CumulusException("barrier '" + name + "' (generation " + (gen + 1)
                            + ") timed out after " + timeout.toMillis() + " ms on node " + runtime.self() + ": "
                            + arrived + " of " + localThreads + " local threads arrived " + arrivedThreads + ", "
                            + (localThreads - arrived) + " missing on this node");
                        released.signalAll();
                        break;
                    }
                    released.awaitNanos(left);
                }
                if (generation == gen) {
                    throw rethrow(broken);
                }
                commit(event, gen + 1, mode == Mode.LOCAL ? "node-local" : "local");
                return;
            }
            if (mode == Mode.LOCAL) {
                release();
                commit(event, gen + 1, "node-local");
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("barrier '" + name + "': interrupted while waiting", e);
        } finally {
            lock.unlock();
        }
        // this thread is the node's proxy
        RuntimeException failure = null;
        try {
            runtime.flushAsync(deadline);
            runtime.service(root).barrierArrive(name, runtime.self(), localThreads,
                Math.max(1, deadline - System.nanoTime()));
        } catch (RuntimeException e) {
            failure = e;
        }
        lock.lock();
        try {
            if (failure != null) {
                if (broken == null) {
                    broken = failure;
                }
                released.signalAll();
                throw rethrow(failure);
            }
            release();
        } finally {
            lock.unlock();
        }
        commit(event, gen + 1, "proxy");
    }

    private void release() {
        arrived = 0;
        arrivedThreads.clear();
        generation++;
        released.signalAll();
    }

    void fail(RuntimeException e) {
        lock.lock();
        try {
            if (broken == null) {
                broken = e;
            }
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private static RuntimeException rethrow(RuntimeException e) {
        if (e instanceof NodeFailedException nf) {
            return new NodeFailedException(nf.nodeId(), nf.getMessage());
        }
        return new CumulusException(e.getMessage(), e);
    }

    private void commit(ArrayEvents.BarrierWait event, long gen, String role) {
        event.end();
        if (event.shouldCommit()) {
            event.node = runtime.self();
            event.barrier = name;
            event.generation = gen;
            event.role = role;
            event.commit();
        }
    }
}
