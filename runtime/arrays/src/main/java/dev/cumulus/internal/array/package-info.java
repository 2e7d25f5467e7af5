/**
 * The shared-array runtime behind {@link dev.cumulus.array}, {@link dev.cumulus.Barrier}, {@link
 * dev.cumulus.SharedLong} and {@link dev.cumulus.SharedDouble}: {@link dev.cumulus.internal.array.ArrayRuntime} (one
 * per node, created at node start by {@code ArraysProvider}, the module's {@code NodeServices.Provider}; the {@code
 * Cluster} reaches it as its {@code ArrayCapability}); the coherence protocol as plain state machines with no I/O
 * ({@code CacheEntry} per node and partition, {@code HomeDirectory} per partition on its home, {@link
 * dev.cumulus.internal.array.CoherenceMessage} the sealed message set, {@code ArrayCoherence} routing them); the typed
 * views; tree barriers ({@code NodeBarrier}, {@code BarrierRoot}); shared scalars; JFR events ({@link
 * dev.cumulus.internal.array.ArrayEvents}). Design note: {@code docs/design/COHERENCE.md}.
 *
 * <p>Threads: user threads run hits (no lock for reads, the partition's monitor for writes) and start misses, then
 * park on the access's future; incoming protocol messages are RPC calls, run where the RPC layer runs them; messages a
 * node sends itself run on the sending thread. The polling thread only reports node failures, handled on a fresh
 * virtual thread.
 *
 * <p>Never: sends a message or completes a future while holding a partition's lock; blocks inside a protocol step;
 * lets an invalidation or forward overtake the grant it revokes; lets two nodes hold writable copies of a partition;
 * lets a failed node pass silently (waiting callers get an error naming the arrays).
 */
package dev.cumulus.internal.array;
