package dev.cumulus.internal.transport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Reassembles messages that senders split into chunks. Keyed by (source, channel, message id), so chunks of
 * concurrent senders may interleave; the chunks of one message come in order (one thread sends them, one stream
 * carries them), so each must start where the last ended.
 *
 * <p>Bounded, whatever the frames say: memory grows with the bytes that arrived, not with the length a first chunk
 * declares (a buffer starts at {@link #FIRST_BUFFER_BYTES} at most and doubles as data comes); one sender holds at
 * most {@code maxBytesPerSender} and {@link #MAX_PARTIALS_PER_SENDER} messages in reassembly, and a message untouched
 * for {@code expiryNs} is dropped. A chunk that breaks a rule drops its message (the sender's caller times out); every
 * drop is counted and told to the {@link TransportErrors}. Time comes from the injected clock, read once per chunk.
 * Polling thread only.
 */
final class ChunkAssembler {
    /** Largest first buffer of a message: more is allocated only as its data arrives. */
    static final int FIRST_BUFFER_BYTES = 64 * 1024;
    /** Messages one sender may have in reassembly at once. */
    static final int MAX_PARTIALS_PER_SENDER = 64;
    /** Default time a partial message may wait for its next chunk. */
    static final long DEFAULT_EXPIRY_NS = 60_000_000_000L;

    private final int maxMessageBytes;
    private final long maxBytesPerSender;
    private final long expiryNs;
    private final NanoClock clock;
    private final TransportErrors errors;
    private final Map<Key, Partial> partials = new HashMap<>();
    private final Map<Integer, Usage> usageBySender = new HashMap<>();
    private final UnsafeBuffer whole = new UnsafeBuffer(0, 0);
    private volatile long dropped; // written by the polling thread only; read by any

    private record Key(int source, Channel channel, long messageId) {
    }

    private static final class Partial {
        byte[] bytes;
        final int total;
        int received;
        long touchedNs;

        Partial(int total, int firstLength) {
            this.total = total;
            this.bytes = new byte[Math.min(total, Math.max(firstLength, Math.min(total, FIRST_BUFFER_BYTES)))];
        }
    }

    private static final class Usage {
        long bytes;
        int messages;
    }

    /**
     * @param maxMessageBytes   the largest message (its declared total)
     * @param maxBytesPerSender bytes one sender may hold in reassembly at once (at least {@code maxMessageBytes})
     * @param expiryNs          how long a partial message may wait for its next chunk
     * @param clock             the time (injected: tests step it)
     * @param errors            told of every dropped message
     */
    ChunkAssembler(int maxMessageBytes, long maxBytesPerSender, long expiryNs, NanoClock clock,
                   TransportErrors errors) {
        if (maxBytesPerSender < maxMessageBytes) {
            throw new IllegalArgumentException("maxBytesPerSender " + maxBytesPerSender + " is below maxMessageBytes "
                + maxMessageBytes);
        }
        this.maxMessageBytes = maxMessageBytes;
        this.maxBytesPerSender = maxBytesPerSender;
        this.expiryNs = expiryNs;
        this.clock = clock;
        this.errors = errors;
    }

    /**
     * Adds a chunk; returns the whole message (a view valid until {@link #release}) when this chunk completes it,
     * else {@code null}.
     */
    DirectBuffer onChunk(int source, Channel channel, long messageId, int total, int chunkOffset,
                         DirectBuffer src, int srcOffset, int length) {
        long now = clock.nanoTime();
        if (total <= 0 || total > maxMessageBytes || chunkOffset < 0 || length < 0
            || (long) chunkOffset + length > total) {
            drop(source, channel, messageId, "a chunk outside its message (total " + total + ", offset " + chunkOffset
                + ", length " + length + "; at most " + maxMessageBytes + " bytes)");
            return null;
        }
        Key key = new Key(source, channel, messageId);
        Partial partial = partials.get(key);
        if (partial == null) {
            expire(now);
            if (chunkOffset != 0) {
                drop(source, "a message whose first chunk starts at " + chunkOffset);
                return null;
            }
            Usage usage = usageBySender.computeIfAbsent(source, s -> new Usage());
            int first = Math.min(total, Math.max(length, Math.min(total, FIRST_BUFFER_BYTES)));
            if (usage.messages >= MAX_PARTIALS_PER_SENDER || usage.bytes + first > maxBytesPerSender) {
                drop(source, "a message over the sender's reassembly bound (" + usage.messages + " messages, "
                    + usage.bytes + " bytes held; at most " + MAX_PARTIALS_PER_SENDER + " and " + maxBytesPerSender + ")");
                return null;
            }
            partial = new Partial(total, length);
            partials.put(key, partial);
            usage.messages++;
            usage.bytes += partial.bytes.length;
        } else if (partial.total != total || partial.received != chunkOffset) {
            drop(source, channel, messageId, "a chunk out of sequence (total " + total + " for " + partial.total
                + ", offset " + chunkOffset + " after " + partial.received + " bytes)");
            return null;
        }
        int end = chunkOffset + length;
        if (end > partial.bytes.length && !grow(source, partial, end)) {
            drop(source, channel, messageId, "a message over the sender's reassembly bound of " + maxBytesPerSender
                + " bytes");
            return null;
        }
        src.getBytes(srcOffset, partial.bytes, chunkOffset, length);
        partial.received = end;
        partial.touchedNs = now;
        if (end < total) {
            return null;
        }
        whole.wrap(partial.bytes, 0, total);
        return whole;
    }

    private boolean grow(int source, Partial partial, int needed) {
        int capacity = (int) Math.min(partial.total, Math.max(needed, 2L * partial.bytes.length));
        Usage usage = usageBySender.get(source);
        long more = capacity - partial.bytes.length;
        if (usage.bytes + more > maxBytesPerSender) {
            return false;
        }
        partial.bytes = Arrays.copyOf(partial.bytes, capacity);
        usage.bytes += more;
        return true;
    }

    /** {@link #expire(long)} now, by this assembler's clock. */
    void expire() {
        expire(clock.nanoTime());
    }

    /** Drops partial messages untouched for longer than the expiry. */
    void expire(long nowNs) {
        for (Iterator<Map.Entry<Key, Partial>> it = partials.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Partial> e = it.next();
            if (nowNs - e.getValue().touchedNs > expiryNs) {
                it.remove();
                forgotten(e.getKey().source(), e.getValue());
                dropped++;
                errors.report("chunk-expired", "dropped a partial message from node " + e.getKey().source()
                    + " after " + e.getValue().received + " of " + e.getValue().total + " bytes: no chunk for "
                    + expiryNs / 1_000_000 + " ms");
            }
        }
    }

    /** Forgets a message once delivered (or abandoned). */
    void release(int source, Channel channel, long messageId) {
        Partial p = partials.remove(new Key(source, channel, messageId));
        if (p != null) {
            forgotten(source, p);
        }
    }

    /** Drops every partial message from {@code source} (it failed or left). */
    void forget(int source) {
        partials.entrySet().removeIf(e -> {
            if (e.getKey().source() == source) {
                forgotten(source, e.getValue());
                return true;
            }
            return false;
        });
    }

    private void forgotten(int source, Partial p) {
        Usage usage = usageBySender.get(source);
        usage.bytes -= p.bytes.length;
        if (--usage.messages == 0) {
            usageBySender.remove(source);
        }
    }

    private void drop(int source, Channel channel, long messageId, String why) {
        release(source, channel, messageId);
        drop(source, why);
    }

    private void drop(int source, String why) {
        dropped++;
        errors.report("chunk-dropped", "dropped a chunked message from node " + source + ": " + why);
    }

    int partialCount() {
        return partials.size();
    }

    /** Messages dropped so far (broken rules and expiry). Any thread. */
    long droppedCount() {
        return dropped;
    }

    /** Bytes allocated for messages in reassembly. */
    long bytesHeld() {
        long sum = 0;
        for (Usage usage : usageBySender.values()) {
            sum += usage.bytes;
        }
        return sum;
    }
}
