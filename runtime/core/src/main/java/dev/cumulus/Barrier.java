package dev.cumulus;

import java.time.Duration;

/**
 * A named barrier for a group of threads (DSA §2.2, §3.2): {@link #await()} returns once every member thread has
 * entered it. Cluster barriers ({@code cluster.barrier(name, localThreads)}) are tree-structured: threads gather on
 * their node, and the last one to arrive acts as its node's proxy towards the barrier's root node, so network traffic
 * is per node, not per thread. Node-local barriers ({@code cluster.localBarrier(name, threads)}) never leave the
 * node. A barrier makes every shared-array write before it (including this node's pending asynchronous writes)
 * visible after it.
 *
 * <p>A barrier some members never reach times out (default {@link #DEFAULT_TIMEOUT}, or the system property
 * {@code cumulus.barrier.timeout.ms}) with a message naming who is missing; the barrier is then broken and every later
 * {@code await} fails at once. Reusable: generations follow each other.
 */
public interface Barrier {
    /** The timeout of {@link #await()} unless {@code -Dcumulus.barrier.timeout.ms} says otherwise: 5 minutes. */
    Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);

    /** The barrier's name. */
    String name();

    /** Member threads on this node. */
    int localThreads();

    /** Waits until every member thread has arrived, up to the default timeout. */
    void await();

    /**
     * Waits until every member thread has arrived.
     *
     * @throws CumulusException naming the missing nodes and threads when {@code timeout} passes first, or when the
     *                          barrier is broken
     */
    void await(Duration timeout);

    /** Completed generations (how many times the barrier has released on this node). */
    long generation();
}
