package dev.cumulus.internal.transport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Messages that one thread sends while it has several to send: answers of the calls one poll brought, which the
 * polling thread runs one after another. While that thread {@linkplain #hold holds} the outbox, its messages to a peer
 * on one channel are gathered in a batch of their own; {@link #release} sends each batch as one frame (one offer, one
 * doorbell ring): a batch of one as a plain whole frame, more as a {@link FrameHeaderFlyweight#BATCH} frame
 * ({@link FrameBatch}) that the peer takes apart in one poll. A batch is at most one IPC frame's payload
 * ({@link #BATCH_BYTES}), so it is never split; a message that does not fit empties its batch first.
 *
 * <p>Order: a message of the holder that is not gathered (any other send to that peer and channel) sends the batch
 * first ({@link #flush(int, Channel)}); a holder about to wait sends all ({@link #flushAll}), and so does another thread
 * that takes over polling from a holder stuck in a call, so gathered messages never wait for a call that blocks.
 *
 * <p>Threads: the holder gathers; any thread may flush. Every method is {@code synchronized} (uncontended but for a
 * take-over).
 */
final class Outbox {
    /** What one batch holds at most: one IPC frame (Aeron's data header taken off) less the frame header. */
    static final int BATCH_BYTES = NodeTransport.IPC_MTU - 32 - FrameHeaderFlyweight.WHOLE_LENGTH;
    private static final int CHANNELS = Channel.values().length;

    /**
     * Sends one frame's payload: {@code type} {@link FrameHeaderFlyweight#WHOLE} or {@link FrameHeaderFlyweight#BATCH};
     * then rings the peer unless the frame left before {@code quietUntilNs} (0: rings it anyway).
     */
    @FunctionalInterface
    interface FrameSender {
        void send(int destination, Channel channel, byte type, DirectBuffer buffer, int offset, int length,
                  long quietUntilNs);
    }

    private final FrameSender sender;
    /** Per peer and channel ({@code destination * CHANNELS + channel}): the batch, made at its first message. */
    private final UnsafeBuffer[] batches;
    private final int[] ends;
    private final int[] counts;
    /** Per batch: the earliest {@code quietUntilNs} of its messages (0 when one must ring anyway). */
    private final long[] quietUntilNs;
    /** The batches with messages, in the order their first message came. */
    private final int[] pending;
    private int pendingCount;
    /** The thread whose messages are gathered, or null. Written under the lock; read by any sender. */
    private volatile Thread holder;

    Outbox(int size, FrameSender sender) {
        this.sender = sender;
        this.batches = new UnsafeBuffer[size * CHANNELS];
        this.ends = new int[size * CHANNELS];
        this.counts = new int[size * CHANNELS];
        this.quietUntilNs = new long[size * CHANNELS];
        this.pending = new int[size * CHANNELS];
    }

    /** From now on the current thread's {@link #gather gathered} messages wait for {@link #release}. */
    synchronized void hold() {
        holder = Thread.currentThread();
    }

    /** Sends every batch and stops gathering. */
    synchronized void release() {
        holder = null;
        flushAll();
    }

    /** True when the current thread holds the outbox. */
    boolean heldByCurrentThread() {
        return holder == Thread.currentThread();
    }

    /**
     * Gathers a message of the holder (the caller checked {@link #heldByCurrentThread}); the peer's doorbell is rung
     * after the batch is sent unless it leaves before {@code quietUntilNs} (0: rung anyway). False when the message cannot go in a batch (too large): the
     * batch for that peer and channel was sent, and the caller sends the message itself.
     */
    synchronized boolean gather(int destination, Channel channel, DirectBuffer buffer, int offset, int length,
                                long quietUntilNs) {
        int at = destination * CHANNELS + channel.ordinal();
        int needed = FrameBatch.ENTRY_HEADER + length;
        if (needed > BATCH_BYTES) {
            flush(at);
            return false;
        }
        if (ends[at] + needed > BATCH_BYTES) {
            flush(at);
        }
        UnsafeBuffer batch = batches[at];
        if (batch == null) {
            batch = batches[at] = new UnsafeBuffer(new byte[BATCH_BYTES]);
        }
        if (counts[at] == 0) {
            pending[pendingCount++] = at;
            this.quietUntilNs[at] = quietUntilNs;
        } else {
            long earliest = this.quietUntilNs[at];
            this.quietUntilNs[at] = earliest == 0 || quietUntilNs == 0 ? 0
                : quietUntilNs - earliest < 0 ? quietUntilNs : earliest;
        }
        ends[at] = FrameBatch.append(batch, ends[at], buffer, offset, length);
        counts[at]++;
        return true;
    }

    /** Sends the batch for {@code destination} on {@code channel}, if it has messages. */
    synchronized void flush(int destination, Channel channel) {
        int at = destination * CHANNELS + channel.ordinal();
        if (counts[at] > 0) {
            flush(at);
        }
    }

    /** Sends every batch with messages. */
    synchronized void flushAll() {
        for (int i = 0; i < pendingCount; i++) {
            int at = pending[i];
            if (counts[at] > 0) {
                sendBatch(at);
            }
        }
        pendingCount = 0;
    }

    private void flush(int at) {
        if (counts[at] == 0) {
            return;
        }
        sendBatch(at);
        for (int i = 0; i < pendingCount; i++) {
            if (pending[i] == at) {
                System.arraycopy(pending, i + 1, pending, i, pendingCount - i - 1);
                pendingCount--;
                break;
            }
        }
    }

    /** Sends a batch and empties it; a failure to send (the peer is gone) drops its messages, as a lone send would. */
    private void sendBatch(int at) {
        int destination = at / CHANNELS;
        Channel channel = Channel.values()[at % CHANNELS];
        UnsafeBuffer batch = batches[at];
        int count = counts[at];
        int end = ends[at];
        long quiet = quietUntilNs[at];
        counts[at] = 0;
        ends[at] = 0;
        try {
            if (count == 1) {
                sender.send(destination, channel, FrameHeaderFlyweight.WHOLE, batch, FrameBatch.ENTRY_HEADER,
                    end - FrameBatch.ENTRY_HEADER, quiet);
            } else {
                sender.send(destination, channel, FrameHeaderFlyweight.BATCH, batch, 0, end, quiet);
            }
        } catch (RuntimeException e) {
            // the peer failed or is not draining: nobody is left to take these answers, as for a lone one
        }
    }
}
