package dev.cumulus.array;

import java.util.concurrent.CompletableFuture;

/**
 * What every shared array offers besides typed access: its shape, its partitions (the unit of caching and
 * coherence), their home nodes, and explicit control over where copies are (DSA §2.2). Created collectively by name
 * and {@link ArrayShape} through {@code cluster.sharedDoubleArray("A", ArrayShape.of(rows, cols).blocks(32, 32))} and
 * its int, long and float siblings; every node gets its own view of the same array.
 *
 * <p>Consistency is relaxed (DSA §3.1): a write has invalidated every other copy once it has returned, but a thread
 * that wants to see another thread's writes synchronizes with it first, through a {@link dev.cumulus.Barrier} or a
 * shared scalar, as in any thread-safe Java program. An element behaves like one of a plain Java array: a loop that
 * reads it without synchronizing may keep seeing the value it read first (the JIT may keep it in a register), so do
 * not spin on an element waiting for another node — use a barrier or a {@link dev.cumulus.SharedLong}. A barrier
 * makes every write before it visible after it.
 *
 * <p>Indices: {@code (i, j)} with {@code 0 <= i < rows()}, {@code 0 <= j < cols()}; an array with one row is also
 * indexed by {@code i} alone. Partitions are numbered row-major over the {@code rows/blockRows x cols/blockCols}
 * grid. Views are thread-safe.
 *
 * <p>Errors follow Java's arrays: an element, region or partition index outside the array throws
 * {@link IndexOutOfBoundsException} with the array's name, the index and the bound, before any message is sent, so
 * the same on every node whether the partition's home is here or elsewhere; so does a region larger than its buffer.
 * A one-index access ({@code get(i)}) of an array with more than one row throws
 * {@link UnsupportedOperationException}; a null buffer {@link NullPointerException}. Cluster conditions (a failed
 * node, an interrupted wait) throw {@link dev.cumulus.CumulusException}s.
 */
public interface SharedArray {
    /** The name the array was created under. */
    String name();

    int rows();

    int cols();

    /** {@code rows() * cols()}. */
    default long length() {
        return (long) rows() * cols();
    }

    int blockRows();

    int blockCols();

    Distribution distribution();

    /** Number of partitions. */
    int partitions();

    /** The partition holding element {@code i} of a one-row array. */
    int partitionOf(int i);

    /** The partition holding element {@code (i, j)}. */
    int partitionOf(int i, int j);

    /** First row of {@code partition}. */
    int firstRowOf(int partition);

    /** First column of {@code partition}. */
    int firstColOf(int partition);

    /** The node that keeps {@code partition}'s directory entry and its backing copy. */
    int homeOf(int partition);

    /** The state of this node's copy of {@code partition} right now (it may change at any moment). */
    CacheState cacheState(int partition);

    /** Fetches a shared (read-only) copy of {@code partition} to this node; returns when it is here. */
    void requestPartitionCopy(int partition);

    /** Takes exclusive ownership of {@code partition} (invalidating every other copy); returns when this node owns it. */
    void acquirePartition(int partition);

    /** {@link #requestPartitionCopy(int)} without waiting. */
    CompletableFuture<Void> requestPartitionCopyAsync(int partition);

    /** {@link #acquirePartition(int)} without waiting. */
    CompletableFuture<Void> acquirePartitionAsync(int partition);

    /**
     * Which indices this node and each of its {@code threadsPerNode} threads work on.
     *
     * @throws IllegalArgumentException if {@code threadsPerNode < 1}
     */
    ArrayLayout layout(int threadsPerNode);

    /** {@link #layout(int)} with one thread per node. */
    default ArrayLayout layout() {
        return layout(1);
    }
}
