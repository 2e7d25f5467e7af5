package dev.cumulus;

import dev.cumulus.internal.rpc.RemoteInvocationHandler;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Utilities for remote-object proxies. */
public final class Remote {
    private Remote() {
    }

    /** True when {@code object} is a remote-object proxy. */
    public static boolean isRemote(Object object) {
        return object != null && Proxy.isProxyClass(object.getClass())
            && Proxy.getInvocationHandler(object) instanceof RemoteInvocationHandler;
    }

    /**
     * The node that holds the object behind {@code proxy}, as far as this proxy knows: after the object migrated, the
     * proxy's next call finds it and from then on this says its new node.
     */
    public static int nodeOf(Object proxy) {
        return AsyncTicket.handlerOf(proxy).ref().nodeId();
    }

    /**
     * Moves the object behind {@code proxy} to {@code node} (Babylon's object migration) and returns once it serves
     * calls there; {@link #nodeOf} of this proxy then says {@code node}. Every other proxy of the object, on any node,
     * keeps working: its next call is sent on from the object's former node, and the proxy remembers the new one. Calls
     * running, waiting or in flight during the move run exactly once. The object's state (its non-{@code transient}
     * fields) moves by value, as arguments do; see {@link Migration} for the three kinds and {@link MigrationAware}
     * for what cannot move.
     *
     * @throws MigrationException if the object cannot move (busy for {@link Migration#IDLE}, a state that cannot be
     *                            transferred, a target node that does not exist or failed, a system object, not a
     *                            proxy); it then still serves calls where it was
     * @throws CumulusException   if the module that moves objects, {@code dev.cumulus:cumulus-migration}, is not on the
     *                            node's class path ({@code cumulus run} puts it there)
     */
    public static <T> void migrate(T proxy, int node, Migration kind) {
        if (!isRemote(proxy)) {
            throw new MigrationException("Remote.migrate takes a remote object's proxy (from export, lookup or "
                + "remoteNew), not " + (proxy == null ? "null" : "a " + proxy.getClass().getName())
                + "; a replicated cloud lives on every node and does not migrate");
        }
        AsyncTicket.handlerOf(proxy).migrate(node, kind);
    }

    /**
     * From now on the object behind {@code proxy} moves to the node that makes most of its calls: each window (1 s, or
     * {@code cumulus run --rebalance}'s), a node that made at least 60 % of at least 50 calls, and led the window
     * before too, gets the object by a {@link Migration#DELAYED} migration that waits one window at most for the
     * object's running calls (else the object stays, and later windows decide again). The profile shows each move and
     * why.
     * {@code cumulus run --rebalance} does this for every remote object.
     *
     * @throws MigrationException if {@code proxy} is not a remote object's proxy, or names a system object
     * @throws CumulusException   if {@code dev.cumulus:cumulus-migration} is not on the node's class path
     */
    public static <T> void autoPlace(T proxy) {
        if (!isRemote(proxy)) {
            throw new MigrationException("Remote.autoPlace takes a remote object's proxy (from export, lookup or "
                + "remoteNew), not " + (proxy == null ? "null" : "a " + proxy.getClass().getName()));
        }
        AsyncTicket.handlerOf(proxy).followCalls();
    }

    /**
     * The same remote object with a call timeout: a call that gets no reply in time throws
     * {@link RemoteTimeoutException}. {@link Duration#ZERO} waits as long as the object's node lives.
     */
    @SuppressWarnings("unchecked")
    public static <T> T withTimeout(T proxy, Duration timeout) {
        if (timeout.isNegative()) {
            throw new CumulusException("timeout must not be negative: " + timeout);
        }
        RemoteInvocationHandler h = AsyncTicket.handlerOf(proxy).withTimeout(timeout.toNanos());
        return (T) Proxy.newProxyInstance(proxy.getClass().getClassLoader(), proxy.getClass().getInterfaces(), h);
    }

    /**
     * Starts one call on the remote object behind {@code proxy} without waiting, and returns its future:
     *
     * <pre>{@code
     * CompletableFuture<double[][]> part = Remote.async(worker, w -> w.multiply(rows));
     * part.thenAccept(result -> ...);               // runs when the reply is in, never on the polling thread
     * }</pre>
     *
     * {@code call} gets a stand-in for {@code proxy} and makes exactly one method call on it (the value that call
     * returns there is a placeholder: {@code null}, 0 or false). The future completes with the remote result, or
     * exceptionally with the remote exception as the method threw it (checked ones included), or with a
     * {@link NodeFailedException} when the object's node fails first (also when it had failed before the call), or a
     * {@link RemoteTimeoutException} after the proxy's timeout ({@link #withTimeout}). Callbacks run on a thread of the runtime that completes the replies of
     * one poll one after another, in the order they came: a callback that blocks holds up the results behind it
     * (waiting for another asynchronous result with {@code get} or {@code join} is fine: the results behind it are
     * completed meanwhile). A future without callbacks is completed by the thread that reads its answer, and a thread
     * that waits for it ({@code get}, {@code join}) reads answers itself for a while before it blocks, so waiting for
     * results in turn costs no thread hand-off. No thread waits for the call and none is started for it. This is
     * {@link AsyncTicket}'s call without the ticket; the two mix freely. Calls in flight together run in no set order
     * at the object (see {@link AsyncTicket}). A client of a standing cluster keeps at most 1,024 calls outstanding on
     * one server: past that, {@code async} returns only once an answer from that server makes room (see
     * {@link AsyncTicket}).
     *
     * @throws CumulusException if {@code proxy} is not a remote object's proxy, or {@code call} makes no call or more
     *                          than one on the stand-in (then nothing was sent for the calls after the first)
     */
    @SuppressWarnings("unchecked")
    public static <T, R> CompletableFuture<R> async(T proxy, Call<? super T, R> call) {
        RemoteInvocationHandler target = AsyncTicket.handlerOf(proxy);
        Capture capture = new Capture(target);
        T standIn = (T) ProxyConstructors.sameClassAs(proxy, capture);
        try {
            call.call(standIn);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) { // the stand-in throws none: the function itself did
            throw new CumulusException("the function given to Remote.async threw " + e, e);
        }
        return (CompletableFuture<R>) capture.started();
    }

    /** {@link #async} for a method that returns nothing: {@code Remote.asyncVoid(log, l -> l.add(x))}. */
    public static <T> CompletableFuture<Void> asyncVoid(T proxy, VoidCall<? super T> call) {
        return Remote.<T, Object>async(proxy, p -> {
            call.call(p);
            return null;
        }).thenApply(ignored -> null);
    }

    /**
     * The one call {@link #async} makes on the stand-in it passes: {@code p -> p.method(args)}. It may name a method
     * that declares checked exceptions; they arrive on the future.
     */
    @FunctionalInterface
    public interface Call<T, R> {
        R call(T proxy) throws Exception;
    }

    /** The one call {@link #asyncVoid} makes on the stand-in it passes, to a method that returns nothing. */
    @FunctionalInterface
    public interface VoidCall<T> {
        void call(T proxy) throws Exception;
    }

    /** The stand-in's handler: starts the one call made on it. */
    private static final class Capture implements InvocationHandler {
        private final RemoteInvocationHandler target;
        private CompletableFuture<Object> started;

        Capture(RemoteInvocationHandler target) {
            this.target = target;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "Remote.async[" + target.label() + "]";
                };
            }
            if (started != null) {
                throw new CumulusException("Remote.async starts one call, but the function made a second one ("
                    + method.getName() + ") on " + target.label() + "; make one Remote.async per call");
            }
            started = target.invokeAsync(method, args);
            return AsyncTicket.placeholder(method.getReturnType());
        }

        CompletableFuture<Object> started() {
            if (started == null) {
                throw new CumulusException("the function given to Remote.async made no call on the stand-in for "
                    + target.label() + "; call one method of it, e.g. Remote.async(proxy, p -> p.work(x))");
            }
            return started;
        }
    }
}
