package dev.cumulus.internal.codec;

import java.util.Objects;

/**
 * The bytes of a {@code byte[]} value where they lie in the message that carried it, instead of a copy: what a remote
 * method whose parameter is declared as this type receives ({@link ValueReader#readArgument}). The RPC engine copies
 * every incoming message into an array of its own, which the call owns, so the view stays valid for as long as it is
 * referenced, on any thread; nothing writes to it. Cumulus's own compact wire forms (a shared array's coherence
 * messages, sent as {@link PreEncodedBytes}) are decoded from it, so a partition's data is copied once on its way in.
 * Internal, and not transferable: only decoded, never sent by value.
 */
public final class BytesView {
    private final byte[] array;
    private final int offset;
    private final int length;

    /** The {@code length} bytes of {@code array} from {@code offset}; throws if they are not all inside it. */
    public BytesView(byte[] array, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, array.length);
        this.array = array;
        this.offset = offset;
        this.length = length;
    }

    /** The array that holds the bytes (more than them, usually: the whole message). Read only. */
    public byte[] array() {
        return array;
    }

    /** Where the bytes start in {@link #array()}. */
    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    @Override
    public String toString() {
        return "BytesView[" + length + " bytes]";
    }
}
