/**
 * Example programs from the papers, each runnable with {@code cumulus run} and checked against a sequential result
 * in the tests: Babylon's master-worker matrix multiply ({@code matmul}), its heat diffusion and a load-balancing
 * demo that moves a worker at a safe point ({@code heat}), Manta's TSP, ASP and LEQ in naive, hand-optimized and
 * replicated versions ({@code tsp}, {@code asp}, {@code leq}), shared-array kernels ({@code arrays}) and PastSet
 * programs ({@code pastset}), and plain multithreaded programs for {@code cumulus run --single-vm}: Hyperion's map
 * colouring ({@code colouring}) and a Jacobi relaxation with a barrier built from a monitor ({@code jacobi}). {@link dev.cumulus.examples.CodeSize} prints Manta's Table 2 (code size per version)
 * for them.
 */
package dev.cumulus.examples;
