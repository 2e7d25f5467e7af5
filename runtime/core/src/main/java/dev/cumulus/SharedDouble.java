package dev.cumulus;

/**
 * A {@code double} shared by every node under a name; every operation is atomic on its home node. Created by
 * {@code cluster.sharedDouble(name)}; starts at 0. {@link #compareAndSet} compares bit patterns
 * ({@code Double.doubleToRawLongBits}).
 *
 * @see SharedLong
 */
public interface SharedDouble {
    String name();

    /** The node that holds the value. */
    int homeNode();

    double get();

    void set(double value);

    double getAndSet(double value);

    double addAndGet(double delta);

    double getAndAdd(double delta);

    boolean compareAndSet(double expect, double update);

    /** Atomically sets {@code max(current, value)}; returns the new value. */
    double maxAndGet(double value);

    /** Atomically sets {@code min(current, value)}; returns the new value. */
    double minAndGet(double value);
}
