/**
 * Manta's linear equation solver (§4.5), Jacobi iterations on a dense, diagonally dominant system split row-wise,
 * in three versions: {@link dev.cumulus.examples.leq.NaiveLeq} (gather-to-all and reduce-to-all through one remote
 * object on node 0), {@link dev.cumulus.examples.leq.OptimizedLeq} (an explicit all-gather: every node sends its part
 * to every other node) and {@link dev.cumulus.examples.leq.ReplicatedLeq} (the replicated
 * {@link dev.cumulus.examples.leq.Gather}). Results are checked against sequential Jacobi
 * ({@link dev.cumulus.examples.leq.LeqProblem}).
 */
package dev.cumulus.examples.leq;
