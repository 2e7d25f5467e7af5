package dev.cumulus.internal.rpc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * The future of an asynchronous remote call, and of every stage made from it ({@link #thenApply} and the like). It
 * behaves as a {@link CompletableFuture}, except that a thread that waits for it ({@link #get}, {@link #join}) while it
 * completes other asynchronous calls' futures ({@link AsyncReplies}' drainer: a callback that waits for another call's
 * result) completes the answers queued behind it first, so that such a wait ends; any other thread first polls the node
 * for it, as a synchronous caller polls for its reply ({@link AsyncReplies#pollFor}), and blocks only after that.
 */
final class AsyncResult<T> extends CompletableFuture<T> implements BooleanSupplier {
    private final AsyncReplies replies;
    /** The id of the call whose result this is (set by the thread that starts it), or 0. */
    long callId;

    AsyncResult(AsyncReplies replies) {
        this.replies = replies;
    }

    /** The node's answered asynchronous calls, which this future's call joins when its answer comes. */
    AsyncReplies replies() {
        return replies;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new AsyncResult<>(replies);
    }

    /** Whether the result is in (what {@link AsyncReplies#pollFor} polls for). */
    @Override
    public boolean getAsBoolean() {
        return isDone();
    }

    private void helpOrPoll() {
        if (isDone()) {
            return;
        }
        if (replies.onDrainer()) {
            replies.helpWhile(() -> !isDone());
        } else {
            replies.pollFor(this, Long.MAX_VALUE);
        }
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        helpOrPoll();
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        if (isDone()) {
            return super.get(timeout, unit);
        } else if (replies.onDrainer()) {
            replies.helpWhile(() -> !isDone() && deadline - System.nanoTime() > 0);
        } else {
            replies.pollFor(this, unit.toNanos(timeout));
        }
        return super.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    @Override
    public T join() {
        helpOrPoll();
        return super.join();
    }
}
