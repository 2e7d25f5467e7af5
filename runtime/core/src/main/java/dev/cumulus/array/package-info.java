/**
 * Distributed shared arrays (DSA): typed arrays split into partitions (blocks) with home nodes, cached on the nodes
 * that use them and kept coherent by a directory-based protocol at the granularity the program chooses. Create them
 * collectively by name and {@link dev.cumulus.array.ArrayShape}
 * ({@code cluster.sharedDoubleArray("A", ArrayShape.of(rows, cols).blocks(32, 32))}), read and write them with the
 * indices of the sequential program, synchronize with {@link dev.cumulus.Barrier} and shared scalars
 * ({@link dev.cumulus.SharedLong}, {@link dev.cumulus.SharedDouble}). Invalid arguments throw what Java's arrays and
 * collections throw ({@link java.lang.IndexOutOfBoundsException}, {@link java.lang.IllegalArgumentException},
 * {@link java.lang.NullPointerException}). Design note: {@code docs/design/COHERENCE.md}.
 *
 * <p>Threads: any user thread may use a view; views are thread-safe. Hits run on the caller's thread without
 * messages; misses park the caller (virtual or platform thread) until the home node answers.
 */
package dev.cumulus.array;
