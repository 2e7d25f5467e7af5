package dev.cumulus;

import dev.cumulus.internal.rpc.RemoteInvocationHandler;

import java.lang.reflect.Proxy;
import java.time.Duration;

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
}
