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
 *
 * <p>Over UDP every frame is <em>sealed</em> ({@link SealedPublication}, {@link FrameOpener}): its type is
 * {@link #SEALED_WHOLE} or {@link #SEALED_CHUNK} (the plain type with bit {@code 0x10}), the padding's first byte
 * holds the flags ({@link #FLAG_ENCRYPTED}), and the plain header is followed by
 *
 * <table>
 *   <caption>Seal (after the plain header: at 12 for a whole message, at 28 for a chunk)</caption>
 *   <tr><th>offset</th><th>field</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>+0</td><td>counter</td><td>i64</td><td>the sender's count of frames on this stream, from 1, rising by
 *   at least one per frame: a frame whose counter is not above the last one taken is a replay</td></tr>
 *   <tr><td>+8</td><td>tag</td><td>16 bytes</td><td>HMAC-SHA256 truncated to 16 bytes, or the AES-GCM tag when
 *   encrypted, over the destination node id (i32) and channel (u8), the header up to the tag, and the payload</td></tr>
 * </table>
 *
 * so a sealed whole message's payload starts at {@link #SEALED_WHOLE_LENGTH} and a sealed chunk's at
 * {@link #SEALED_CHUNK_LENGTH}. A sealed frame is never read beyond this header's fixed fields before its tag checks.
 */
public final class FrameHeaderFlyweight extends Flyweight<FrameHeaderFlyweight> {
    public static final byte WHOLE = 1;
    public static final byte CHUNK = 2;
    /** The bit that marks a sealed frame's type. */
    public static final byte SEALED = 0x10;
    public static final byte SEALED_WHOLE = SEALED | WHOLE;
    static final byte SEALED_CHUNK = SEALED | CHUNK;
    /** Flags bit: the payload is encrypted (AES-GCM). */
    static final byte FLAG_ENCRYPTED = 1;
    public static final int TAG_LENGTH = 16;
    /** What a seal adds to a plain header: the counter and the tag. */
    public static final int SEAL_LENGTH = 8 + TAG_LENGTH;

    static final int TYPE_OFFSET = 0;
    static final int PADDING_OFFSET = 1;
    static final int SOURCE_OFFSET = 4;
    static final int RUN_TAG_OFFSET = 8;
    static final int MESSAGE_ID_OFFSET = 12;
    static final int TOTAL_LENGTH_OFFSET = 20;
    static final int CHUNK_OFFSET_OFFSET = 24;
    /** Header length of a whole message. */
    public static final int WHOLE_LENGTH = 12;
    /** Header length of a chunk. */
    public static final int CHUNK_LENGTH = 28;
    public static final int SEALED_WHOLE_LENGTH = WHOLE_LENGTH + SEAL_LENGTH;
    static final int SEALED_CHUNK_LENGTH = CHUNK_LENGTH + SEAL_LENGTH;
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

    /**
     * The check of a frame that arrived over UDP, where every frame is sealed: the sealed header's length for its type
     * ({@link #SEALED_WHOLE_LENGTH} or {@link #SEALED_CHUNK_LENGTH}), or {@link #REJECTED} when the frame is shorter
     * than that or not sealed.
     */
    int sealedHeaderLength(int frameLength) {
        if (frameLength < SEALED_WHOLE_LENGTH) {
            return REJECTED;
        }
        return switch (type()) {
            case SEALED_WHOLE -> SEALED_WHOLE_LENGTH;
            case SEALED_CHUNK -> frameLength < SEALED_CHUNK_LENGTH ? REJECTED : SEALED_CHUNK_LENGTH;
            default -> REJECTED;
        };
    }

    /** A sealed frame's flags ({@link #FLAG_ENCRYPTED}). */
    byte flags() {
        return buffer.getByte(offset + PADDING_OFFSET);
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
    public FrameHeaderFlyweight header(byte type, int source, int runTag) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, type);
        mutableBuffer.putByte(offset + PADDING_OFFSET, (byte) 0);
        mutableBuffer.putShort(offset + PADDING_OFFSET + 1, (short) 0);
        mutableBuffer.putInt(offset + SOURCE_OFFSET, source, ORDER);
        mutableBuffer.putInt(offset + RUN_TAG_OFFSET, runTag, ORDER);
        return this;
    }

    /** Writes a chunk's own fields. */
    public FrameHeaderFlyweight chunk(long messageId, int totalLength, int chunkOffset) {
        mutableBuffer.putLong(offset + MESSAGE_ID_OFFSET, messageId, ORDER);
        mutableBuffer.putInt(offset + TOTAL_LENGTH_OFFSET, totalLength, ORDER);
        mutableBuffer.putInt(offset + CHUNK_OFFSET_OFFSET, chunkOffset, ORDER);
        return this;
    }
}
