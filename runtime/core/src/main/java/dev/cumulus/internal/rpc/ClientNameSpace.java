package dev.cumulus.internal.rpc;

/**
 * Marks the class loader of one client's classes on a standing cluster's server (runtime/service's
 * {@code ClientClassLoader}): values for code of that loader decode with a codec of its own ({@code RpcEngine}'s
 * {@code codecFor}), so class names resolve in that client's name space.
 */
public interface ClientNameSpace {
}
