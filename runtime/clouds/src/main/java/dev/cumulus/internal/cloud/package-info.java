/**
 * Replicated objects ("clouds", Manta): the hooks the agent weaves into cloud classes ({@code CloudHooks}) and the
 * runtime behind them. Hooks run on user threads (reads, calls of writes) and on the node's delivery thread
 * (applying totally ordered writes). Never: runs a write on one replica only.
 */
package dev.cumulus.internal.cloud;
