package dev.cumulus.bench.hostile;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.rpc.RemoteInvocationHandler;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Calls whose arguments are bytes made by hand instead of encoded from values: what a hostile or broken peer could
 * send. For the benchmark that checks, through real nodes, that such calls are refused with an error answer and
 * that the called node goes on serving ({@code cumulus bench hostile}). The call travels the same way as any other
 * (the caller's transport, the callee's decoder, the error answer back to the pending call); only the argument bytes
 * after the call's header are the caller's own, unchecked.
 */
final class HandMadeCalls {
    private HandMadeCalls() {
    }

    /**
     * Calls {@code method} on the remote object behind {@code proxy} with {@code argumentBytes} as the encoded
     * arguments, and waits at most {@code timeoutNs} (0: no limit) for the answer.
     *
     * @return the decoded result, should the callee accept the bytes
     * @throws CumulusException when {@code proxy} is not a proxy of a remote object; otherwise whatever the call
     *                          throws: for refused arguments, the callee's error answer as an exception
     */
    static Object call(Object proxy, Method method, byte[] argumentBytes, long timeoutNs) throws Throwable {
        if (proxy == null || !Proxy.isProxyClass(proxy.getClass())
            || !(Proxy.getInvocationHandler(proxy) instanceof RemoteInvocationHandler handler)) {
            throw new CumulusException("a hand-made call needs a proxy of a remote object (from Cluster.lookup or "
                + "Cluster.export), not " + proxy);
        }
        return handler.invokeHandMade(method, argumentBytes, timeoutNs);
    }
}
