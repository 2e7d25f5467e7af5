/**
 * The {@code replication} suite of {@code cumulus bench} (Manta Tables 1, 2 and 4): read time, write completion at
 * every replica and the pipelined write gap of a replicated register, side by side with a plain synchronized call,
 * Cumulus's own RPC and JGroups' SEQUENCER total order on the same nodes; optionally on emulated wide-area links
 * (network namespaces with {@code tc netem} delay, {@link dev.cumulus.bench.replication.Netns}). Every measured
 * party is a process of its own; {@code bench/README.md} describes the method and keeps the figures.
 */
package dev.cumulus.bench.replication;
