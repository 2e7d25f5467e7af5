package dev.cumulus.internal.rpc;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The reply of a call to a {@link DefersReply} method, which the method may send later, from any thread, through this
 * handle ({@link #defer}); then its return value is ignored. A call that must wait (PastSet's observe) holds no thread,
 * and the thread that makes it ready sends the reply itself. The first outcome given wins.
 */
public final class DeferredReply {
    /** The call the current thread serves, while its {@link DefersReply} method runs. */
    private static final ThreadLocal<DeferredReply> SERVING = new ThreadLocal<>();

    private final CallServer server;
    private final int source;
    private final long callId;
    private final long pollsUntilNs;
    private final Supplier<String> what;
    /** The node that handed the call over with its object, or {@link CallServer#NOT_HANDED}: its reply names it. */
    private final int handedBy;
    /** The method took this handle: the reply goes through it (the method's thread only). */
    private boolean deferred;
    private final AtomicBoolean sent = new AtomicBoolean();
    /** Ends the call's count among its client's outstanding calls (the method's thread, as it defers). */
    private final Runnable uncounted;

    DeferredReply(CallServer server, int source, long callId, long pollsUntilNs, Supplier<String> what, int handedBy,
                  Runnable uncounted) {
        this.uncounted = uncounted;
        this.server = server;
        this.source = source;
        this.callId = callId;
        this.pollsUntilNs = pollsUntilNs;
        this.what = what;
        this.handedBy = handedBy;
    }

    /** True while the current thread runs a {@link DefersReply} method for a remote caller. */
    public static boolean servingRemoteCall() {
        return SERVING.get() != null;
    }

    /**
     * Called by a method that serves a remote call: its reply is sent later through the returned handle. Idempotent
     * per call.
     *
     * @throws IllegalStateException when the current thread serves no remote call of a {@link DefersReply} method
     */
    public static DeferredReply defer() {
        DeferredReply s = SERVING.get();
        if (s == null) {
            throw new IllegalStateException("DeferredReply.defer() is for @DefersReply methods serving a remote call");
        }
        if (!s.deferred) {
            s.deferred = true;
            s.uncounted.run(); // before any thread can send the reply: a client counts the call until it has it
        }
        return s;
    }

    /** Invokes the served call's {@code method} where {@link #defer} finds this call. */
    Object invoke(Object target, Method method, Object[] args) throws Throwable {
        DeferredReply outer = SERVING.get(); // a brief call may run nested on a thread that serves another call
        SERVING.set(this);
        try {
            return CallServer.invokeLocal(target, method, args);
        } finally {
            SERVING.set(outer); // null mostly: cheaper than remove(), and the thread's map keeps the one entry
        }
    }

    /** Whether the method took this handle ({@link #defer}): its return value is no reply. */
    boolean deferred() {
        return deferred;
    }

    /** Sends {@code value} as the call's result (nothing for a one-way call: its caller reads no reply). */
    public void complete(Object value) {
        if (sent.compareAndSet(false, true) && callId != RpcEngine.ONE_WAY) {
            server.sendReply(source, callId, pollsUntilNs, value, what, handedBy);
        }
    }

    /**
     * Sends {@code failure} as the call's exception; a one-way call's failure goes to this node's one-way failure
     * handler instead, as if the method had thrown it.
     */
    public void fail(Throwable failure) {
        if (!sent.compareAndSet(false, true)) {
            return;
        }
        if (callId == RpcEngine.ONE_WAY) {
            server.oneWayFailed(source, failure);
        } else {
            server.sendError(source, callId, pollsUntilNs, failure, handedBy);
        }
    }
}
