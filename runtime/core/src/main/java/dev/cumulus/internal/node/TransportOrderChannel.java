package dev.cumulus.internal.node;

import dev.cumulus.internal.transport.Channel;
import dev.cumulus.internal.transport.NodeTransport;
import org.agrona.DirectBuffer;

import java.util.function.BiConsumer;
import java.util.function.IntPredicate;

/** A node's {@link OrderChannel}: its transport's ORDER channel, and the endpoint that serves it, if any. */
final class TransportOrderChannel implements OrderChannel {
    private final NodeTransport transport;
    private final BiConsumer<Integer, String> failer;
    /** Whether a thread of a node polls for what the current thread has just sent it ({@code RpcEngine.callerPolls}). */
    private final IntPredicate callerPolls;
    private volatile Endpoint endpoint;

    /**
     * @param failer      declares a node failed: (node, reason)
     * @param callerPolls whether a thread of the given node polls for what the current thread has just sent it
     */
    TransportOrderChannel(NodeTransport transport, BiConsumer<Integer, String> failer, IntPredicate callerPolls) {
        this.transport = transport;
        this.failer = failer;
        this.callerPolls = callerPolls;
    }

    @Override
    public synchronized void serve(Endpoint endpoint) {
        if (this.endpoint != null) {
            throw new IllegalStateException("node " + transport.nodeId() + "'s ORDER channel is served already");
        }
        this.endpoint = endpoint;
    }

    /** The endpoint that serves the channel, or null: then the node runs no ordered broadcast. */
    Endpoint endpoint() {
        return endpoint;
    }

    /** A message arrived on the channel (duty cycle): dropped when nothing serves it. */
    void onMessage(int source, DirectBuffer buffer, int offset, int length) {
        Endpoint e = endpoint;
        if (e != null) {
            e.onMessage(source, buffer, offset, length);
        }
    }

    void peerLeft(int peer) {
        Endpoint e = endpoint;
        if (e != null) {
            e.peerLeft(peer);
        }
    }

    @Override
    public int maxMessageBytes() {
        return transport.maxMessageBytes();
    }

    @Override
    public int maxTrySendLength() {
        return transport.maxTrySendLength(Channel.ORDER);
    }

    @Override
    public boolean trySend(int destination, DirectBuffer buffer, int offset, int length) {
        return transport.trySend(destination, Channel.ORDER, buffer, offset, length) == NodeTransport.SENT;
    }

    @Override
    public boolean trySendAwaited(int destination, DirectBuffer buffer, int offset, int length) {
        if (transport.trySendUnrung(destination, Channel.ORDER, buffer, offset, length) != NodeTransport.SENT) {
            return false;
        }
        if (!callerPolls.test(destination)) { // the clock is read after the send, as for a reply
            transport.ring(destination);
        }
        return true;
    }

    @Override
    public void send(int destination, DirectBuffer buffer, int offset, int length, long timeoutNs) {
        transport.send(destination, Channel.ORDER, buffer, offset, length, timeoutNs);
    }

    @Override
    public void fail(int node, String reason) {
        failer.accept(node, reason);
    }
}
