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
     * A reply as its call's future gets it: a copy of the message in {@code bytes}, or, when the polling thread decoded
     * it for its caller, {@code bytes} null and the result in {@code value}; {@code applied} is the header's
     * replicated-write watermark.
     */
    record Reply(byte type, byte[] bytes, Object value, int length, int from, long applied) {
    }

    final long callId;
    final int target;
    /** The object called (a {@code moved} answer must carry this call back, not another). */
    final long objectId;
    final Method method;
    final String label;
    /** Completed with the answer by the polling thread; null for an asynchronous call ({@link #result}). */
    final CompletableFuture<Reply> reply;
    /** An asynchronous call's future (completed by {@link AsyncReplies}' drainer), else null. */
    final AsyncResult<Object> result;
    /** An asynchronous call's timeout, or 0. */
    final long timeoutNs;
    /** An asynchronous call's answer or failure, set before it is queued on {@link AsyncReplies}. */
    Reply answer;
    Throwable failure;
    /** The next call on {@link AsyncReplies}' stack. */
    PendingCall nextDone;
    final RemoteCallEvent event;
    final int requestBytes;
    /** The caller's promise to poll for the reply until then, or 0 (see {@link RpcEngine}). */
    final long pollsUntilNs;
    /** The state of the thread that waits for the reply; null for an asynchronous call (nobody waits here). */
    final RpcEngine.CallerState caller;
    /** The proxy's handler that made the call (told when the object moved), or null. */
    final RemoteInvocationHandler via;
    /** The target's doorbell is still to be rung (caller's thread only). */
    boolean ringDue;
    /** The forwarding addresses this call followed before it was sent to its target. */
    int hops;

    PendingCall(long callId, int target, long objectId, Method method, String label, RemoteCallEvent event,
                int requestBytes, long pollsUntilNs, RpcEngine.CallerState caller, RemoteInvocationHandler via,
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
        this.pollsUntilNs = pollsUntilNs;
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
