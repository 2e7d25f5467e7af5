package dev.cumulus.internal.transport;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A batch frame's payload: written and taken apart message by message; the decoder's check refuses every payload whose
 * entries do not fill it exactly, reading nothing past its end (each cut is checked in a buffer that ends there).
 */
@Timeout(10)
class FrameBatchTest {
    private static final byte[][] MESSAGES = {"a".getBytes(), "hello".getBytes(), new byte[300], "xyz".getBytes()};

    private static int write(UnsafeBuffer batch, int at) {
        int end = at;
        for (byte[] m : MESSAGES) {
            end = FrameBatch.append(batch, end, new UnsafeBuffer(m), 0, m.length);
        }
        return end - at;
    }

    private static List<String> takeApart(UnsafeBuffer buffer, int offset, int length) {
        int count = FrameBatch.count(buffer, offset, length);
        List<String> out = new ArrayList<>();
        int at = offset;
        for (int i = 0; i < count; i++) {
            int entry = FrameBatch.entryLength(buffer, at);
            byte[] bytes = new byte[entry];
            buffer.getBytes(at + FrameBatch.ENTRY_HEADER, bytes);
            out.add(new String(bytes));
            at += FrameBatch.ENTRY_HEADER + entry;
        }
        return out;
    }

    @Test
    void messagesComeOutAsTheyWentInAtAnyOffset() {
        for (int offset : new int[] {0, 13}) {
            UnsafeBuffer batch = new UnsafeBuffer(new byte[1024]);
            int length = write(batch, offset);
            assertEquals(MESSAGES.length, FrameBatch.count(batch, offset, length));
            List<String> expected = new ArrayList<>();
            for (byte[] m : MESSAGES) {
                expected.add(new String(m));
            }
            assertEquals(expected, takeApart(batch, offset, length));
        }
    }

    @Test
    void everyCutIsRefusedUnlessItEndsBetweenEntriesAndNoCutIsReadPast() {
        UnsafeBuffer batch = new UnsafeBuffer(new byte[1024]);
        int length = write(batch, 0);
        List<Integer> boundaries = new ArrayList<>();
        int at = 0;
        for (byte[] m : MESSAGES) {
            at += FrameBatch.ENTRY_HEADER + m.length;
            boundaries.add(at);
        }
        for (int cut = 0; cut < length; cut++) {
            byte[] bytes = new byte[cut];
            batch.getBytes(0, bytes);
            int count = FrameBatch.count(new UnsafeBuffer(bytes), 0, cut); // a read past the cut would throw
            int whole = boundaries.indexOf(cut) + 1;
            assertEquals(whole == 0 ? FrameBatch.MALFORMED : whole, count, "cut at " + cut);
        }
    }

    @Test
    void lengthsOutOfBoundsAreRefused() {
        // the second entry has 2 bytes after its length: 3 runs one past the payload
        for (int bad : new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 3}) {
            UnsafeBuffer batch = new UnsafeBuffer(new byte[4 + 5 + 4 + 2]);
            batch.putInt(0, 5, ByteOrder.LITTLE_ENDIAN);
            batch.putInt(9, bad, ByteOrder.LITTLE_ENDIAN);
            assertEquals(FrameBatch.MALFORMED, FrameBatch.count(batch, 0, batch.capacity()), "second length " + bad);
        }
        UnsafeBuffer single = new UnsafeBuffer(new byte[8]);
        single.putInt(0, 4, ByteOrder.LITTLE_ENDIAN);
        assertEquals(1, FrameBatch.count(single, 0, 8));
        assertEquals(FrameBatch.MALFORMED, FrameBatch.count(single, 0, 0), "an empty batch");
        assertEquals(FrameBatch.MALFORMED, FrameBatch.count(single, 0, 4), "a length with no message");
    }
}
