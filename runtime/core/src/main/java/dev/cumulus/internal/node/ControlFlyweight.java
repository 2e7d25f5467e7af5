package dev.cumulus.internal.node;

import dev.cumulus.internal.wire.Flyweight;

/**
 * A message of the control channel ({@link ControlMessage}), read and written in place (a flyweight: wrap it over a
 * buffer, then read or write named fields; it copies nothing and allocates nothing but a failure's reason). Little
 * endian; a type byte, then the fields of that type.
 *
 * <table>
 *   <caption>Control messages</caption>
 *   <tr><th>type</th><th>offset</th><th>field</th><th>field type</th></tr>
 *   <tr><td rowspan="2">{@link #HELLO} (1)</td><td>1</td><td>pid</td><td>i64</td></tr>
 *   <tr><td>9</td><td>host</td><td>i64 (0: unknown)</td></tr>
 *   <tr><td rowspan="3">{@link #HEARTBEAT} (2)</td><td>1</td><td>progress</td><td>i64</td></tr>
 *   <tr><td>9</td><td>pid</td><td>i64</td></tr>
 *   <tr><td>17</td><td>host</td><td>i64 (0: unknown)</td></tr>
 *   <tr><td>{@link #PROBE} (7)</td><td>—</td><td>no fields</td><td></td></tr>
 *   <tr><td rowspan="3">{@link #BARRIER_ENTER} (3), {@link #BARRIER_RELEASE} (4)</td>
 *       <td>1</td><td>epoch</td><td>i64</td></tr>
 *   <tr><td>9</td><td>watermark</td><td>i64</td></tr>
 *   <tr><td>17</td><td>kind (entries only)</td><td>i8, a {@link BarrierKind} code</td></tr>
 *   <tr><td rowspan="2">{@link #GOODBYE} (5)</td><td>1</td><td>lastBarrier</td><td>i64</td></tr>
 *   <tr><td>9</td><td>leaving</td><td>i8, a {@link Leaving} code</td></tr>
 *   <tr><td rowspan="3">{@link #FAILURE} (6)</td><td>1</td><td>failedNode</td><td>i32</td></tr>
 *   <tr><td>5</td><td>reasonLength</td><td>i32, 0 to {@link #MAX_REASON_BYTES}</td></tr>
 *   <tr><td>9</td><td>reason</td><td>UTF-8, reasonLength bytes</td></tr>
 * </table>
 *
 * {@link #validate(int)} is the decoder's check; a message it refuses is dropped. A message may be longer than its
 * type needs (the rest is ignored).
 */
final class ControlFlyweight extends Flyweight<ControlFlyweight> {
    static final byte HELLO = 1;
    static final byte HEARTBEAT = 2;
    static final byte BARRIER_ENTER = 3;
    static final byte BARRIER_RELEASE = 4;
    static final byte GOODBYE = 5;
    static final byte FAILURE = 6;
    static final byte PROBE = 7;

    /** Longest failure reason in UTF-8 bytes: a sender cuts longer ones, a receiver refuses them. */
    static final int MAX_REASON_BYTES = 1024;

    static final int TYPE_OFFSET = 0;
    /** Length of a message of a type without fields. */
    static final int TYPE_ONLY_LENGTH = 1;
    static final int PID_OFFSET = 1;
    static final int HOST_OFFSET = 9;
    static final int HELLO_LENGTH = 17;
    static final int PROGRESS_OFFSET = 1;
    static final int HEARTBEAT_PID_OFFSET = 9;
    static final int HEARTBEAT_HOST_OFFSET = 17;
    static final int HEARTBEAT_LENGTH = 25;
    static final int EPOCH_OFFSET = 1;
    static final int WATERMARK_OFFSET = 9;
    static final int BARRIER_LENGTH = 17;
    static final int BARRIER_KIND_OFFSET = 17;
    static final int BARRIER_ENTER_LENGTH = 18;
    static final int LAST_BARRIER_OFFSET = 1;
    static final int LEAVING_OFFSET = 9;
    static final int GOODBYE_LENGTH = 10;
    static final int FAILED_NODE_OFFSET = 1;
    static final int REASON_LENGTH_OFFSET = 5;
    static final int REASON_OFFSET = 9;

    /**
     * True when a message of {@code messageLength} bytes is a control message of a known type with all its type's
     * fields, a known barrier kind and way of leaving, a failure's reason within {@link #MAX_REASON_BYTES} and the message; false: reject it (it is dropped).
     * Reads nothing past {@code messageLength}.
     */
    boolean validate(int messageLength) {
        if (messageLength < TYPE_ONLY_LENGTH) {
            return false;
        }
        return switch (type()) {
            case HELLO -> messageLength >= HELLO_LENGTH;
            case HEARTBEAT -> messageLength >= HEARTBEAT_LENGTH;
            case PROBE -> true;
            case BARRIER_ENTER -> messageLength >= BARRIER_ENTER_LENGTH && BarrierKind.of(barrierKind()) != null;
            case BARRIER_RELEASE -> messageLength >= BARRIER_LENGTH;
            case GOODBYE -> messageLength >= GOODBYE_LENGTH && Leaving.of(leaving()) != null;
            case FAILURE -> {
                if (messageLength < REASON_OFFSET) {
                    yield false;
                }
                int n = reasonLength();
                yield n >= 0 && n <= MAX_REASON_BYTES && n <= messageLength - REASON_OFFSET;
            }
            default -> false;
        };
    }

    byte type() {
        return buffer.getByte(offset + TYPE_OFFSET);
    }

    /** Hellos and heartbeats: the sender's process id. */
    long pid() {
        return buffer.getLong(offset + (type() == HEARTBEAT ? HEARTBEAT_PID_OFFSET : PID_OFFSET), ORDER);
    }

    /** Hellos and heartbeats: the sender's host identity (0: unknown). */
    long host() {
        return buffer.getLong(offset + (type() == HEARTBEAT ? HEARTBEAT_HOST_OFFSET : HOST_OFFSET), ORDER);
    }

    /** Heartbeats: the sender's agent's progress count. */
    long progress() {
        return buffer.getLong(offset + PROGRESS_OFFSET, ORDER);
    }

    /** Barrier entries and releases: the barrier's number. */
    long epoch() {
        return buffer.getLong(offset + EPOCH_OFFSET, ORDER);
    }

    /** Barrier entries and releases: the replicated-write watermark. */
    long watermark() {
        return buffer.getLong(offset + WATERMARK_OFFSET, ORDER);
    }

    /** Barrier entries: which barrier the sender entered ({@link BarrierKind#code()}). */
    byte barrierKind() {
        return buffer.getByte(offset + BARRIER_KIND_OFFSET);
    }

    /** Goodbyes: how the sender leaves ({@link Leaving#code()}). */
    byte leaving() {
        return buffer.getByte(offset + LEAVING_OFFSET);
    }

    /** Goodbyes: the last global barrier the sender passed. */
    long lastBarrier() {
        return buffer.getLong(offset + LAST_BARRIER_OFFSET, ORDER);
    }

    /** Failures: the node that failed (the receiver checks it against the cluster's size). */
    int failedNode() {
        return buffer.getInt(offset + FAILED_NODE_OFFSET, ORDER);
    }

    /** Failures: the reason's length in bytes. */
    int reasonLength() {
        return buffer.getInt(offset + REASON_LENGTH_OFFSET, ORDER);
    }

    /** Failures: the reason (a validated message's). */
    String reason() {
        return buffer.getStringWithoutLengthUtf8(offset + REASON_OFFSET, reasonLength());
    }

    /** Writes a message of a type without fields; returns its length. */
    int writeTypeOnly(byte type) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, type);
        return TYPE_ONLY_LENGTH;
    }

    /** Writes a hello; returns its length. */
    int writeHello(long pid, long host) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, HELLO);
        mutableBuffer.putLong(offset + PID_OFFSET, pid, ORDER);
        mutableBuffer.putLong(offset + HOST_OFFSET, host, ORDER);
        return HELLO_LENGTH;
    }

    /** Writes a heartbeat; returns its length. */
    int writeHeartbeat(long progress, long pid, long host) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, HEARTBEAT);
        mutableBuffer.putLong(offset + PROGRESS_OFFSET, progress, ORDER);
        mutableBuffer.putLong(offset + HEARTBEAT_PID_OFFSET, pid, ORDER);
        mutableBuffer.putLong(offset + HEARTBEAT_HOST_OFFSET, host, ORDER);
        return HEARTBEAT_LENGTH;
    }

    /** Writes a barrier release; returns its length. */
    int writeBarrierRelease(long epoch, long watermark) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, BARRIER_RELEASE);
        mutableBuffer.putLong(offset + EPOCH_OFFSET, epoch, ORDER);
        mutableBuffer.putLong(offset + WATERMARK_OFFSET, watermark, ORDER);
        return BARRIER_LENGTH;
    }

    /** Writes a barrier entry; returns its length. */
    int writeBarrierEnter(long epoch, long watermark, BarrierKind kind) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, BARRIER_ENTER);
        mutableBuffer.putLong(offset + EPOCH_OFFSET, epoch, ORDER);
        mutableBuffer.putLong(offset + WATERMARK_OFFSET, watermark, ORDER);
        mutableBuffer.putByte(offset + BARRIER_KIND_OFFSET, kind.code());
        return BARRIER_ENTER_LENGTH;
    }

    /** Writes a goodbye; returns its length. */
    int writeGoodbye(long lastBarrier, Leaving leaving) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, GOODBYE);
        mutableBuffer.putLong(offset + LAST_BARRIER_OFFSET, lastBarrier, ORDER);
        mutableBuffer.putByte(offset + LEAVING_OFFSET, leaving.code());
        return GOODBYE_LENGTH;
    }

    /** Writes a failure with the first {@link #MAX_REASON_BYTES} bytes of {@code reason} at most; returns its length. */
    int writeFailure(int failedNode, byte[] reason) {
        int n = Math.min(reason.length, MAX_REASON_BYTES);
        mutableBuffer.putByte(offset + TYPE_OFFSET, FAILURE);
        mutableBuffer.putInt(offset + FAILED_NODE_OFFSET, failedNode, ORDER);
        mutableBuffer.putInt(offset + REASON_LENGTH_OFFSET, n, ORDER);
        mutableBuffer.putBytes(offset + REASON_OFFSET, reason, 0, n);
        return REASON_OFFSET + n;
    }
}
