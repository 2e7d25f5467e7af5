package dev.cumulus.pastset;

import java.util.concurrent.CompletableFuture;

/**
 * The handle of one element of a {@link PastSet}: the causally ordered log of all tuples of one template. Every
 * operation on one element is ordered by the element's home node, so all processes see the same log in the same
 * order. Handles are cheap, thread-safe, and may be used from any thread of the node that entered them.
 *
 * <p>Pointers (PastSet §2): <b>Last</b> is the index of the tuple moved most recently; <b>First</b> is the index of
 * the element's oldest unobserved tuple. They belong to the element, not to a process: a tuple observed by one
 * process is observed for everybody, so processes that {@link #observe()} the same element share its tuples
 * between them (use {@link #observe(long)} to read a tuple again, or a {@link Semantics} for one-to-all patterns).
 * {@link #delta(long) DeltaValue} bounds {@code Last - First + 1}, the number of unobserved tuples.
 *
 * <p>Operations on an element whose home is this node run directly on it, with no message and no thread hand-off;
 * others are remote calls to the home node. Blocking operations park the calling thread (virtual threads park
 * cheaply); a blocked call never holds up other elements or other callers.
 *
 * <p>Errors are {@link dev.cumulus.CumulusException}s: a tuple that does not match the template (nothing is stored),
 * a truncated index, a bad DeltaValue, a broken redefinition, or a {@link dev.cumulus.NodeFailedException} naming
 * the element when its home node (or the cluster) failed.
 */
public interface Element {
    /** DeltaValue of a new element: no bound. */
    long UNBOUNDED = Long.MAX_VALUE;

    /** The element's template. */
    Template template();

    /** The node that holds this element. */
    int homeNode();

    /** Whether the element lives on this node (operations on it take the local fast path). */
    boolean isLocal();

    /**
     * Appends a tuple, by value. Blocks while the element already holds DeltaValue unobserved tuples.
     *
     * @return the tuple's index in the log (for a redefined element, what its move reports, -1 for nothing)
     * @throws dev.cumulus.CumulusException naming expected and actual types when {@code fields} do not match the
     *                                      template; nothing is stored then
     */
    long move(Object... fields);

    /**
     * {@link #move} without waiting; the future fails as the synchronous form would throw. FIFO: the moves a process
     * makes this way enter the log in the order it made them (a thread's own in its program order), a move held by
     * flow control holds the ones behind it, and the process's next {@code move} or {@code observe()} on the element
     * enters after them. When one fails, the same thread's next operation on the element throws that failure too.
     * Cancelling the future does not withdraw the move: a move held by flow control still enters the log when room
     * frees up (only the future then says nothing of it).
     */
    CompletableFuture<Long> moveAsync(Object... fields);

    /**
     * Returns the element's oldest unobserved tuple and marks it observed (it stays in the log). Blocks until there
     * is one. For a redefined element, runs its redefined observe (reductions: the caller's next round's result).
     */
    Tuple observe();

    /** {@link #observe()} without waiting. */
    CompletableFuture<Tuple> observeAsync();

    /**
     * Reads the tuple at {@code index} again, without marking anything observed. Blocks until a tuple with that
     * index has been moved.
     *
     * @throws dev.cumulus.CumulusException if the tuple was truncated
     */
    Tuple observe(long index);

    /** {@link #observe(long)} without waiting. */
    CompletableFuture<Tuple> observeAsync(long index);

    /** The First pointer: index of the oldest unobserved tuple ({@code last() + 1} when every tuple was observed). */
    long first();

    /** The Last pointer: index of the newest tuple, -1 when none was moved yet. */
    long last();

    /**
     * Sets DeltaValue: at most {@code k} unobserved tuples; a move that would exceed it blocks until an observe makes
     * room. Lowering it below the current distance blocks later moves, it removes nothing.
     *
     * @throws dev.cumulus.CumulusException if {@code k < 1}
     */
    void delta(long k);

    /** The current DeltaValue ({@link #UNBOUNDED} unless set). */
    long delta();

    /**
     * Permanently drops every tuple older than {@code index}; First moves up to {@code index} if it was below.
     * Indexes already truncated are ignored.
     *
     * @throws dev.cumulus.CumulusException if {@code index} is beyond {@code last() + 1}
     */
    void truncate(long index);
}
