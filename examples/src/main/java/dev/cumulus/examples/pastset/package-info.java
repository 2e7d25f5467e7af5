/**
 * The Java PastSet paper's programs on {@link dev.cumulus.pastset}: the two-process ping-pong and ring latency tests
 * (Figures 2 and 3: {@link dev.cumulus.examples.pastset.PingPong}, {@link dev.cumulus.examples.pastset.Ring}) and the
 * N-body simulation with the all-gather redefinition (§5.2, {@link dev.cumulus.examples.pastset.NBody}). Each has a
 * {@code main} for {@code cumulus run} and an SPMD {@code run(cluster, ...)} that tests call on a
 * {@code LocalCluster}.
 */
package dev.cumulus.examples.pastset;
