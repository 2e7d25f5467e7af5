/**
 * The contract between the launcher ({@code cumulus run}) and a node process: {@link
 * dev.cumulus.internal.launch.LaunchConfig}, passed as system properties, read once at {@code Cluster.join()}; {@link
 * dev.cumulus.internal.launch.NodeSecret}, the run's secret, the first line of the node's stdin (never a property); the
 * node's {@link dev.cumulus.internal.launch.FailureReport} in the run directory, read by the launcher; and {@link
 * dev.cumulus.internal.launch.LauncherWatch}, which ends a node whose launcher is gone (where the agent jar is, and
 * attaching it, is runtime/clouds' {@code AgentLoader}). Never opens a network connection.
 */
package dev.cumulus.internal.launch;
