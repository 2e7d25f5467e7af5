package dev.cumulus.internal.rpc;

import dev.cumulus.internal.wire.Flyweight;

/**
 * The header of a call's answer on the data channel, a {@link #REPLY} (result), an {@link #ERROR} (exception) or
 * {@link #MOVED} (the object is elsewhere now: send the call there), read
 * and written in place (a flyweight: no copy, no allocation). Little endian; layout in docs/design/WIRE.md.
 * {@code applied} is the answering node's replicated-write watermark, applied before the caller returns. The value
 * ({@code ValueCodec}) follows to the end. {@link #validate(int)} is the decoder's check.
 */
final class ReplyHeaderFlyweight extends Flyweight<ReplyHeaderFlyweight> {
    static final byte REPLY = 2;
    static final byte ERROR = 3;
    /**
     * The object migrated and did not run the call: the value is the node it moved to (an int) and then the call
     * message as it came, which the caller sends there again.
     */
    static final byte MOVED = 4;
    /**
     * Added to a type: the answer comes from the node an object moved to, for a call that waited at the object's former
     * node and was handed over with the object. An int after the header names that former node (the one the caller
     * sent the call to); the answer's value follows it.
     */
    static final byte HANDED = 0x10;

    static final int TYPE_OFFSET = 0;
    static final int CALL_ID_OFFSET = 1;
    static final int APPLIED_OFFSET = 9;
    /** The header's length: the value starts here. */
    static final int LENGTH = 17;
    /** Where a handed answer's value starts: after the header and the former node. */
    static final int HANDED_VALUE = LENGTH + Integer.BYTES;

    /**
     * True when a message of {@code messageLength} bytes is a reply or an error with its whole header; false: reject
     * it (the receiver drops it). Reads only the type byte, and nothing of a message too short to hold the header.
     */
    boolean validate(int messageLength) {
        if (messageLength < LENGTH) {
            return false;
        }
        byte type = type();
        byte plain = (byte) (type & ~HANDED);
        return (plain == REPLY || plain == ERROR || plain == MOVED)
            && (type == plain || messageLength >= HANDED_VALUE);
    }

    /** Whether this answer was {@link #HANDED}. */
    boolean handed() {
        return (type() & HANDED) != 0;
    }

    /** The former node a {@link #HANDED} answer names. */
    int handedBy() {
        return buffer.getInt(offset + LENGTH, ORDER);
    }

    byte type() {
        return buffer.getByte(offset + TYPE_OFFSET);
    }

    long callId() {
        return buffer.getLong(offset + CALL_ID_OFFSET, ORDER);
    }

    long applied() {
        return buffer.getLong(offset + APPLIED_OFFSET, ORDER);
    }

    /** Writes the whole header; the value goes at {@link #LENGTH} after the wrapped offset. */
    ReplyHeaderFlyweight write(byte type, long callId, long applied) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, type);
        mutableBuffer.putLong(offset + CALL_ID_OFFSET, callId, ORDER);
        mutableBuffer.putLong(offset + APPLIED_OFFSET, applied, ORDER);
        return this;
    }
}
