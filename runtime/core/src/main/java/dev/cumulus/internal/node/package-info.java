/**
 * A node of the cluster: membership (hello, heartbeats, goodbye), fail-stop failure detection, the global barrier,
 * and {@link dev.cumulus.internal.node.ClusterNode}, the {@link dev.cumulus.Cluster} implementation that ties the
 * transport, the agent and the RPC engine together.
 *
 * <p>Threads: one agent thread per node runs {@code NodeAgent.doWork()} (poll, timers, protocol); user threads
 * call {@code ClusterNode} and hand work to the agent through its command queue. Protocol state
 * ({@code Membership}, {@code BarrierCoordinator}) is touched by the agent thread only and takes time as an argument.
 *
 * <p>Never: blocks the agent thread, or lets a failure pass silently — every blocked caller gets a
 * {@link dev.cumulus.NodeFailedException} naming the node.
 */
package dev.cumulus.internal.node;
