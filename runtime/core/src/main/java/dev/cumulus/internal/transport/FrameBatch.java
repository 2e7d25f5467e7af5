package dev.cumulus.internal.transport;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The payload of a {@link FrameHeaderFlyweight#BATCH} frame: several messages of one channel for one destination, each
 * behind its length. Little endian.
 *
 * <table>
 *   <caption>Batch payload</caption>
 *   <tr><th>offset</th><th>field</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>length</td><td>i32</td><td>the first message's length in bytes, 1 or more</td></tr>
 *   <tr><td>4</td><td>message</td><td>length bytes</td><td>the first message, as a whole frame would carry it</td></tr>
 *   <tr><td>4 + length</td><td>…</td><td></td><td>the next length and message, to the payload's end</td></tr>
 * </table>
 *
 * {@link #count} is the decoder's check: the entries must fill the payload exactly, each with a length of at least 1
 * that fits in what is left; it reads nothing past the payload. Only a batch that passes is taken apart, so a broken
 * batch delivers none of its messages.
 */
final class FrameBatch {
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    /** What each message adds to a batch besides its bytes. */
    static final int ENTRY_HEADER = Integer.BYTES;
    /** {@link #count}: the payload is not a well-formed batch. */
    static final int MALFORMED = -1;

    private FrameBatch() {
    }

    /**
     * The number of messages in the batch payload of {@code length} bytes at {@code offset}, or {@link #MALFORMED}
     * when an entry's length is below 1 or runs past the payload, or the payload is empty.
     */
    static int count(DirectBuffer buffer, int offset, int length) {
        if (length < ENTRY_HEADER + 1) {
            return MALFORMED;
        }
        int count = 0;
        int at = 0;
        while (at < length) {
            if (length - at < ENTRY_HEADER) {
                return MALFORMED;
            }
            int entry = buffer.getInt(offset + at, ORDER);
            if (entry < 1 || entry > length - at - ENTRY_HEADER) {
                return MALFORMED;
            }
            at += ENTRY_HEADER + entry;
            count++;
        }
        return count;
    }

    /** The length of the entry whose length field is at {@code at} (a batch {@link #count} accepted). */
    static int entryLength(DirectBuffer buffer, int at) {
        return buffer.getInt(at, ORDER);
    }

    /**
     * Appends a message to the batch being written in {@code batch} at {@code end} (its current end); returns the new
     * end. The caller checked that {@link #ENTRY_HEADER} + {@code length} bytes fit.
     */
    static int append(MutableDirectBuffer batch, int end, DirectBuffer message, int offset, int length) {
        batch.putInt(end, length, ORDER);
        batch.putBytes(end + ENTRY_HEADER, message, offset, length);
        return end + ENTRY_HEADER + length;
    }
}
