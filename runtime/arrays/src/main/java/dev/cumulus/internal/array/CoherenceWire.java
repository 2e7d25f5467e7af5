package dev.cumulus.internal.array;

import dev.cumulus.CumulusException;
import dev.cumulus.array.CacheState;
import dev.cumulus.internal.array.CoherenceMessage.Forward;
import dev.cumulus.internal.array.CoherenceMessage.ForwardReply;
import dev.cumulus.internal.array.CoherenceMessage.Grant;
import dev.cumulus.internal.array.CoherenceMessage.Invalidate;
import dev.cumulus.internal.array.CoherenceMessage.InvalidateAck;
import dev.cumulus.internal.array.CoherenceMessage.ReadRequest;
import dev.cumulus.internal.array.CoherenceMessage.WriteRequest;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import dev.cumulus.internal.codec.BytesView;
import dev.cumulus.internal.codec.PreEncodedBytes;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The compact wire form of a {@link CoherenceMessage}: a miss sends two or more of them, so they skip the general
 * by-value codec (class names, reflection) for a fixed layout, little-endian:
 *
 * <pre>
 *   type:u8  nameLength:u16  name:utf8  partition:i32  fields of the type  [data]
 *   data = kind:u8 (0 none, else ElementKind ordinal + 1)  length:i32  elements
 * </pre>
 *
 * Decoding is in two steps so the receiver can bound everything by what it knows of the array: {@link #arrayName}
 * reads only the name; {@link #decode} checks the element kind and the partition length against the array's spec and
 * refuses anything else with a {@link CumulusException} that says what was wrong. Both read a {@link BytesView} of
 * the incoming call's bytes and never past its end; a partition is copied once, from there into a new array.
 */
final class CoherenceWire {
    /** Longest array name in UTF-8 bytes ({@code ArraySpec.validate} refuses longer ones at creation). */
    static final int MAX_NAME_BYTES = 4096;

    private static final byte READ_REQUEST = 1;
    private static final byte WRITE_REQUEST = 2;
    private static final byte FORWARD = 3;
    private static final byte FORWARD_REPLY = 4;
    private static final byte INVALIDATE = 5;
    private static final byte INVALIDATE_ACK = 6;
    private static final byte GRANT = 7;

    private static final Access[] ACCESSES = Access.values();
    private static final CacheState[] STATES = CacheState.values();
    private static final ElementKind[] KINDS = ElementKind.values();

    private CoherenceWire() {
    }

    static byte[] encode(CoherenceMessage m) {
        Encoded e = encoder(m);
        byte[] bytes = new byte[e.byteLength()];
        e.writeTo(new UnsafeBuffer(bytes), 0);
        return bytes;
    }

    /**
     * {@code m} ready to be written straight into an outgoing message (as the {@code byte[]} {@link #encode} would
     * return): a partition's data is copied once, into the message, instead of into an array first.
     */
    static Encoded encoder(CoherenceMessage m) {
        return new Encoded(m);
    }

    /** One message's wire form, written on demand; see {@link #encoder}. */
    static final class Encoded implements PreEncodedBytes {
        private final CoherenceMessage message;
        private final byte[] name;
        private final Object data;
        private final ElementKind kind;
        private final int length;

        private Encoded(CoherenceMessage m) {
            this.message = m;
            this.name = m.array().getBytes(StandardCharsets.UTF_8);
            if (name.length > MAX_NAME_BYTES) {
                throw new CumulusException("shared array name of " + name.length + " bytes is too long (at most "
                    + MAX_NAME_BYTES + ")");
            }
            this.data = switch (m) {
                case Grant g -> g.data();
                case ForwardReply r -> r.data();
                default -> null;
            };
            this.kind = data == null ? null : kindOf(data);
            int dataBytes = data == null ? 1 : 5 + kind.length(data) * kind.bytes;
            int fieldBytes = switch (m) {
                case ReadRequest r -> 4;
                case WriteRequest w -> 4;
                case InvalidateAck a -> 4;
                case Invalidate i -> 8;
                case Forward f -> 13;
                case ForwardReply r -> 5 + dataBytes;
                case Grant g -> 13 + dataBytes;
            };
            this.length = 1 + 2 + name.length + 4 + fieldBytes;
        }

        @Override
        public int byteLength() {
            return length;
        }

        @Override
        public void writeTo(MutableDirectBuffer b, int index) {
            int i = index;
            b.putByte(i, typeOf(message));
            b.putShort(i + 1, (short) name.length, ByteOrder.LITTLE_ENDIAN);
            b.putBytes(i + 3, name);
            i += 3 + name.length;
            b.putInt(i, message.partition(), ByteOrder.LITTLE_ENDIAN);
            i += 4;
            switch (message) {
                case ReadRequest r -> i = putInt(b, i, r.from());
                case WriteRequest w -> i = putInt(b, i, w.from());
                case InvalidateAck a -> i = putInt(b, i, a.from());
                case Invalidate v -> {
                    b.putLong(i, v.seq(), ByteOrder.LITTLE_ENDIAN);
                    i += 8;
                }
                case Forward f -> {
                    b.putByte(i, (byte) f.access().ordinal());
                    b.putLong(i + 1, f.seq(), ByteOrder.LITTLE_ENDIAN);
                    i = putInt(b, i + 9, f.requester());
                }
                case ForwardReply r -> {
                    i = putInt(b, i, r.from());
                    b.putByte(i, (byte) r.access().ordinal());
                    i = putData(b, i + 1);
                }
                case Grant g -> {
                    b.putByte(i, (byte) g.state().ordinal());
                    b.putLong(i + 1, g.seq(), ByteOrder.LITTLE_ENDIAN);
                    i = putInt(b, i + 9, g.hops());
                    i = putData(b, i);
                }
            }
            if (i != index + length) {
                throw new IllegalStateException("CoherenceWire sized a " + message.getClass().getSimpleName()
                    + " as " + length + " bytes but wrote " + (i - index));
            }
        }

        private static int putInt(MutableDirectBuffer b, int i, int value) {
            b.putInt(i, value, ByteOrder.LITTLE_ENDIAN);
            return i + 4;
        }

        private int putData(MutableDirectBuffer b, int i) {
            if (data == null) {
                b.putByte(i, (byte) 0);
                return i + 1;
            }
            int n = kind.length(data);
            b.putByte(i, (byte) (kind.ordinal() + 1));
            b.putInt(i + 1, n, ByteOrder.LITTLE_ENDIAN);
            i += 5;
            byte[] array = b.byteArray();
            if (array != null) { // a heap buffer (the RPC's send buffer): one bulk copy
                MemorySegment.copy(data, 0, MemorySegment.ofArray(array), layout(kind), b.wrapAdjustment() + i, n);
            } else {
                for (int k = 0; k < n; k++) {
                    int at = i + k * kind.bytes;
                    switch (kind) {
                        case DOUBLE -> b.putDouble(at, ((double[]) data)[k], ByteOrder.LITTLE_ENDIAN);
                        case FLOAT -> b.putFloat(at, ((float[]) data)[k], ByteOrder.LITTLE_ENDIAN);
                        case LONG -> b.putLong(at, ((long[]) data)[k], ByteOrder.LITTLE_ENDIAN);
                        case INT -> b.putInt(at, ((int[]) data)[k], ByteOrder.LITTLE_ENDIAN);
                    }
                }
            }
            return i + n * kind.bytes;
        }
    }

    /** The name of the array a message is for (the first step of decoding). */
    static String arrayName(BytesView message) {
        try {
            ByteBuffer b = wrap(message);
            b.get();
            return name(b);
        } catch (BufferUnderflowException e) {
            throw truncated();
        }
    }

    /**
     * Decodes a message for {@code spec}'s array in a cluster of {@code nodes}: node ids must be below it, data of the
     * array's kind and one partition long, a grant's state SHARED or EXCLUSIVE, a forward reply must carry data.
     */
    static CoherenceMessage decode(BytesView message, ArraySpec spec, int partitionLength, int nodes) {
        try {
            ByteBuffer b = wrap(message);
            byte type = b.get();
            String array = name(b);
            int partition = b.getInt();
            CoherenceMessage m = switch (type) {
                case READ_REQUEST -> new ReadRequest(array, partition, node(b.getInt(), nodes));
                case WRITE_REQUEST -> new WriteRequest(array, partition, node(b.getInt(), nodes));
                case INVALIDATE_ACK -> new InvalidateAck(array, partition, node(b.getInt(), nodes));
                case INVALIDATE -> new Invalidate(array, partition, b.getLong());
                case FORWARD -> new Forward(array, partition, access(b.get()), b.getLong(), node(b.getInt(), nodes));
                case FORWARD_REPLY -> {
                    int from = node(b.getInt(), nodes);
                    Access access = access(b.get());
                    Object data = data(b, spec, partitionLength);
                    if (data == null) {
                        throw bad("a ForwardReply without data");
                    }
                    yield new ForwardReply(array, partition, from, access, data);
                }
                case GRANT -> {
                    CacheState state = state(b.get());
                    long seq = b.getLong();
                    int hops = b.getInt();
                    if (state == CacheState.INVALID || hops < 0) {
                        throw bad("a Grant of state " + state + " with " + hops + " hops");
                    }
                    yield new Grant(array, partition, state, seq, data(b, spec, partitionLength), hops);
                }
                default -> throw bad("unknown message type " + type);
            };
            if (b.hasRemaining()) {
                throw bad(b.remaining() + " bytes after the end of a " + m.getClass().getSimpleName());
            }
            return m;
        } catch (BufferUnderflowException e) {
            throw truncated();
        }
    }

    /** The message's bytes, little-endian, from its first byte up to its last (reads stop there). */
    private static ByteBuffer wrap(BytesView message) {
        return ByteBuffer.wrap(message.array(), message.offset(), message.length()).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte typeOf(CoherenceMessage m) {
        return switch (m) {
            case ReadRequest r -> READ_REQUEST;
            case WriteRequest w -> WRITE_REQUEST;
            case Forward f -> FORWARD;
            case ForwardReply r -> FORWARD_REPLY;
            case Invalidate i -> INVALIDATE;
            case InvalidateAck a -> INVALIDATE_ACK;
            case Grant g -> GRANT;
        };
    }

    private static ElementKind kindOf(Object data) {
        return switch (data) {
            case double[] d -> ElementKind.DOUBLE;
            case float[] f -> ElementKind.FLOAT;
            case long[] l -> ElementKind.LONG;
            case int[] i -> ElementKind.INT;
            default -> throw new IllegalArgumentException("not a partition array: " + data.getClass().getName());
        };
    }

    private static Object data(ByteBuffer b, ArraySpec spec, int partitionLength) {
        int k = b.get();
        if (k == 0) {
            return null;
        }
        if (k < 1 || k > KINDS.length || KINDS[k - 1] != spec.kind()) {
            throw bad("data of kind " + k + " for array '" + spec.name() + "' of " + spec.kind().javaName());
        }
        int n = b.getInt();
        if (n != partitionLength) {
            throw bad("a partition of " + n + " elements for array '" + spec.name() + "', whose partitions have "
                + partitionLength);
        }
        if (b.remaining() < (long) n * spec.kind().bytes) {
            throw truncated();
        }
        Object data = spec.kind().newArray(n);
        MemorySegment.copy(MemorySegment.ofArray(b.array()), layout(spec.kind()), b.arrayOffset() + b.position(), data,
            0, n);
        b.position(b.position() + n * spec.kind().bytes);
        return data;
    }

    /** The little-endian element layout of a partition of {@code kind} in the wire form (a bulk copy either way). */
    private static ValueLayout layout(ElementKind kind) {
        return switch (kind) {
            case DOUBLE -> DOUBLE_LE;
            case FLOAT -> FLOAT_LE;
            case LONG -> LONG_LE;
            case INT -> INT_LE;
        };
    }

    private static final ValueLayout DOUBLE_LE = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout FLOAT_LE = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static String name(ByteBuffer b) {
        int length = Short.toUnsignedInt(b.getShort());
        if (length > MAX_NAME_BYTES || length > b.remaining()) {
            throw bad("an array name of " + length + " bytes");
        }
        String name = new String(b.array(), b.arrayOffset() + b.position(), length, StandardCharsets.UTF_8);
        b.position(b.position() + length);
        return name;
    }

    private static int node(int id, int nodes) {
        if (id < 0 || id >= nodes) {
            throw bad("node id " + id + " in a cluster of " + nodes);
        }
        return id;
    }

    private static Access access(byte ordinal) {
        if (ordinal < 0 || ordinal >= ACCESSES.length) {
            throw bad("unknown access " + ordinal);
        }
        return ACCESSES[ordinal];
    }

    private static CacheState state(byte ordinal) {
        if (ordinal < 0 || ordinal >= STATES.length) {
            throw bad("unknown cache state " + ordinal);
        }
        return STATES[ordinal];
    }

    private static CumulusException truncated() {
        return bad("a truncated message");
    }

    private static CumulusException bad(String what) {
        return new CumulusException("shared arrays: a coherence message is malformed (" + what
            + "); do all nodes run the same Cumulus version?");
    }
}
