/**
 * The {@code pastset} suite of {@code cumulus bench}: Java PastSet §4 on Cumulus's tuple space (Figure 3 round trips
 * next to our RPC, Figures 4/5 rings, Figure 7 bandwidth), side by side with Hazelcast {@code IQueue}s.
 * {@link dev.cumulus.bench.pastset.PastSetBench} orchestrates and prints; {@link dev.cumulus.bench.pastset.PastSetNode}
 * is a Cumulus node, {@link dev.cumulus.bench.pastset.HazelcastNode} a Hazelcast member (started through
 * {@link dev.cumulus.bench.pastset.HazelcastLauncher}); both run the same loops ({@code Scenarios}).
 */
package dev.cumulus.bench.pastset;
