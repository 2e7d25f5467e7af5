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

    /** The node that holds the object behind {@code proxy}. */
    public static int nodeOf(Object proxy) {
        return AsyncTicket.handlerOf(proxy).ref().nodeId();
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
