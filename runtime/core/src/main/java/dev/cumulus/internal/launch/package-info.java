/**
 * The contract between the launcher ({@code cumulus run}) and a node process: {@link
 * dev.cumulus.internal.launch.LaunchConfig}, passed as system properties. Read once at {@code Cluster.join()};
 * touched by no other thread. Never opens a network connection.
 */
package dev.cumulus.internal.launch;
