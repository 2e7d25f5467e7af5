package dev.cumulus.internal.rpc;

import dev.cumulus.internal.wire.Flyweight;


/**
 * The header of a remote call on the data channel, read and written in place (a flyweight: wrap it over a buffer,
 * then read or write named fields; it copies nothing and allocates nothing). Little endian.
 *
 * <table>
 *   <caption>Call message</caption>
 *   <tr><th>offset</th><th>field</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>type</td><td>u8</td><td>{@link #CALL}</td></tr>
 *   <tr><td>1</td><td>callId</td><td>i64</td><td>the caller's id of the call; {@link RpcEngine#ONE_WAY}: no reply</td></tr>
 *   <tr><td>9</td><td>objectId</td><td>i64</td><td>the exported object called, on the receiving node</td></tr>
 *   <tr><td>17</td><td>methodId</td><td>i32</td><td>the method's id in the object's interface ({@link MethodIds})</td></tr>
 *   <tr><td>21</td><td>applied</td><td>i64</td><td>the caller's replicated-write watermark: applied before the call runs</td></tr>
 *   <tr><td>29</td><td>pollsUntilNs</td><td>i64</td><td>the caller polls for its reply until then ({@code nanoTime}); 0: no promise</td></tr>
 *   <tr><td>37</td><td>arguments</td><td>bytes</td><td>the arguments, by {@code ValueCodec}, to the end of the message</td></tr>
 * </table>
 *
 * {@link #validate(int)} is the decoder's check: a shorter message is not a call and is dropped.
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
