/**
 * Manta's All-pairs Shortest Paths (§4.2), Floyd's algorithm with the distance matrix split row-wise, in three
 * versions: {@link dev.cumulus.examples.asp.NaiveAsp} (row {@code k} goes through one remote object on node 0),
 * {@link dev.cumulus.examples.asp.OptimizedAsp} (a binary-tree broadcast written with remote calls) and
 * {@link dev.cumulus.examples.asp.ReplicatedAsp} (the replicated {@link dev.cumulus.examples.asp.Broadcast} of
 * Figure 6). Every node checks its rows against sequential Floyd–Warshall ({@link dev.cumulus.examples.asp.AspProblem}).
 */
package dev.cumulus.examples.asp;
