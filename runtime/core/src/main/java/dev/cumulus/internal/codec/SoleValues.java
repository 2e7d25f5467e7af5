package dev.cumulus.internal.codec;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The quick path for a message that holds one simple value: {@code null}, a boxed {@code int}, {@code long},
 * {@code double} or {@code boolean}, or a {@code byte[]} — most call results, and the argument of most one-argument
 * calls. Such a value needs no encoding session (no handle or class table, no type look-up): it is written and read
 * here directly, in exactly the layout {@link Encoder} and {@link ValueReader} use, so either side may take either
 * path. None of these types can be a reference ({@link ReferenceHandler} maps proxies, exported objects and replica
 * roots), so the handler is not asked about them.
 */
final class SoleValues {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    /** What {@link #read} returns for a message that holds anything else. */
    static final Object OTHER = new Object();

    private SoleValues() {
    }

    /**
     * Writes {@code value} at {@code offset} if it is one of the simple values; returns the offset after it, or -1
     * when it is not (nothing written: encode it in full).
     */
    static int write(MutableDirectBuffer buffer, int offset, Object value, CodecLimits limits) {
        if (value == null) {
            buffer.putByte(offset, Tags.NULL);
            return offset + 1;
        }
        Class<?> type = value.getClass();
        if (type == byte[].class) {
            byte[] bytes = (byte[]) value;
            if (5L + bytes.length > limits.maxMessageBytes()) {
                return -1; // the full path refuses it with a message that names the limit
            }
            buffer.putByte(offset, Tags.BYTE_ARRAY);
            buffer.putInt(offset + 1, bytes.length, LE);
            buffer.putBytes(offset + 5, bytes);
            return offset + 5 + bytes.length;
        }
        if (type == Integer.class) {
            buffer.putByte(offset, Tags.INT);
            buffer.putInt(offset + 1, (Integer) value, LE);
            return offset + 5;
        }
        if (type == Long.class) {
            buffer.putByte(offset, Tags.LONG);
            buffer.putLong(offset + 1, (Long) value, LE);
            return offset + 9;
        }
        if (type == Double.class) {
            buffer.putByte(offset, Tags.DOUBLE);
            buffer.putDouble(offset + 1, (Double) value, LE);
            return offset + 9;
        }
        if (type == Boolean.class) {
            buffer.putByte(offset, Tags.BOOLEAN);
            buffer.putByte(offset + 1, (byte) ((Boolean) value ? 1 : 0));
            return offset + 2;
        }
        return -1;
    }

    /**
     * Reads the one value of the {@code length} bytes at {@code offset} if it is one of the simple values; else
     * returns {@link #OTHER} (read it in full). The caller has checked the range against the buffer and the limits.
     *
     * @throws CodecException if the value is cut short
     */
    static Object read(DirectBuffer buffer, int offset, int length) {
        if (length < 1) {
            return OTHER;
        }
        byte tag = buffer.getByte(offset);
        return switch (tag) {
            case Tags.NULL -> null;
            case Tags.BYTE_ARRAY -> {
                need(length, 5, "byte array length");
                int count = buffer.getInt(offset + 1, LE);
                if (count < 0) {
                    throw new CodecException("malformed message: negative array length " + count);
                }
                if (5L + count > length) { // the message only on failure: no string built per read
                    need(length, 5L + count, "byte array of " + count + " bytes");
                }
                byte[] bytes = new byte[count];
                buffer.getBytes(offset + 5, bytes);
                yield bytes;
            }
            case Tags.INT -> {
                need(length, 5, "int");
                yield buffer.getInt(offset + 1, LE);
            }
            case Tags.LONG -> {
                need(length, 9, "long");
                yield buffer.getLong(offset + 1, LE);
            }
            case Tags.DOUBLE -> {
                need(length, 9, "double");
                yield buffer.getDouble(offset + 1, LE);
            }
            case Tags.BOOLEAN -> {
                need(length, 2, "boolean");
                byte value = buffer.getByte(offset + 1);
                if (value != 0 && value != 1) {
                    throw new CodecException("malformed message: invalid boolean " + value);
                }
                yield value == 1;
            }
            default -> OTHER;
        };
    }

    private static void need(int length, long bytes, String what) {
        if (bytes > length) {
            throw new CodecException("malformed message: truncated " + what + " (" + length + " bytes, " + bytes
                + " needed)");
        }
    }
}
