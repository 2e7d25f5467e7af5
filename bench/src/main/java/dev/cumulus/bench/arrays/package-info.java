/**
 * The {@code arrays} suite of {@code cumulus bench}: shared-array hits, misses, invalidations, barriers and kernels,
 * each reported as p50/p99 with ratios to its baseline (plain array read, RPC round trip, tree barrier).
 */
package dev.cumulus.bench.arrays;
