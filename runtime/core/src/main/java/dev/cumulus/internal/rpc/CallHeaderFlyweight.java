package dev.cumulus.internal.rpc;

import dev.cumulus.internal.wire.Flyweight;

/**
 * The header of a remote call on the data channel, read and written in place (a flyweight: no copy, no allocation).
 * Little endian; layout in docs/design/WIRE.md. {@code callId} {@link RpcEngine#ONE_WAY} wants no reply;
 * {@code methodId} is from {@link MethodIds}; {@code applied} is the caller's replicated-write watermark, applied
 * before the call runs; {@code pollsUntilNs} ({@code nanoTime}, 0 for none) is how long the caller polls for its
 * reply. The arguments ({@code ValueCodec}) follow to the end. {@link #validate(int)} is the decoder's check.
 */
final class CallHeaderFlyweight extends Flyweight<CallHeaderFlyweight> {
    static final byte CALL = 1;

    static final int TYPE_OFFSET = 0;
    static final int CALL_ID_OFFSET = 1;
    static final int OBJECT_ID_OFFSET = 9;
    static final int METHOD_ID_OFFSET = 17;
    static final int APPLIED_OFFSET = 21;
    static final int POLLS_UNTIL_OFFSET = 29;
    /** The header's length: the arguments start here. */
    static final int LENGTH = 37;

    /**
     * True when a message of {@code messageLength} bytes is a call with its whole header; false: reject it (the
     * receiver drops it). Reads only the type byte, and nothing of a message too short to hold the header.
     */
    boolean validate(int messageLength) {
        return messageLength >= LENGTH && buffer.getByte(offset + TYPE_OFFSET) == CALL;
    }

    long callId() {
        return buffer.getLong(offset + CALL_ID_OFFSET, ORDER);
    }

    long objectId() {
        return buffer.getLong(offset + OBJECT_ID_OFFSET, ORDER);
    }

    int methodId() {
        return buffer.getInt(offset + METHOD_ID_OFFSET, ORDER);
    }

    long applied() {
        return buffer.getLong(offset + APPLIED_OFFSET, ORDER);
    }

    long pollsUntilNs() {
        return buffer.getLong(offset + POLLS_UNTIL_OFFSET, ORDER);
    }

    /** Writes the whole header (the type first); the arguments go at {@link #LENGTH} after the wrapped offset. */
    CallHeaderFlyweight write(long callId, long objectId, int methodId, long applied, long pollsUntilNs) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, CALL);
        mutableBuffer.putLong(offset + CALL_ID_OFFSET, callId, ORDER);
        mutableBuffer.putLong(offset + OBJECT_ID_OFFSET, objectId, ORDER);
        mutableBuffer.putInt(offset + METHOD_ID_OFFSET, methodId, ORDER);
        mutableBuffer.putLong(offset + APPLIED_OFFSET, applied, ORDER);
        mutableBuffer.putLong(offset + POLLS_UNTIL_OFFSET, pollsUntilNs, ORDER);
        return this;
    }
}
