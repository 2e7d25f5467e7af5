package dev.cumulus.internal.rpc;

import dev.cumulus.Migration;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.codec.RemoteRef;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;

/**
 * Behind every remote-object proxy: turns a method call into a synchronous remote call, or, when the object lives on
 * this node, a call without the transport that still copies arguments and result by value ({@link LocalCalls#callHere}).
 * {@code equals}, {@code hashCode} and {@code toString} are answered locally.
 */
public final class RemoteInvocationHandler implements InvocationHandler {
    private final RpcEngine engine;
    /** Where the object is, as far as this proxy knows: updated when a call finds it moved. */
    private volatile RemoteRef ref;
    private final String label;
    private final long timeoutNs;

    RemoteInvocationHandler(RpcEngine engine, RemoteRef ref, String label, long timeoutNs) {
        this.engine = engine;
        this.ref = ref;
        this.label = label;
        this.timeoutNs = timeoutNs;
    }

    /** The object's reference, with the node this proxy last knew it on. */
    public RemoteRef ref() {
        return ref;
    }

    /** The object lives on {@code node} now: later calls go there directly. */
    public void movedTo(int node) {
        RemoteRef known = ref;
        if (known.nodeId() != node) {
            ref = new RemoteRef(node, known.objectId(), known.interfaceName());
        }
    }

    /** From now on the object moves to the node that makes most of its calls ({@code Remote.autoPlace}). */
    public void followCalls() {
        engine.migrations().followCalls(this);
    }

    /** Moves the object to {@code node} ({@code Remote.migrate}); returns once it serves calls there. */
    public void migrate(int node, Migration kind) {
        engine.migrations().migrate(this, node, kind);
    }

    public String label() {
        return label;
    }

    public long timeoutNs() {
        return timeoutNs;
    }

    /** The same object with another call timeout (0: none). */
    public RemoteInvocationHandler withTimeout(long newTimeoutNs) {
        return new RemoteInvocationHandler(engine, ref, label, newTimeoutNs);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "equals" -> args[0] != null && Proxy.isProxyClass(args[0].getClass())
                    && Proxy.getInvocationHandler(args[0]) instanceof RemoteInvocationHandler h
                    && sameObject(h.ref, ref);
                case "hashCode" -> Long.hashCode(ref.objectId()) * 31 + ref.interfaceName().hashCode();
                case "toString" -> "Remote[" + label + " on node " + ref.nodeId() + "]";
                default -> throw new UnsupportedOperationException(method.getName());
            };
        }
        if (method.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, method, args);
        }
        RemoteRef at = ref;
        Object here = engine.local.callHere(at, method, args);
        if (here != LocalCalls.ELSEWHERE) {
            return here;
        }
        PendingCall call = engine.start(at, label, method, idOf(method), args, this, timeoutNs);
        try {
            return engine.await(call, timeoutNs);
        } catch (Throwable failure) {
            throw CallerFrames.appended(failure, RemoteInvocationHandler.class, "invoke");
        }
    }

    /**
     * Whether two references name one object: a user object's id is the same wherever it lives; system objects have
     * the same ids on every node.
     */
    private static boolean sameObject(RemoteRef a, RemoteRef b) {
        return a.objectId() == b.objectId() && a.interfaceName().equals(b.interfaceName())
            && (a.objectId() >= ExportTable.FIRST_USER_ID || a.nodeId() == b.nodeId());
    }

    /** A method and its id: the last one this proxy called (a proxy passes the same {@code Method} every call). */
    private record KnownId(Method method, int id) {
    }

    /** Immutable, so a plain field is enough: a thread that sees an older value only looks the id up again. */
    private KnownId lastId;

    private int idOf(Method method) {
        KnownId known = lastId;
        if (known != null && known.method() == method) {
            return known.id();
        }
        int id = MethodIds.idOf(method);
        lastId = new KnownId(method, id);
        return id;
    }

    /**
     * A call through this proxy with no timeout that an interrupt of the calling thread does not end (the interrupt
     * status is kept for later); see {@link RpcEngine#awaitUninterruptibly}.
     */
    public Object invokeUninterruptibly(Method method, Object[] args) throws Throwable {
        RemoteRef at = ref;
        Object here = engine.local.callHere(at, method, args);
        if (here != LocalCalls.ELSEWHERE) {
            return here;
        }
        return engine.awaitUninterruptibly(engine.start(at, label, method, idOf(method), args, false, this));
    }

    /**
     * A call of {@code method} through this proxy whose arguments are {@code argumentBytes} as they go on the wire
     * unchecked (what a hostile or broken peer could send: {@code cumulus bench hostile}); always sent to the object's
     * node, even this one's.
     */
    public Object invokeHandMade(Method method, byte[] argumentBytes, long callTimeoutNs) throws Throwable {
        return engine.await(engine.start(ref, label, method, idOf(method), null, argumentBytes, false, this, null, 0),
            callTimeoutNs);
    }

    /** Sends a call that wants no reply (see {@link RpcEngine#sendOneWay}); not for a local target. */
    public void sendOneWay(Method method, Object[] args) {
        engine.sendOneWay(ref, label, method, args);
    }

    /**
     * Starts {@code method} without waiting; the future completes with its result or its exception, off the polling
     * thread, and fails with {@link NodeFailedException} also when the object's node had failed before the call.
     * Local objects run on a virtual thread.
     */
    public CompletableFuture<Object> invokeAsync(Method method, Object[] args) {
        Object[] actual = args == null ? NO_ARGUMENTS : args;
        RemoteRef at = ref;
        if (engine.local.servesHere(at)) {
            CompletableFuture<Object> result = engine.newAsyncResult();
            engine.runAsync(() -> complete(result, () -> {
                Object here = engine.local.callHere(at, method, actual);
                return here != LocalCalls.ELSEWHERE ? here : engine.await(
                    engine.start(at, label, method, idOf(method), actual, false, this), timeoutNs);
            }));
            return result;
        }
        // completed off the polling thread (AsyncReplies): callbacks users attach to the future never run on it
        try {
            return engine.startAsync(at, label, method, idOf(method), actual, this, timeoutNs);
        } catch (NodeFailedException e) {
            return CompletableFuture.failedFuture(e); // the node failed before: the call's outcome, as a later failure
        }
    }

    private static final Object[] NO_ARGUMENTS = new Object[0];

    private interface ThrowingSupplier {
        Object get() throws Throwable;
    }

    private static void complete(CompletableFuture<Object> result, ThrowingSupplier supplier) {
        try {
            result.complete(supplier.get());
        } catch (Throwable t) {
            result.completeExceptionally(t);
        }
    }
}
