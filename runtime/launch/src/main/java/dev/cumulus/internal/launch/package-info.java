/**
 * The launched node (module runtime/launch): how a process that a launcher started becomes its node at
 * {@code Cluster.join()} ({@link dev.cumulus.internal.launch.LaunchedJoins}, the {@code LaunchedJoin} capability
 * runtime/core finds by {@code ServiceLoader}), and the contract between the launcher ({@code cumulus run}) and that
 * process: {@link dev.cumulus.internal.launch.LaunchConfig}, passed as system properties, read once by {@link
 * dev.cumulus.internal.launch.NodeRuntime}, which starts the node; {@link dev.cumulus.internal.launch.NodeSecret}, the
 * run's secret, the first line of the node's stdin (never a property); the node's {@link
 * dev.cumulus.internal.launch.FailureReport} in the run directory, read by the launcher; and {@link
 * dev.cumulus.internal.launch.LauncherWatch}, which ends a node whose launcher is gone (where the agent jar is, and
 * attaching it, is runtime/clouds' {@code AgentLoader}).
 *
 * <p>Threads: the program's main thread at {@code Cluster.join()}; the launcher watch's daemon thread.
 *
 * <p>Never: opens a network connection, or is imported by runtime/core (the launcher, the agent, the standing cluster's
 * servers and the benchmarks use it).
 */
package dev.cumulus.internal.launch;
