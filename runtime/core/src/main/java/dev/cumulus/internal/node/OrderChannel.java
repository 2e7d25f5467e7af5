package dev.cumulus.internal.node;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;

/**
 * The ORDER channel of a node's transport, as the ordered broadcast (runtime/clouds) sees it: sends to one peer, the
 * limits of a message, and the {@link Endpoint} the node hands the channel's messages to and runs in its duty cycle.
 * A node has one; the capability that runs the ordered broadcast {@link #serve}s it before the node starts.
 *
 * <p>Threads: {@link #trySend} and the endpoint's callbacks on the thread that runs the duty cycle; {@link #send} on a
 * thread of the caller's that may block; {@link #trySendAwaited} on any thread.
 */
public interface OrderChannel {
    /** What runs the ordered broadcast over the channel: an agent of the node's duty cycle. */
    interface Endpoint extends Agent {
        /** A message from {@code source} arrived on the channel (duty cycle; never blocks). */
        void onMessage(int source, DirectBuffer buffer, int offset, int length);

        /** {@code peer} left the cluster normally (duty cycle): nothing more goes to it. */
        void peerLeft(int peer);
    }

    /** Hands the channel's messages to {@code endpoint} and runs it in the duty cycle. Once, before the node starts. */
    void serve(Endpoint endpoint);

    /** The largest message the channel carries, chunked when longer than {@link #maxTrySendLength()}. */
    int maxMessageBytes();

    /** The longest message {@link #trySend} takes. */
    int maxTrySendLength();

    /** Sends without waiting; {@code false} when the destination takes nothing now (back-pressure). */
    boolean trySend(int destination, DirectBuffer buffer, int offset, int length);

    /**
     * As {@link #trySend}, from a thread that waits for the destination to take the message (a replicated write's
     * {@code SUBMIT} to the static sequencer, whose delivery needs the sequencer's stamp): the destination's doorbell
     * is not rung while a thread of the destination polls for this thread's messages anyway — the current thread
     * serves a call from the destination whose caller promised to poll for its answer until after now
     * ({@code RpcEngine.callerPolls}). Any thread.
     */
    boolean trySendAwaited(int destination, DirectBuffer buffer, int offset, int length);

    /**
     * Sends, chunked if long, waiting up to {@code timeoutNs} for the destination to take it.
     *
     * @throws dev.cumulus.NodeFailedException when the destination fails meanwhile
     */
    void send(int destination, DirectBuffer buffer, int offset, int length, long timeoutNs);

    /** Declares {@code node} failed (it took nothing for too long): the cluster fails with {@code reason}. */
    void fail(int node, String reason);
}
