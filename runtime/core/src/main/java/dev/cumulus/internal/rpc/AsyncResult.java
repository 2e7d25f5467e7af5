package dev.cumulus.internal.rpc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future of an asynchronous remote call, and of every stage made from it ({@link #thenApply} and the like). It
 * behaves as a {@link CompletableFuture}, except that a thread that waits for it ({@link #get}, {@link #join}) while it
 * completes other asynchronous calls' futures ({@link AsyncReplies}' drainer: a callback that waits for another call's
 * result) completes the answers queued behind it first, so that such a wait ends.
 */
final class AsyncResult<T> extends CompletableFuture<T> {
    private final AsyncReplies replies;

    AsyncResult(AsyncReplies replies) {
        this.replies = replies;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new AsyncResult<>(replies);
    }

    private void helpIfDrainer() {
        if (!isDone() && replies.onDrainer()) {
            replies.helpWhile(() -> !isDone());
        }
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        helpIfDrainer();
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (isDone() || !replies.onDrainer()) {
            return super.get(timeout, unit);
        }
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        replies.helpWhile(() -> !isDone() && deadline - System.nanoTime() > 0);
        return super.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    @Override
    public T join() {
        helpIfDrainer();
        return super.join();
    }
}
