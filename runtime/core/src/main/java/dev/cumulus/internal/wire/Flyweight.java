package dev.cumulus.internal.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * A message header read and written in place: wrap it over a buffer, then read or write its named fields (little
 * endian); it copies nothing and allocates nothing. Each format checks a received message before a field is read.
 *
 * @param <F> the flyweight's own type, so {@code wrap} chains
 */
public abstract class Flyweight<F extends Flyweight<F>> {
    protected static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    protected DirectBuffer buffer;
    /** The same buffer when wrapped for writing, else null. */
    protected MutableDirectBuffer mutableBuffer;
    protected int offset;

    /** Wraps a received message for reading; check it before reading a field. */
    public final F wrap(DirectBuffer buffer, int offset) {
        this.buffer = buffer;
        this.mutableBuffer = null;
        this.offset = offset;
        return self();
    }

    /** Wraps a message to write (an expandable buffer grows as fields are written). */
    public final F wrap(MutableDirectBuffer buffer, int offset) {
        this.buffer = buffer;
        this.mutableBuffer = buffer;
        this.offset = offset;
        return self();
    }

    @SuppressWarnings("unchecked")
    private F self() {
        return (F) this;
    }
}
