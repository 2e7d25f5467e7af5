package dev.cumulus;

/**
 * A {@code long} shared by every node under a name (DSA's shared primitive variables), for counters and
 * synchronization. It lives on one home node; every operation is atomic there (linearizable), and a read-modify-write
 * from this node costs one round trip (none on the home node). Created by {@code cluster.sharedLong(name)}; starts at 0.
 */
public interface SharedLong {
    String name();

    /** The node that holds the value. */
    int homeNode();

    long get();

    void set(long value);

    long getAndSet(long value);

    long addAndGet(long delta);

    long getAndAdd(long delta);

    default long incrementAndGet() {
        return addAndGet(1);
    }

    default long decrementAndGet() {
        return addAndGet(-1);
    }

    /** Sets {@code update} if the value is {@code expect}; returns whether it did. */
    boolean compareAndSet(long expect, long update);

    /** Atomically sets {@code max(current, value)}; returns the new value. */
    long maxAndGet(long value);
}
