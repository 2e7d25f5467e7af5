package dev.cumulus.internal.codec;

import org.agrona.MutableDirectBuffer;

/**
 * A {@code byte[]} value that writes its bytes straight into the message being encoded, instead of being built as an
 * array first and copied in: the receiver decodes it as the {@code byte[]} it is, or as a {@link BytesView} of the
 * message for a parameter declared so. Cumulus's own compact wire forms (a shared array's coherence messages) use it
 * so a partition's data is copied once on its way into the message.
 * Internal: user values of this type are not sent by value (they encode as their bytes).
 */
public interface PreEncodedBytes {
    /** How many bytes {@link #writeTo} writes. */
    int byteLength();

    /** Writes exactly {@link #byteLength()} bytes at {@code index} (the buffer has room for them). */
    void writeTo(MutableDirectBuffer buffer, int index);
}
