/**
 * A node of the cluster: membership (hello, heartbeats, goodbye), fail-stop failure detection, the global barrier,
 * and {@link dev.cumulus.internal.node.ClusterNode}, the {@link dev.cumulus.Cluster} implementation that ties the
 * transport, the agent and the RPC engine together. {@code ControlMessage} and {@code ControlFlyweight} are the control
 * channel's messages and their wire form ({@code docs/design/WIRE.md}).
 *
 * <p>Threads: {@code DutyCycle} runs {@code NodeAgent.doWork()} (poll, timers, protocol) on whichever thread holds
 * the polling role — the node's main thread, its standby while the main thread runs a long call inline, or a caller
 * waiting for its reply — one at a time; user threads call {@code ClusterNode} and hand work to the agent through its
 * command queue. Protocol state ({@code Membership}, {@code BarrierCoordinator}) is touched under the role only and
 * takes time as an argument.
 *
 * <p>Never: blocks the duty cycle, or lets a failure pass silently — every blocked caller gets a
 * {@link dev.cumulus.NodeFailedException} naming the node.
 */
package dev.cumulus.internal.node;
