package dev.cumulus.internal.codec;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

/**
 * Bulk copies between primitive arrays and Agrona buffers. On little-endian hosts (x86, ARM) the wire layout equals
 * the memory layout, so a copy is one memcpy; elsewhere callers fall back to element loops.
 */
final class Bulk {
    static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private Bulk() {
    }

    /** Copies {@code bytes} from {@code array} (starting at {@code arrayBaseOffset}) to {@code buffer[index]}. */
    static void put(MutableDirectBuffer buffer, int index, Object array, long arrayBaseOffset, int bytes) {
        buffer.checkLimit(index + bytes); // grows an expandable buffer; a fixed one throws before anything is copied
        UnsafeApi.copyMemory(array, arrayBaseOffset, buffer.byteArray(), buffer.addressOffset() + index, bytes);
    }

    /** Copies {@code bytes} from {@code buffer[index]} into {@code array} (starting at {@code arrayBaseOffset}). */
    static void get(DirectBuffer buffer, int index, Object array, long arrayBaseOffset, int bytes) {
        buffer.boundsCheck(index, bytes);
        UnsafeApi.copyMemory(buffer.byteArray(), buffer.addressOffset() + index, array, arrayBaseOffset, bytes);
    }
}
