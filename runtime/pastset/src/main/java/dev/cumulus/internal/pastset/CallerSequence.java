package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * This node's ordered operations on one remote element: every {@code moveAsync} (and a move or observe sent while one
 * may be in flight) takes the next number of this counter together with its send, under this lock, so the numbers'
 * order is the order the calls went out, and a send that throws (the call never left) gives its number back: the
 * home, which runs each node's numbered operations in number order ({@code ElementState}), never waits for one that
 * will not come. Shared by every handle of the element on this node; any user thread.
 *
 * <p>It also remembers the last {@code moveAsync} sent and its thread: an operation of that thread on the element
 * first learns whether it failed ({@link #rethrowFailure}), and a move or observe of any thread goes in order after
 * it while it is in flight ({@link #inFlight}).
 */
final class CallerSequence {
    private static final VarHandle LAST;

    static {
        try {
            LAST = MethodHandles.lookup().findVarHandle(CallerSequence.class, "last", CompletableFuture.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    /** The next operation's number; guarded by {@link #lock}. */
    private long next;
    /** The last asynchronous move sent, until its failure is reported; written under {@link #lock}. */
    private volatile CompletableFuture<?> last;
    /** The thread that sent {@link #last}. */
    private volatile long lastThread;

    /**
     * Takes the next number and holds it (and the lock) for a call this thread sends now; then {@link #sent} or
     * {@link #notSent}, always (try/catch), on the same thread.
     */
    long take() {
        lock.lock();
        return next;
    }

    /**
     * The call numbered by {@link #take} left: the number is used.
     *
     * @param asyncMove the call is a {@code moveAsync} of {@code thread}: later operations check it
     */
    void sent(CompletableFuture<?> call, boolean asyncMove, long thread) {
        try {
            next++;
            if (asyncMove) {
                lastThread = thread;
                last = call;
            }
        } finally {
            lock.unlock();
        }
    }

    /** The call numbered by {@link #take} did not leave: its number goes to the next call. */
    void notSent() {
        lock.unlock();
    }

    /** True while the last {@code moveAsync} this node sent on the element may not have been answered. */
    boolean inFlight() {
        CompletableFuture<?> f = last;
        return f != null && !f.isDone();
    }

    /**
     * Throws, once, the failure of the last {@code moveAsync} on the element when {@code thread} sent it and it failed
     * (its future reported it too): the "at the next operation on that element". Nothing when there is none.
     */
    void rethrowFailure(String element, long thread) {
        CompletableFuture<?> f = last;
        if (f == null || !f.isCompletedExceptionally() || lastThread != thread || !LAST.compareAndSet(this, f, null)
            || f.isCancelled()) {
            return; // nothing failed, another thread's, reported already, or cancelled by the caller itself
        }
        Throwable cause = f.exceptionNow();
        String why = "an earlier moveAsync of this thread into element " + element + " failed (its future has the"
            + " same error): " + cause.getMessage();
        if (cause instanceof NodeFailedException n) {
            throw new NodeFailedException(n.nodeId(), why);
        }
        throw new CumulusException(why, cause);
    }
}
