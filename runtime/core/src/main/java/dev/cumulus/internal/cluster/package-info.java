/**
 * The composition root: {@link dev.cumulus.internal.cluster.NodeCluster}, the {@link dev.cumulus.Cluster} a program
 * holds, which starts a {@link dev.cumulus.internal.node.ClusterNode} with every capability (tuple space, shared
 * arrays, clouds) and hands out their public API; and {@link dev.cumulus.internal.cluster.NodeRuntime}, which starts
 * this process's node from the launcher's settings ({@code Cluster.join()}).
 *
 * <p>Threads: user threads only; the work happens in the node and the capabilities.
 *
 * <p>Never: holds protocol state, or is imported by the node or by a capability (they sit below it; a capability
 * reaches its node only through {@link dev.cumulus.internal.node.NodeServices}).
 */
package dev.cumulus.internal.cluster;
