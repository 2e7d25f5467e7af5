package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.CodecException;
import dev.cumulus.internal.codec.CodecLimits;
import dev.cumulus.internal.codec.ReferenceHandler;
import dev.cumulus.internal.codec.ValueCodec;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Tuples to bytes and back with the by-value codec (no remote references inside tuples). Any thread. */
final class TupleCodec {
    private final ValueCodec codec;
    private final ThreadLocal<ExpandableArrayBuffer> buffers =
        ThreadLocal.withInitial(() -> new ExpandableArrayBuffer(256));

    TupleCodec(ClassLoader loader) {
        this.codec = new ValueCodec(ReferenceHandler.NONE, loader, CodecLimits.DEFAULTS);
    }

    /** Puts the classes of a template's fields (and what they hold) on the allow-list: its tuples decode here. */
    void allow(dev.cumulus.pastset.Template template) {
        for (Class<?> type : template.types()) {
            codec.allowList().allow(type);
        }
    }

    /** @throws dev.cumulus.NotTransferableException naming the field when a value cannot be kept by value */
    byte[] encode(Object[] fields, String label) {
        ExpandableArrayBuffer buf = buffers.get();
        int end = codec.write(buf, 0, fields, label);
        byte[] out = new byte[end];
        buf.getBytes(0, out);
        if (buf.capacity() > 1 << 20) {
            buffers.remove();
        }
        return out;
    }

    Object[] decode(byte[] bytes, String element) {
        try {
            Object v = codec.reader(new UnsafeBuffer(bytes), 0, bytes.length).read();
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

    StoredTuple store(Object[] fields, String label) {
        Object[] values = StoredTuple.snapshot(fields);
        if (values != null) {
            return new StoredTuple(values, null);
        }
        return new StoredTuple(null, encode(fields, label));
    }

    Object[] fields(StoredTuple t, String element) {
        return t.values() != null ? t.valuesCopy() : decode(t.bytes(), element);
    }

    byte[] bytes(StoredTuple t, String element) {
        return t.bytes() != null ? t.bytes() : encode(t.values(), "tuple of " + element);
    }
}
