package dev.cumulus.internal.transport;

import org.agrona.DirectBuffer;

/** Receives whole messages (already reassembled) on the polling thread. Must not block. */
@FunctionalInterface
public interface MessageHandler {
    void onMessage(int sourceNode, Channel channel, DirectBuffer buffer, int offset, int length);
}
