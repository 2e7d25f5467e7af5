package dev.cumulus.internal.node;

/**
 * How the node's idle main thread sleeps until a message comes instead of parking in timed steps: the host's
 * doorbells ({@code NodeTransport}). Senders ring a sleeping node's bell after they write to it.
 */
interface Doorbell {
    /**
     * Senders ring from now on; the caller looks for work once more before it sleeps. {@code nap}: the sleep that
     * follows is bounded ({@link NodeSettings.Scheduling#NAP_NS}), so a thread of this node may {@link #keep} the bell.
     */
    void announceSleep(boolean nap);

    /** Sleeps until rung or {@code timeoutNs} passed (at once when rung already); {@code nap} as announced. */
    void sleep(boolean nap, long timeoutNs);

    /**
     * A thread of this node that stops polling but will poll again soon keeps the bell of the napping main thread:
     * senders do not ring until the nap ends. False when the main thread sleeps unbounded (or is awake): hand back.
     */
    boolean keep();

    /** True when a thread of this node keeps the bell ({@link #keep}): the main thread's next nap may be on it. */
    boolean kept();

    /**
     * Naps on the kept bell as it is, announcing nothing (senders do not ring), until woken, the bell changes (a hand
     * back, then a ring) or {@code timeoutNs} passed.
     */
    void napKept(long timeoutNs);

    /** The node is awake: senders need not ring. */
    void awake();

    /** Another thread polls now: senders need not ring until it hands the bell back with {@link #announceSleep}
     * or keeps it ({@link #keep}). */
    void takeOver();

    /** Wakes the node's sleeping main thread whatever its bell says (a caller that ran out of looks). */
    void wake();

    /** A thread of this node waits for a message, last seen on {@code cpu}. */
    void waiting(int cpu);

    /** The thread that published {@code cpu} stops waiting. */
    void notWaiting(int cpu);

    /** True when a thread of some node on this host waits for a message and last ran on {@code cpu}. */
    boolean waiterOn(int cpu);
}
