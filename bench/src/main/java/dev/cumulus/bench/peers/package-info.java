/**
 * Peer baselines of the RPC suite, each a small two-role program (server: echo; client: measure) started as its own
 * JVM by {@link dev.cumulus.bench.RpcBench}: a raw Aeron ping-pong (IPC on one host, UDP over hosts), a blocking UDP
 * ping-pong and a {@code java.rmi} round trip. Over hosts ({@code cumulus bench --hosts}) each binds to its host's
 * address ({@code -Dbench.bind}, else loopback).
 *
 * <p>Boundary exception: {@link dev.cumulus.bench.peers.AeronPingPong} imports {@code io.aeron} directly. It is a
 * peer baseline (what a hand-written Aeron program achieves with the same idle strategy and the same shared media
 * driver), not runtime code; the runtime's rule "only the transport package imports io.aeron" is about
 * {@code runtime/}, and nothing here is used by the runtime.
 *
 * <p>Likewise {@code java.rmi} uses Java serialization on the wire: acceptable for a baseline between our own
 * processes, never a model for the runtime.
 *
 * <p>Threads: each program measures on its main thread (RMI's async callers are a fixed set of platform threads,
 * since RMI has no asynchronous call).
 */
package dev.cumulus.bench.peers;
