package dev.cumulus.internal.array;

import dev.cumulus.CumulusException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The root of one named barrier, on the node the name hashes to: which nodes take part with how many threads, and
 * who has arrived in the current generation. Arrivals block (each on its own RPC virtual thread) until the last
 * member arrives or the timeout passes; a timeout breaks the barrier with a message naming who is missing.
 */
final class BarrierRoot {
    private final String name;
    private final int[] threads;
    private final int[] arrived;
    private Boolean tree;
    private long generation;
    private RuntimeException broken;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();

    BarrierRoot(String name, int nodes) {
        this.name = name;
        this.threads = new int[nodes];
        this.arrived = new int[nodes];
        Arrays.fill(threads, -1);
    }

    void join(int node, int count, boolean treeMode) {
        lock.lock();
        try {
            if (tree != null && tree != treeMode) {
                throw new CumulusException("barrier '" + name + "': node " + node + " joins it as a "
                    + (treeMode ? "tree" : "centralized") + " barrier, but it is " + (tree ? "tree" : "centralized"));
            }
            tree = treeMode;
            if (threads[node] >= 0 && threads[node] != count) {
                throw new CumulusException("barrier '" + name + "': node " + node + " joined it with " + threads[node]
                    + " threads and now with " + count + "; a node's thread count must not change");
            }
            threads[node] = count;
            maybeRelease();
        } finally {
            lock.unlock();
        }
    }

    long arrive(int node, int weight, long timeoutNs) {
        long deadline = System.nanoTime() + timeoutNs;
        lock.lock();
        try {
            if (broken != null) {
                throw broken;
            }
            long gen = generation;
            arrived[node] += weight;
            maybeRelease();
            while (generation == gen && broken == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    broken = new CumulusException(missing(timeoutNs));
                    released.signalAll();
                    break;
                }
                released.awaitNanos(left);
            }
            if (generation == gen) {
                throw broken;
            }
            return gen + 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("barrier '" + name + "': interrupted at the root", e);
        } finally {
            lock.unlock();
        }
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

    private void maybeRelease() {
        int expected = 0;
        int got = 0;
        for (int n = 0; n < threads.length; n++) {
            if (threads[n] < 0) {
                return;
            }
            expected += threads[n];
            got += arrived[n];
        }
        if (got >= expected && got > 0) {
            Arrays.fill(arrived, 0);
            generation++;
            released.signalAll();
        }
    }

    private String missing(long timeoutNs) {
        List<String> missing = new ArrayList<>();
        List<Integer> here = new ArrayList<>();
        for (int n = 0; n < threads.length; n++) {
            if (threads[n] < 0) {
                missing.add("node " + n + " (never created the barrier)");
            } else if (arrived[n] < threads[n]) {
                missing.add("node " + n + " (" + (threads[n] - arrived[n]) + " of " + threads[n] + " threads missing)");
            } else if (threads[n] > 0) {
                here.add(n);
            }
        }
        return "barrier '" + name + "' (generation " + (generation + 1) + ") timed out after "
            + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms: waiting for " + String.join(", ", missing)
            + "; arrived: nodes " + here + ". Does every member thread call await() the same number of times?";
    }
}
