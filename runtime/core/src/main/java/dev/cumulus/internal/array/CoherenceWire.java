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
 * refuses anything else with a {@link CumulusException} that says what was wrong.
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
        byte[] name = m.array().getBytes(StandardCharsets.UTF_8);
        if (name.length > MAX_NAME_BYTES) {
            throw new CumulusException("shared array name of " + name.length + " bytes is too long (at most "
                + MAX_NAME_BYTES + ")");
        }
        Object data = switch (m) {
            case Grant g -> g.data();
            case ForwardReply r -> r.data();
            default -> null;
        };
        ElementKind kind = data == null ? null : kindOf(data);
        int dataBytes = data == null ? 1 : 5 + kind.length(data) * kind.bytes;
        ByteBuffer b = ByteBuffer.allocate(1 + 2 + name.length + 4 + 17 + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.put(typeOf(m)).putShort((short) name.length).put(name).putInt(m.partition());
        switch (m) {
            case ReadRequest r -> b.putInt(r.from());
            case WriteRequest w -> b.putInt(w.from());
            case InvalidateAck a -> b.putInt(a.from());
            case Invalidate i -> b.putLong(i.seq());
            case Forward f -> b.put((byte) f.access().ordinal()).putLong(f.seq()).putInt(f.requester());
            case ForwardReply r -> {
                b.putInt(r.from()).put((byte) r.access().ordinal());
                putData(b, kind, data);
            }
            case Grant g -> {
                b.put((byte) g.state().ordinal()).putLong(g.seq()).putInt(g.hops());
                putData(b, kind, data);
            }
        }
        return b.position() == b.capacity() ? b.array() : java.util.Arrays.copyOf(b.array(), b.position());
    }

    /** The name of the array a message is for (the first step of decoding). */
    static String arrayName(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
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
    static CoherenceMessage decode(byte[] bytes, ArraySpec spec, int partitionLength, int nodes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
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

    private static void putData(ByteBuffer b, ElementKind kind, Object data) {
        if (data == null) {
            b.put((byte) 0);
            return;
        }
        int n = kind.length(data);
        b.put((byte) (kind.ordinal() + 1)).putInt(n);
        switch (kind) {
            case DOUBLE -> b.asDoubleBuffer().put((double[]) data);
            case FLOAT -> b.asFloatBuffer().put((float[]) data);
            case LONG -> b.asLongBuffer().put((long[]) data);
            case INT -> b.asIntBuffer().put((int[]) data);
        }
        b.position(b.position() + n * kind.bytes);
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
        switch (spec.kind()) {
            case DOUBLE -> b.asDoubleBuffer().get((double[]) data);
            case FLOAT -> b.asFloatBuffer().get((float[]) data);
            case LONG -> b.asLongBuffer().get((long[]) data);
            case INT -> b.asIntBuffer().get((int[]) data);
        }
        b.position(b.position() + n * spec.kind().bytes);
        return data;
    }

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
