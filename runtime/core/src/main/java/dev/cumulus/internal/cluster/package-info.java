/**
 * The composition root: {@link dev.cumulus.internal.cluster.NodeCluster}, the {@link dev.cumulus.Cluster} a program
 * holds, which starts a {@link dev.cumulus.internal.node.ClusterNode} with every capability whose module is on the
 * class path (their {@code NodeServices.Provider}s) and hands out their public API through the interfaces of
 * {@code dev.cumulus.internal.capability}. runtime/launch starts a launched process's node through it
 * ({@code Cluster.join()}).
 *
 * <p>Threads: user threads only; the work happens in the node and the capabilities.
 *
 * <p>Never: holds protocol state, or is imported by the node or by a capability (they sit below it; a capability
 * reaches its node only through {@link dev.cumulus.internal.node.NodeServices}).
 */
package dev.cumulus.internal.cluster;
