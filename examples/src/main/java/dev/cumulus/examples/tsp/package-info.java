/**
 * Manta's Traveling Salesperson Problem (§4.1) in three versions: {@link dev.cumulus.examples.tsp.NaiveTsp} (the
 * minimum is a remote object on node 0), {@link dev.cumulus.examples.tsp.OptimizedTsp} (a local copy per node,
 * updated by explicit remote calls) and {@link dev.cumulus.examples.tsp.ReplicatedTsp} (the replicated
 * {@link dev.cumulus.examples.tsp.Minimum} of Figure 4). All three take partial tours from one remote job queue on
 * node 0 and share the search in {@link dev.cumulus.examples.tsp.TspProblem}; results are checked against its
 * sequential branch and bound.
 */
package dev.cumulus.examples.tsp;
