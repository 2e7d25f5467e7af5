/**
 * Replicated objects ("clouds", Manta): the hooks the agent weaves into cloud classes ({@code CloudHooks}) and the
 * runtime behind them. Hooks run on user threads (reads, calls of writes) and on the node's delivery thread
 * (applying totally ordered writes). {@code CloudRuntime} is one node's runtime, created at node start by
 * {@code CloudsProvider} (the module's {@code NodeServices.Provider}) and reached by the {@code Cluster} as its
 * {@code CloudCapability}; {@code CloudSummaryEvent} is its periodic JFR summary. Never: runs a write on one replica
 * only.
 */
package dev.cumulus.internal.cloud;
