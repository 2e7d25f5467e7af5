/**
 * Babylon's heat diffusion (§3, Figures 1 and 2) and load balancing by safe-point migration (§4.2).
 * {@link dev.cumulus.examples.heat.HeatDiffusion}: one {@link dev.cumulus.examples.heat.GridDiffuser} per node
 * fetches its neighbours' edge rows by remote calls while {@code diffuse()} runs.
 * {@link dev.cumulus.examples.heat.LoadBalancing}: {@code @SafeMode} {@link dev.cumulus.examples.heat.BlockWorker}s
 * step under node 0's control; node 0 moves the one a CPU hog slows down, in the middle of a step. Both check the
 * plate bit for bit against {@link dev.cumulus.examples.heat.HeatGrid#jacobi}. Node 0's main thread coordinates;
 * worker methods run on the runtime's threads (a GridDiffuser's {@code edge} calls wait on its monitor while its
 * {@code diffuse} runs in another thread).
 */
package dev.cumulus.examples.heat;
