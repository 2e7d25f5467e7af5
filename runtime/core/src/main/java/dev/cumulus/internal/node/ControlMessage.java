package dev.cumulus.internal.node;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Messages of the control channel: membership, liveness, the global barrier and fail-stop. Each is a record; the
 * encoding is one type byte followed by the record's fields, little endian. Decoding is total: unknown or short
 * input yields {@code null}, never an exception.
 */
sealed interface ControlMessage {
    int MAX_REASON_BYTES = 1024;

    /** "I am up and subscribed." Sent until the sender has heard from everybody. */
    record Hello() implements ControlMessage {
    }

    /** "I am alive." Sent every heartbeat interval. */
    record Heartbeat() implements ControlMessage {
    }

    /** A node entered global barrier {@code epoch}, having applied broadcasts up to {@code watermark}. */
    record BarrierEnter(long epoch, long watermark) implements ControlMessage {
    }

    /** Every node entered barrier {@code epoch}; each leaves once it applied broadcasts up to {@code watermark}. */
    record BarrierRelease(long epoch, long watermark) implements ControlMessage {
    }

    /**
     * The sender is leaving normally after global barrier {@code lastBarrier}; its silence from now on is not a
     * failure, and barriers after that one cannot complete.
     */
    record Goodbye(long lastBarrier) implements ControlMessage {
    }

    /** Node {@code failedNode} failed for {@code reason}; the run is over (fail-stop). */
    record Failure(int failedNode, String reason) implements ControlMessage {
    }

    byte HELLO = 1;
    byte HEARTBEAT = 2;
    byte BARRIER_ENTER = 3;
    byte BARRIER_RELEASE = 4;
    byte GOODBYE = 5;
    byte FAILURE = 6;

    /** Encodes {@code message} at offset 0 of {@code buffer}; returns the length. */
    static int encode(ControlMessage message, MutableDirectBuffer buffer) {
        return switch (message) {
            case Hello h -> {
                buffer.putByte(0, HELLO);
                yield 1;
            }
            case Heartbeat h -> {
                buffer.putByte(0, HEARTBEAT);
                yield 1;
            }
            case BarrierEnter b -> {
                buffer.putByte(0, BARRIER_ENTER);
                buffer.putLong(1, b.epoch(), ByteOrder.LITTLE_ENDIAN);
                buffer.putLong(9, b.watermark(), ByteOrder.LITTLE_ENDIAN);
                yield 17;
            }
            case BarrierRelease b -> {
                buffer.putByte(0, BARRIER_RELEASE);
                buffer.putLong(1, b.epoch(), ByteOrder.LITTLE_ENDIAN);
                buffer.putLong(9, b.watermark(), ByteOrder.LITTLE_ENDIAN);
                yield 17;
            }
            case Goodbye g -> {
                buffer.putByte(0, GOODBYE);
                buffer.putLong(1, g.lastBarrier(), ByteOrder.LITTLE_ENDIAN);
                yield 9;
            }
            case Failure f -> {
                byte[] reason = f.reason().getBytes(StandardCharsets.UTF_8);
                int n = Math.min(reason.length, MAX_REASON_BYTES);
                buffer.putByte(0, FAILURE);
                buffer.putInt(1, f.failedNode(), ByteOrder.LITTLE_ENDIAN);
                buffer.putInt(5, n, ByteOrder.LITTLE_ENDIAN);
                buffer.putBytes(9, reason, 0, n);
                yield 9 + n;
            }
        };
    }

    /** Decodes one message, or returns {@code null} when the bytes are not a valid control message. */
    static ControlMessage decode(DirectBuffer buffer, int offset, int length) {
        if (length < 1) {
            return null;
        }
        byte type = buffer.getByte(offset);
        return switch (type) {
            case HELLO -> new Hello();
            case HEARTBEAT -> new Heartbeat();
            case GOODBYE -> length < 9 ? null : new Goodbye(buffer.getLong(offset + 1, ByteOrder.LITTLE_ENDIAN));
            case BARRIER_ENTER, BARRIER_RELEASE -> {
                if (length < 17) {
                    yield null;
                }
                long epoch = buffer.getLong(offset + 1, ByteOrder.LITTLE_ENDIAN);
                long watermark = buffer.getLong(offset + 9, ByteOrder.LITTLE_ENDIAN);
                yield type == BARRIER_ENTER ? new BarrierEnter(epoch, watermark) : new BarrierRelease(epoch, watermark);
            }
            case FAILURE -> {
                if (length < 9) {
                    yield null;
                }
                int node = buffer.getInt(offset + 1, ByteOrder.LITTLE_ENDIAN);
                int n = buffer.getInt(offset + 5, ByteOrder.LITTLE_ENDIAN);
                if (n < 0 || n > MAX_REASON_BYTES || 9 + n > length) {
                    yield null;
                }
                yield new Failure(node, buffer.getStringWithoutLengthUtf8(offset + 9, n));
            }
            default -> null;
        };
    }
}
