package dev.cumulus.internal.transport;

import dev.cumulus.internal.wire.Flyweight;
import org.agrona.DirectBuffer;


/**
 * The header {@link NodeTransport} puts before every message it sends, read and written in place (a flyweight: wrap
 * it over a buffer, then read or write named fields; it copies nothing and allocates nothing). Little endian.
 *
 * <table>
 *   <caption>Frame header</caption>
 *   <tr><th>offset</th><th>field</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>type</td><td>u8</td><td>{@link #WHOLE} (a whole message) or {@link #CHUNK} (a part)</td></tr>
 *   <tr><td>1</td><td>padding</td><td>3 bytes</td><td>zero</td></tr>
 *   <tr><td>4</td><td>source</td><td>i32</td><td>the sender's node id</td></tr>
 *   <tr><td>8</td><td>runTag</td><td>i32</td><td>the run's tag: frames of another run are dropped</td></tr>
 *   <tr><td>12</td><td>messageId</td><td>i64</td><td>chunks only: the sender's id of the whole message</td></tr>
 *   <tr><td>20</td><td>totalLength</td><td>i32</td><td>chunks only: the whole message's length in bytes</td></tr>
 *   <tr><td>24</td><td>chunkOffset</td><td>i32</td><td>chunks only: where this part goes in the whole message</td></tr>
 * </table>
 *
 * The payload follows: at {@link #WHOLE_LENGTH} for a whole message, at {@link #CHUNK_LENGTH} for a chunk. A whole
 * frame's header is the same for every message a node sends. {@link #headerLength(int)} is the decoder's check; the
 * chunk fields' values (a total above the limit, a part outside its message) are checked by the reassembly.
 */
final class FrameHeaderFlyweight extends Flyweight<FrameHeaderFlyweight> {
    static final byte WHOLE = 1;
    static final byte CHUNK = 2;

    static final int TYPE_OFFSET = 0;
    static final int PADDING_OFFSET = 1;
    static final int SOURCE_OFFSET = 4;
    static final int RUN_TAG_OFFSET = 8;
    static final int MESSAGE_ID_OFFSET = 12;
    static final int TOTAL_LENGTH_OFFSET = 20;
    static final int CHUNK_OFFSET_OFFSET = 24;
    /** Header length of a whole message. */
    static final int WHOLE_LENGTH = 12;
    /** Header length of a chunk. */
    static final int CHUNK_LENGTH = 28;
    /** {@link #headerLength(int)}: not a frame of this transport (too short, or of an unknown type). */
    static final int REJECTED = -1;

    /** The buffer wrapped. */
    DirectBuffer buffer() {
        return buffer;
    }

    /**
     * The decoder's check of a received frame of {@code frameLength} bytes: the header's length for its type
     * ({@link #WHOLE_LENGTH} or {@link #CHUNK_LENGTH}), or {@link #REJECTED} when the frame is shorter than that or of
     * an unknown type. Reads nothing past {@code frameLength}.
     */
    int headerLength(int frameLength) {
        if (frameLength < WHOLE_LENGTH) {
            return REJECTED;
        }
        return switch (type()) {
            case WHOLE -> WHOLE_LENGTH;
            case CHUNK -> frameLength < CHUNK_LENGTH ? REJECTED : CHUNK_LENGTH;
            default -> REJECTED;
        };
    }

    byte type() {
        return buffer.getByte(offset + TYPE_OFFSET);
    }

    int source() {
        return buffer.getInt(offset + SOURCE_OFFSET, ORDER);
    }

    int runTag() {
        return buffer.getInt(offset + RUN_TAG_OFFSET, ORDER);
    }

    long messageId() {
        return buffer.getLong(offset + MESSAGE_ID_OFFSET, ORDER);
    }

    int totalLength() {
        return buffer.getInt(offset + TOTAL_LENGTH_OFFSET, ORDER);
    }

    int chunkOffset() {
        return buffer.getInt(offset + CHUNK_OFFSET_OFFSET, ORDER);
    }

    /** Writes the fields every frame has (the padding zeroed). */
    FrameHeaderFlyweight header(byte type, int source, int runTag) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, type);
        mutableBuffer.putByte(offset + PADDING_OFFSET, (byte) 0);
        mutableBuffer.putShort(offset + PADDING_OFFSET + 1, (short) 0);
        mutableBuffer.putInt(offset + SOURCE_OFFSET, source, ORDER);
        mutableBuffer.putInt(offset + RUN_TAG_OFFSET, runTag, ORDER);
        return this;
    }

    /** Writes a chunk's own fields. */
    FrameHeaderFlyweight chunk(long messageId, int totalLength, int chunkOffset) {
        mutableBuffer.putLong(offset + MESSAGE_ID_OFFSET, messageId, ORDER);
        mutableBuffer.putInt(offset + TOTAL_LENGTH_OFFSET, totalLength, ORDER);
        mutableBuffer.putInt(offset + CHUNK_OFFSET_OFFSET, chunkOffset, ORDER);
        return this;
    }
}
