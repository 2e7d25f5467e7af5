package dev.cumulus.internal.codec;

import static dev.cumulus.internal.codec.CodecTestSupport.CODEC;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.NotTransferableException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** A {@link BytesView} parameter gets a {@code byte[]} argument's bytes where they lie in the message, checked. */
class BytesViewArgumentTest {
    private static final byte[] PAYLOAD = {1, 2, 3, 4, 5, 6, 7, 8, 9};

    @Test
    void aByteArrayArgumentArrivesAsAViewOfTheMessageNotACopy() {
        byte[] message = new byte[64];
        UnsafeBuffer buffer = new UnsafeBuffer(message, 5, 50); // a wrap adjustment, like a slice of a bigger array
        int end = CODEC.writeArguments(buffer, 3, new Object[] {PAYLOAD, "after"}, () -> "test");
        ValueReader reader = CODEC.reader(buffer, 3, end - 3);
        BytesView view = (BytesView) reader.readArgument(BytesView.class);
        assertSame(message, view.array(), "the view must be of the message's own array");
        assertEquals(PAYLOAD.length, view.length());
        assertArrayEquals(PAYLOAD, Arrays.copyOfRange(message, view.offset(), view.offset() + view.length()));
        assertEquals("after", reader.readArgument(String.class), "the next argument reads on after the bytes");
        assertEquals(end, reader.position());
    }

    @Test
    void aPreEncodedValueArrivesAsAView() {
        PreEncodedBytes encoded = new PreEncodedBytes() {
            @Override
            public int byteLength() {
                return PAYLOAD.length;
            }

            @Override
            public void writeTo(MutableDirectBuffer b, int index) {
                b.putBytes(index, PAYLOAD);
            }
        };
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);
        int end = CODEC.writeArguments(buffer, 0, new Object[] {encoded}, () -> "test");
        BytesView view = (BytesView) CODEC.reader(buffer, 0, end).readArgument(BytesView.class);
        assertArrayEquals(PAYLOAD, Arrays.copyOfRange(view.array(), view.offset(), view.offset() + view.length()));
    }

    @Test
    void aViewTakesAHandleSoLaterBackReferencesKeepTheirNumbers() {
        List<String> shared = new ArrayList<>(List.of("x"));
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        int end = CODEC.writeArguments(buffer, 0, new Object[] {PAYLOAD, shared, shared}, () -> "test");
        ValueReader reader = CODEC.reader(buffer, 0, end);
        reader.readArgument(BytesView.class);
        Object second = reader.readArgument(List.class);
        assertEquals(shared, second);
        assertSame(second, reader.readArgument(List.class));
    }

    @Test
    void aBackReferenceToAViewIsRefusedNotHandedOutAsAValue() {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        int end = CODEC.writeArguments(buffer, 0, new Object[] {PAYLOAD, PAYLOAD}, () -> "test"); // REF to the first
        ValueReader reader = CODEC.reader(buffer, 0, end);
        reader.readArgument(BytesView.class);
        CodecException e = assertThrows(CodecException.class, () -> reader.readArgument(byte[].class));
        assertTrue(e.getMessage().contains("view"), e.getMessage());
    }

    @Test
    void anOffHeapMessageIsCopiedIntoTheView() {
        UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        int end = CODEC.writeArguments(buffer, 0, new Object[] {PAYLOAD}, () -> "test");
        BytesView view = (BytesView) CODEC.reader(buffer, 0, end).readArgument(BytesView.class);
        assertArrayEquals(PAYLOAD, Arrays.copyOfRange(view.array(), view.offset(), view.offset() + view.length()));
    }

    @Test
    void nullArrivesAsNull() {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);
        int end = CODEC.writeArguments(buffer, 0, new Object[] {null}, () -> "test");
        assertNull(CODEC.reader(buffer, 0, end).readArgument(BytesView.class));
    }

    @Test
    void anythingButAByteArrayIsRefused() {
        for (Object other : new Object[] {"text", new int[] {1}, 42L, List.of((byte) 1)}) {
            ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);
            int end = CODEC.writeArguments(buffer, 0, new Object[] {other}, () -> "test");
            CodecException e = assertThrows(CodecException.class,
                () -> CODEC.reader(buffer, 0, end).readArgument(BytesView.class), other.toString());
            assertTrue(e.getMessage().contains("BytesView parameter takes a byte[]"), e.getMessage());
        }
        // a back-reference, even to a byte[] of the same message
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);
        int end = CODEC.writeArguments(buffer, 0, new Object[] {PAYLOAD, PAYLOAD}, () -> "test");
        ValueReader reader = CODEC.reader(buffer, 0, end);
        reader.readArgument(BytesView.class);
        assertThrows(CodecException.class, () -> reader.readArgument(BytesView.class));
    }

    @Test
    void aLengthBeyondTheMessageOrNegativeIsRefused() {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        int end = CODEC.writeArguments(buffer, 0, new Object[] {PAYLOAD}, () -> "test");
        for (int cut = 0; cut < end; cut++) {
            int length = cut;
            CodecException e = assertThrows(CodecException.class,
                () -> CODEC.reader(buffer, 0, length).readArgument(BytesView.class), "cut at " + cut);
            assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        }
        buffer.putInt(1, Integer.MAX_VALUE, ByteOrder.LITTLE_ENDIAN);
        assertThrows(CodecException.class, () -> CODEC.reader(buffer, 0, end).readArgument(BytesView.class));
        buffer.putInt(1, -1, ByteOrder.LITTLE_ENDIAN);
        CodecException e = assertThrows(CodecException.class,
            () -> CODEC.reader(buffer, 0, end).readArgument(BytesView.class));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
    }

    @Test
    void aViewIsNeverSentByValue() {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);
        assertThrows(NotTransferableException.class,
            () -> CODEC.write(buffer, 0, new BytesView(PAYLOAD, 0, 3), "view"));
    }

    @Test
    void aViewOutsideItsArrayCannotBeMade() {
        assertThrows(IndexOutOfBoundsException.class, () -> new BytesView(PAYLOAD, 5, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> new BytesView(PAYLOAD, -1, 2));
    }
}
