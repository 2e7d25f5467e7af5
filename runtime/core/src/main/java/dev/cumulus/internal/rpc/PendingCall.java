package dev.cumulus.internal.rpc;

import dev.cumulus.internal.jfr.RemoteCallEvent;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;

/**
 * A call waiting for its reply ({@link PendingCalls} holds it by call id); {@code event} is null when no recording was
 * on as it started. A synchronous call whose caller polls for its reply is sent without a doorbell ring
 * ({@code ringDue}): an awake target answers promptly, and the ring's fence stays off the round trip; the caller rings
 * only when the reply is late.
 */
final class PendingCall implements Runnable {
    /**
     * A reply: a copy of the message in {@code bytes}, or, when the polling thread decoded it for its caller,
     * {@code bytes} null and the result in {@code value}; {@code applied} is the header's replicated-write watermark.
     */
    record Reply(byte type, byte[] bytes, Object value, int length, int from, long applied) {
    }

    final long callId;
    final int target;
    /** The object called (a {@code moved} answer must carry this call back, not another). */
    final long objectId;
    final Method method;
    final String label;
    /** Completed with the answer by the polling thread (the caller's own sets {@link #answer}); null when async. */
    final CompletableFuture<Reply> reply;
    /** An asynchronous call's future (completed by {@link AsyncReplies}' drainer), else null. */
    final AsyncResult<Object> result;
    /** An asynchronous call's timeout, or 0. */
    final long timeoutNs;
    /** An asynchronous call's answer or failure for {@link AsyncReplies}; a call's answer its own caller polled. */
    Reply answer;
    Throwable failure;
    /** The next call on {@link AsyncReplies}' stack. */
    PendingCall nextDone;
    final RemoteCallEvent event;
    final int requestBytes;
    /** Until when the caller polls for the reply (no earlier than the promise the call carries), or 0. */
    long pollsUntilNs;
    /** The state of the thread that waits for the reply; null for an asynchronous call (nobody waits here). */
    final RpcEngine.CallerState caller;
    /** The proxy's handler that made the call (told when the object moved), or null. */
    final RemoteInvocationHandler via;
    /** The target's doorbell is still to be rung (caller's thread only). */
    boolean ringDue;
    /** The forwarding addresses this call followed before it was sent to its target. */
    int hops;
    /** Counted in its client's window on its target ({@link ClientWindow}) until it is answered or abandoned. */
    boolean counted;

    PendingCall(long callId, int target, long objectId, Method method, String label, RemoteCallEvent event,
                int requestBytes, RpcEngine.CallerState caller, RemoteInvocationHandler via,
                AsyncResult<Object> result, long timeoutNs) {
        this.reply = result == null ? new CompletableFuture<>() : null;
        this.result = result;
        this.timeoutNs = timeoutNs;
        this.caller = caller;
        this.via = via;
        this.callId = callId;
        this.target = target;
        this.objectId = objectId;
        this.method = method;
        this.label = label;
        this.event = event;
        this.requestBytes = requestBytes;
    }

    /** Whether a synchronous call's answer is in: polled by its caller's thread, or given to its future. */
    boolean answered() {
        return answer != null || reply.isDone();
    }

    /**
     * Completes an answered asynchronous call's future on the thread that polled its answer, right after that poll
     * ({@code Scheduler.Work.ASYNC_ANSWER}).
     */
    @Override
    public void run() {
        result.replies().completeHere(this, result);
    }
}
