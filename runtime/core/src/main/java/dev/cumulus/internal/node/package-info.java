/**
 * A node of the cluster: membership (hello, heartbeats, probes, goodbye), fail-stop failure detection (a phi accrual
 * detector with a floor and the heartbeat timeout as ceiling, suspicions confirmed by probing), the global barrier,
 * and {@link dev.cumulus.internal.node.ClusterNode}, which ties the transport, the agent, the RPC engine and the
 * ordered broadcast together and is the {@link dev.cumulus.internal.node.NodeServices} its capabilities see. The node
 * knows no capability: it creates them from the factories it is started with and keeps them in
 * {@link dev.cumulus.internal.node.Capabilities}; {@code dev.cumulus.internal.cluster} is the {@code Cluster} above.
 * {@code ControlMessage} and {@code ControlFlyweight} are the control channel's messages and their wire form
 * ({@code docs/design/WIRE.md}); a barrier entry carries its {@code BarrierKind}, a goodbye how the node leaves
 * ({@code Leaving}). In a node started by {@code cumulus run}, {@code LaunchedNodeEnd} decides how the process ends
 * and reports where a failure began.
 *
 * <p>Threads: {@code DutyCycle} runs {@code NodeAgent.doWork()} (poll, timers, protocol) on whichever thread holds
 * the polling role — the node's main thread, its standby while the main thread runs a long call inline, or a caller
 * waiting for its reply — one at a time; user threads call {@code ClusterNode} and hand work to the agent through its
 * command queue. Protocol state ({@code Membership} with its {@code PhiAccrualDetector}s, {@code BarrierCoordinator}) is
 * touched under the role only and takes time as an argument. Heartbeats go out from {@code HeartbeatSender}'s own
 * thread, carrying the agent's progress count; that thread also asks the OS whether peer processes on this host live
 * ({@code PeerProcesses}). Failure detection is described in {@code docs/design/THREADING.md}.
 *
 * <p>Never: blocks the duty cycle, imports a capability or the facade above it, lets a failure pass silently —
 * every blocked caller gets a {@link dev.cumulus.NodeFailedException} naming the node —, tells peers a node called
 * {@code close()} when it did not, or completes a barrier for a node that did not enter it.
 */
package dev.cumulus.internal.node;
