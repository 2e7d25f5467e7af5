/**
 * The DSA paper's applications on Cumulus shared arrays: {@link dev.cumulus.examples.arrays.MatrixMultiply} (Figure 3's
 * inner products with a per-thread layout), {@link dev.cumulus.examples.arrays.LuFactorization} (§4.5.1, block-cyclic)
 * and a {@link dev.cumulus.examples.arrays.Jacobi} stencil. Each runs with {@code cumulus run} and is checked against
 * a sequential computation in the tests.
 */
package dev.cumulus.examples.arrays;
