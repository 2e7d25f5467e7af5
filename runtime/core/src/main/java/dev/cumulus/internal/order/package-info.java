/**
 * What ordered writes mean to the rest of a node: {@link dev.cumulus.internal.order.BarrierWatermark}, the replicated
 * writes a barrier or a call waits for (applied up to a number). The totally ordered broadcast itself runs in
 * runtime/clouds over the node's {@code OrderChannel} ({@code docs/design/SEQUENCER.md}).
 *
 * <p>Threads: the watermark is read by the threads that wait and by the polling thread.
 */
package dev.cumulus.internal.order;
