package dev.cumulus.internal.transport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.HashMap;
import java.util.Map;

/**
 * Reassembles messages that senders split into chunks. Keyed by (source, channel, message id), so chunks of
 * concurrent senders may interleave. Bounded: a declared length above the limit, a chunk outside its message, or
 * more than {@code 4 x limit} bytes in reassembly at once drops the message (the sender's caller times out).
 * Agent thread only.
 */
final class ChunkAssembler {
    private final int maxMessageBytes;
    private final Map<Key, Partial> partials = new HashMap<>();
    private long bytesInFlight;

    private record Key(int source, Channel channel, long messageId) {
    }

    private static final class Partial {
        final UnsafeBuffer buffer;
        int received;

        Partial(int total) {
            buffer = new UnsafeBuffer(new byte[total]);
        }
    }

    ChunkAssembler(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    /** Adds a chunk; returns the whole message when this chunk completes it, else {@code null}. */
    DirectBuffer onChunk(int source, Channel channel, long messageId, int total, int chunkOffset,
                         DirectBuffer src, int srcOffset, int length) {
        if (total <= 0 || total > maxMessageBytes || chunkOffset < 0 || length < 0
            || (long) chunkOffset + length > total) {
            release(source, channel, messageId);
            return null;
        }
        Key key = new Key(source, channel, messageId);
        Partial partial = partials.get(key);
        if (partial == null) {
            if (bytesInFlight + total > 4L * maxMessageBytes) {
                return null;
            }
            partial = new Partial(total);
            partials.put(key, partial);
            bytesInFlight += total;
        } else if (partial.buffer.capacity() != total) {
            release(source, channel, messageId);
            return null;
        }
        partial.buffer.putBytes(chunkOffset, src, srcOffset, length);
        partial.received += length;
        return partial.received >= total ? partial.buffer : null;
    }

    /** Forgets a message once delivered (or abandoned). */
    void release(int source, Channel channel, long messageId) {
        Partial p = partials.remove(new Key(source, channel, messageId));
        if (p != null) {
            bytesInFlight -= p.buffer.capacity();
        }
    }

    /** Drops every partial message from {@code source} (it failed or left). */
    void forget(int source) {
        partials.entrySet().removeIf(e -> {
            if (e.getKey().source() == source) {
                bytesInFlight -= e.getValue().buffer.capacity();
                return true;
            }
            return false;
        });
    }

    int partialCount() {
        return partials.size();
    }
}
