package dev.cumulus.internal.pastset;

import dev.cumulus.internal.codec.PreEncodedBytes;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The reply to a remote observe, as it travels: one {@code byte[]} holding the tuple's index, how long the call was
 * blocked at home, and the tuple's encoded fields. A lone {@code byte[]} is a value the caller's polling thread
 * decodes straight from the transport's buffer, so the tuple is copied once on its way from the reply message to the
 * caller's decoder; the home writes the tuple into the reply message straight from the log or from its encoding
 * buffer (a {@link Frame}), with no array of its own.
 */
final class Observed {
    /** Where the encoded tuple starts in a reply. */
    static final int TUPLE_AT = 2 * Long.BYTES;
    private static final int BLOCKED_AT = Long.BYTES;

    private Observed() {
    }

    /** A reply as the home sends it: written into the reply message as the {@code byte[]} it stands for. */
    record Frame(long index, long blockedNs, DirectBuffer tuple, int offset, int length) implements PreEncodedBytes {
        @Override
        public int byteLength() {
            return TUPLE_AT + length;
        }

        @Override
        public void writeTo(MutableDirectBuffer target, int at) {
            target.putLong(at, index, ByteOrder.LITTLE_ENDIAN);
            target.putLong(at + BLOCKED_AT, blockedNs, ByteOrder.LITTLE_ENDIAN);
            target.putBytes(at + TUPLE_AT, tuple, offset, length);
        }

        /** The reply as an array of its own (a call that is served with no message: nothing to write it into). */
        byte[] toArray() {
            byte[] out = new byte[byteLength()];
            writeTo(new UnsafeBuffer(out), 0);
            return out;
        }
    }

    /** The observed tuple's index in a reply. */
    static long index(byte[] reply) {
        return new UnsafeBuffer(reply).getLong(0, ByteOrder.LITTLE_ENDIAN);
    }

    /** How long the observe was blocked at home, from a reply. */
    static long blockedNs(byte[] reply) {
        return new UnsafeBuffer(reply).getLong(BLOCKED_AT, ByteOrder.LITTLE_ENDIAN);
    }

    /** The encoded tuple's length in a reply. */
    static int tupleLength(byte[] reply) {
        return reply.length - TUPLE_AT;
    }
}
