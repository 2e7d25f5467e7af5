package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.NotTransferableException;
import dev.cumulus.internal.codec.CodecException;
import dev.cumulus.internal.codec.CodecLimits;
import dev.cumulus.internal.codec.PreEncodedBytes;
import dev.cumulus.internal.codec.ReferenceHandler;
import dev.cumulus.internal.codec.ValueCodec;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Tuples to bytes and back with the by-value codec (no remote references inside tuples). Any thread. */
final class TupleCodec {
    private final ValueCodec codec;
    private final ThreadLocal<ExpandableArrayBuffer> buffers =
        ThreadLocal.withInitial(() -> new ExpandableArrayBuffer(256));

    TupleCodec(ClassLoader loader) {
        this(loader, CodecLimits.DEFAULTS);
    }

    TupleCodec(ClassLoader loader, CodecLimits limits) {
        this.codec = new ValueCodec(ReferenceHandler.NONE, loader, limits);
    }

    /**
     * Room a message keeps beside a tuple: a remote move's other arguments, a remote observe's index, blocked time and
     * reply header. A tuple larger than a message less this could not reach another node.
     */
    static final int MESSAGE_ROOM = 4096;

    /** Puts the classes of a template's fields (and what they hold) on the allow-list: its tuples decode here. */
    void allow(dev.cumulus.pastset.Template template) {
        for (Class<?> type : template.types()) {
            codec.allowList().allow(type);
        }
    }

    /**
     * @throws dev.cumulus.NotTransferableException naming the field when a value cannot be kept by value, or the
     *                                              tuple when it is too large to reach another node
     */
    byte[] encode(Object[] fields, String label) {
        ExpandableArrayBuffer buf = buffers.get();
        int end = codec.write(buf, 0, fields, label);
        if (buf.capacity() > 1 << 20) {
            buffers.remove();
        }
        checkTravels(end, label);
        byte[] out = new byte[end];
        buf.getBytes(0, out);
        return out;
    }

    /**
     * The encoded tuple as it goes into a call message, written there straight from this thread's buffer (no array
     * of its own): valid until this thread encodes its next tuple, so the call must be encoded before that.
     *
     * @throws dev.cumulus.NotTransferableException naming the field when a value cannot be kept by value, or the
     *                                              tuple when it is too large to reach another node
     */
    Encoded encodeForSending(Object[] fields, String label) {
        ExpandableArrayBuffer buf = buffers.get();
        int end = codec.write(buf, 0, fields, label);
        if (buf.capacity() > 1 << 20) {
            buffers.remove(); // the next encode takes a fresh buffer: this one stays what the returned value reads
        }
        checkTravels(end, label);
        return new Encoded(buf, end);
    }

    /** An encoded tuple in a buffer, written into a message as the {@code byte[]} it stands for. */
    record Encoded(DirectBuffer buffer, int byteLength) implements PreEncodedBytes {
        /** An encoded tuple in an array of its own (it outlives the next encode: an asynchronous move's). */
        static Encoded of(byte[] encoded) {
            return new Encoded(new UnsafeBuffer(encoded), encoded.length);
        }

        @Override
        public void writeTo(MutableDirectBuffer target, int index) {
            target.putBytes(index, buffer, 0, byteLength);
        }
    }

    Object[] decode(byte[] bytes, String element) {
        return decode(bytes, 0, bytes.length, element);
    }

    Object[] decode(byte[] bytes, int offset, int length, String element) {
        try {
            Object v = codec.reader(new UnsafeBuffer(bytes), offset, length).read();
            if (v instanceof Object[] fields) {
                return fields;
            }
            // its type only: a decoded value from the network may be cyclic or huge, and its toString would not end
            throw new CumulusException("a tuple of element " + element + " did not decode to fields but to "
                + (v == null ? "null" : "a " + v.getClass().getName()));
        } catch (CodecException e) {
            throw new CumulusException("a tuple of element " + element + " cannot be decoded on this node: "
                + e.getMessage(), e);
        }
    }

    /**
     * A local move's tuple as its home keeps it.
     *
     * @throws dev.cumulus.NotTransferableException when a value cannot be kept by value, or the tuple is too large to
     *                                              reach another node: no remote observe could take it, and one that
     *                                              tried would mark it observed for nothing
     */
    StoredTuple store(Object[] fields, String label) {
        Object[] values = StoredTuple.snapshot(fields);
        if (values != null) {
            if (StoredTuple.encodedBytesBound(values) > travelLimit()) {
                encode(values, label); // refuses a tuple too large to travel
            }
            return StoredTuple.ofValues(values);
        }
        return StoredTuple.ofBytes(encode(fields, label));
    }

    /** The most bytes a kept tuple may encode to: what a message holds beside {@link #MESSAGE_ROOM}. */
    private int travelLimit() {
        return codec.limits().maxMessageBytes() - MESSAGE_ROOM;
    }

    private void checkTravels(int encodedBytes, String label) {
        if (encodedBytes > travelLimit()) {
            throw new NotTransferableException(label + " is not transferable: the tuple encodes to " + encodedBytes
                + " bytes, and a tuple must fit in one message with room to spare ("
                + codec.limits().maxMessageBytes() + " bytes less " + MESSAGE_ROOM + ") so that any node can observe"
                + " it; move it in parts");
        }
    }

    Object[] fields(StoredTuple t, String element) {
        return t.values() != null ? t.valuesCopy() : decode(t.bytes(), t.offset(), t.length(), element);
    }

    /**
     * The reply to a remote observe of {@code t}: a tuple kept encoded goes into the reply message straight from the
     * log, one kept as values from this thread's encoding buffer, so the reply must be sent before this thread encodes
     * its next tuple.
     */
    Observed.Frame reply(long index, long blockedNs, StoredTuple t, String element) {
        if (t.bytes() != null) {
            return new Observed.Frame(index, blockedNs, new UnsafeBuffer(t.bytes()), t.offset(), t.length());
        }
        Encoded e = encodeForSending(t.values(), "tuple of " + element);
        return new Observed.Frame(index, blockedNs, e.buffer(), 0, e.byteLength());
    }
}
