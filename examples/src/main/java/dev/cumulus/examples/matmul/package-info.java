/**
 * Babylon's master-worker matrix multiplication (Babylon v2.0 §5): remote objects created with
 * {@code remoteNew}, called through asynchronous tickets, verified against the sequential product.
 */
package dev.cumulus.examples.matmul;
