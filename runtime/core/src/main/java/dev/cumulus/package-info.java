/**
 * The public API of Cumulus: {@link dev.cumulus.Cluster} (join a run started by {@code cumulus run}: node id, size,
 * barriers, remote objects, replicated clouds, shared arrays and scalars, the tuple space) and
 * {@link dev.cumulus.LocalCluster} (the same with every node in one JVM); {@link dev.cumulus.AsyncTicket} and
 * {@code Remote.async} (a {@code CompletableFuture} per call) for asynchronous remote calls; {@link dev.cumulus.Cloud} for replicated objects; {@link dev.cumulus.Transferable} and
 * {@link dev.cumulus.Transfers} for what travels by value and what a node decodes; the exceptions a program may see,
 * each naming what went wrong ({@link dev.cumulus.NodeFailedException}, {@link dev.cumulus.RemoteCallException},
 * {@link dev.cumulus.RemoteTimeoutException}, {@link dev.cumulus.NotTransferableException}).
 *
 * <p>Everything under {@code dev.cumulus.internal} may change without notice.
 */
package dev.cumulus;
