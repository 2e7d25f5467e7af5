/**
 * {@code cumulus bench rpc --attach}: a standing cluster's client calling an object on a server, against the same
 * call between two nodes of an SPMD run, and the time from {@code cumulus run --attach} to the client's first remote
 * call, for the cluster's first client (cold) and the ones after (warm). {@link dev.cumulus.bench.attach.AttachBench}
 * orchestrates in the bench's JVM; {@link dev.cumulus.bench.attach.AttachProbe} is the program measured.
 */
package dev.cumulus.bench.attach;
