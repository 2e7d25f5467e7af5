/**
 * Replicated objects ("clouds", Manta): the hooks the agent weaves into cloud classes ({@code CloudHooks}) and the
 * runtime behind them. Hooks run on user threads (reads, calls of writes) and on the node's delivery thread
 * (applying totally ordered writes). {@code CloudRuntime} is one node's runtime, created at node start by
 * {@code CloudsProvider} (the module's {@code NodeServices.Provider}) and reached by the {@code Cluster} as its
 * {@code CloudCapability}; {@code CloudSummaryEvent} is its periodic JFR summary. The writes go through the totally
 * ordered broadcast (Manta §5): {@code TotalOrder}, a sequencer token that migrates to the node that writes (or stays
 * put in static mode) and a reorder buffer that delivers in sequence-number order; {@code OrderMessage}, its
 * messages, and {@code OrderFlyweight}, their wire form ({@code docs/design/WIRE.md}); and {@code BroadcastEndpoint},
 * which runs it in the node's duty cycle over the node's {@code OrderChannel} ({@code docs/design/SEQUENCER.md}).
 * Never: runs a write on one replica only.
 */
package dev.cumulus.internal.cloud;
