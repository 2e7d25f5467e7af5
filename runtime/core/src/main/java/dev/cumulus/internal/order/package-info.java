/**
 * Totally ordered broadcast for replicated writes (Manta §5): {@link dev.cumulus.internal.order.TotalOrder}, a
 * sequencer token that migrates to the node that writes (or stays put in static mode) and a reorder buffer that
 * delivers in sequence-number order; {@link dev.cumulus.internal.order.OrderMessage}, its messages, and
 * {@link dev.cumulus.internal.order.OrderFlyweight}, their wire form ({@code docs/design/WIRE.md}); and
 * {@link dev.cumulus.internal.order.BroadcastEndpoint}, which runs it on the node's duty cycle over the transport's
 * broadcast stream. The protocol, with its migration hand-off and fail-stop behaviour, is in
 * {@code docs/design/SEQUENCER.md}.
 *
 * <p>Threads: submits from any thread; everything else on the thread holding the node's polling role. The protocol
 * core takes the network and delivery as interfaces, so tests run it on a simulated network that delays and reorders.
 */
package dev.cumulus.internal.order;
