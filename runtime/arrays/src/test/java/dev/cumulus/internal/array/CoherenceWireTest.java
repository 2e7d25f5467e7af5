package dev.cumulus.internal.array;

import dev.cumulus.CumulusException;
import dev.cumulus.array.CacheState;
import dev.cumulus.array.Distribution;
import dev.cumulus.internal.codec.BytesView;
import dev.cumulus.internal.codec.CodecLimits;
import dev.cumulus.internal.codec.PreEncodedBytes;
import dev.cumulus.internal.codec.ReferenceHandler;
import dev.cumulus.internal.codec.ValueCodec;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoherenceWireTest {
    private static final ArraySpec DOUBLES = new ArraySpec("A", ElementKind.DOUBLE, 8, 8, 2, 2, Distribution.BLOCK);
    private static final ArraySpec INTS = new ArraySpec("A", ElementKind.INT, 8, 8, 2, 2, Distribution.BLOCK);

    @Test
    void everyMessageSurvivesTheRoundTrip() {
        double[] data = {1.5, -2, Double.NaN, 4};
        List<CoherenceMessage> messages = List.of(
            new CoherenceMessage.ReadRequest("A", 3, 1),
            new CoherenceMessage.WriteRequest("A", 15, 2),
            new CoherenceMessage.Forward("A", 0, Access.WRITE, 7L << 40, 3),
            new CoherenceMessage.ForwardReply("A", 1, 2, Access.READ, data),
            new CoherenceMessage.Invalidate("A", 2, 99),
            new CoherenceMessage.InvalidateAck("A", 2, 0),
            new CoherenceMessage.Grant("A", 4, CacheState.EXCLUSIVE, 12, data, 4),
            new CoherenceMessage.Grant("A", 4, CacheState.SHARED, 13, null, 2));
        for (CoherenceMessage m : messages) {
            byte[] bytes = CoherenceWire.encode(m);
            assertEquals("A", CoherenceWire.arrayName(view(bytes)));
            CoherenceMessage back = CoherenceWire.decode(view(bytes), DOUBLES, 4, 4);
            assertEquals(m.getClass(), back.getClass());
            switch (m) {
                case CoherenceMessage.Grant g -> {
                    CoherenceMessage.Grant b = (CoherenceMessage.Grant) back;
                    assertEquals(List.of(g.partition(), g.state(), g.seq(), g.hops()),
                        List.of(b.partition(), b.state(), b.seq(), b.hops()));
                    if (g.data() == null) {
                        assertNull(b.data());
                    } else {
                        assertArrayEquals((double[]) g.data(), (double[]) b.data());
                    }
                }
                case CoherenceMessage.ForwardReply r -> {
                    CoherenceMessage.ForwardReply b = (CoherenceMessage.ForwardReply) back;
                    assertEquals(List.of(r.partition(), r.from(), r.access()),
                        List.of(b.partition(), b.from(), b.access()));
                    assertArrayEquals((double[]) r.data(), (double[]) b.data());
                }
                default -> assertEquals(m, back); // records without arrays compare by value
            }
        }
    }

    /**
     * On the way out a message is written straight into the RPC call's buffer ({@code CoherenceWire.encoder}): the
     * receiver must get exactly the bytes {@link CoherenceWire#encode} makes, as a {@code byte[]} argument, whatever
     * the offset and whether the buffer is on the heap (one bulk copy) or not (element by element).
     */
    @Test
    void aMessageWrittenIntoACallsBufferArrivesAsItsEncodedBytes() {
        ValueCodec codec = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(), CodecLimits.DEFAULTS);
        double[] data = {1.5, -2, Double.NaN, Double.MIN_VALUE};
        CoherenceMessage grant = new CoherenceMessage.Grant("A", 4, CacheState.SHARED, 13, data, 4);
        byte[] expected = CoherenceWire.encode(grant);
        MutableDirectBuffer[] buffers = {new ExpandableArrayBuffer(16),
            new UnsafeBuffer(ByteBuffer.allocateDirect(4096))};
        for (MutableDirectBuffer buffer : buffers) {
            int end = codec.write(buffer, 13, CoherenceWire.encoder(grant), "grant");
            Object arrived = codec.reader(buffer, 13, end - 13).read();
            assertArrayEquals(expected, (byte[]) arrived, buffer.getClass().getSimpleName());
            // what ArrayService.deliver gets: a view of the call's bytes
            BytesView view = (BytesView) codec.reader(buffer, 13, end - 13).readArgument(BytesView.class);
            CoherenceMessage.Grant back = (CoherenceMessage.Grant) CoherenceWire.decode(view, DOUBLES, 4, 4);
            assertArrayEquals(data, (double[]) back.data());
        }
    }

    /**
     * The reader numbers every array it decodes for back-references, so a pre-encoded message must take a number too:
     * a value written twice after it must come back as itself, not as the message's bytes.
     */
    @Test
    void valuesAfterAPreEncodedMessageKeepTheirBackReferences() {
        ValueCodec codec = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(), CodecLimits.DEFAULTS);
        CoherenceMessage m = new CoherenceMessage.ReadRequest("A", 1, 0);
        PreEncodedBytes encoded = CoherenceWire.encoder(m);
        List<String> shared = new ArrayList<>(List.of("x"));
        ExpandableArrayBuffer buf = new ExpandableArrayBuffer(64);
        int end = codec.writeArguments(buf, 0, new Object[] {encoded, shared, shared, encoded}, () -> "test");
        var reader = codec.reader(buf, 0, end);
        byte[] first = (byte[]) reader.read();
        assertArrayEquals(CoherenceWire.encode(m), first);
        Object second = reader.read();
        Object third = reader.read();
        assertEquals(shared, second);
        assertTrue(second == third, "the list written twice came back as " + third);
        assertTrue(first == reader.read(), "the message written twice came back as another object");
    }

    @Test
    void intPartitionsTravelToo() {
        int[] data = {1, 2, 3, Integer.MIN_VALUE};
        byte[] bytes = CoherenceWire.encode(new CoherenceMessage.Grant("A", 0, CacheState.SHARED, 1, data, 2));
        CoherenceMessage.Grant back = (CoherenceMessage.Grant) CoherenceWire.decode(view(bytes), INTS, 4, 4);
        assertArrayEquals(data, (int[]) back.data());
    }

    @Test
    void malformedMessagesAreRefusedWithAMessageNotAStackOfGarbage() {
        byte[] grant = CoherenceWire.encode(new CoherenceMessage.Grant("A", 0, CacheState.SHARED, 1,
            new double[] {1, 2, 3, 4}, 2));
        // every truncation
        for (int n = 0; n < grant.length; n++) {
            byte[] cut = Arrays.copyOf(grant, n);
            assertThrows(CumulusException.class, () -> CoherenceWire.decode(view(cut), DOUBLES, 4, 4), "cut at " + n);
        }
        // data of another kind, or another length, than the receiver's array has
        assertMalformed(() -> CoherenceWire.decode(view(grant), INTS, 4, 4), "kind");
        assertMalformed(() -> CoherenceWire.decode(view(grant), DOUBLES, 8, 4), "partition of 4 elements");
        // trailing bytes, an unknown type
        byte[] longer = Arrays.copyOf(grant, grant.length + 1);
        assertMalformed(() -> CoherenceWire.decode(view(longer), DOUBLES, 4, 4), "after the end");
        byte[] unknown = grant.clone();
        unknown[0] = 99;
        assertMalformed(() -> CoherenceWire.decode(view(unknown), DOUBLES, 4, 4), "unknown message type");
        // node ids outside the cluster, a grant of state INVALID, a forward reply without data
        byte[] request = CoherenceWire.encode(new CoherenceMessage.ReadRequest("A", 0, 7));
        assertMalformed(() -> CoherenceWire.decode(view(request), DOUBLES, 4, 4), "node id 7 in a cluster of 4");
        byte[] invalid = CoherenceWire.encode(new CoherenceMessage.Grant("A", 0, CacheState.INVALID, 1, null, 2));
        assertMalformed(() -> CoherenceWire.decode(view(invalid), DOUBLES, 4, 4), "state INVALID");
        byte[] empty = CoherenceWire.encode(new CoherenceMessage.ForwardReply("A", 0, 1, Access.READ, null));
        assertMalformed(() -> CoherenceWire.decode(view(empty), DOUBLES, 4, 4), "without data");
        // a name that claims more bytes than there are
        byte[] badName = grant.clone();
        badName[1] = (byte) 0xff;
        badName[2] = (byte) 0x7f;
        assertMalformed(() -> CoherenceWire.arrayName(view(badName)), "array name");
    }

    /**
     * The receiver decodes from a view of the whole incoming call: a message must be read within its view, whatever
     * lies around it in the array, and a view cut short anywhere must be refused, not read on into the bytes after.
     */
    @Test
    void aViewIsDecodedWithinItsBoundsAndRefusedWhenCutShort() {
        double[] data = {1, 2, 3, 4};
        byte[] grant = CoherenceWire.encode(new CoherenceMessage.Grant("A", 5, CacheState.EXCLUSIVE, 9, data, 4));
        byte[] call = new byte[7 + grant.length + 11];
        Arrays.fill(call, (byte) 0x5a);
        System.arraycopy(grant, 0, call, 7, grant.length);
        BytesView whole = new BytesView(call, 7, grant.length);
        assertEquals("A", CoherenceWire.arrayName(whole));
        CoherenceMessage.Grant back = (CoherenceMessage.Grant) CoherenceWire.decode(whole, DOUBLES, 4, 4);
        assertEquals(List.of(5, CacheState.EXCLUSIVE, 9L, 4), List.of(back.partition(), back.state(), back.seq(),
            back.hops()));
        assertArrayEquals(data, (double[]) back.data());
        for (int n = 0; n < grant.length; n++) {
            BytesView cut = new BytesView(call, 7, n);
            assertMalformed(() -> CoherenceWire.decode(cut, DOUBLES, 4, 4), "");
        }
        BytesView longer = new BytesView(call, 7, grant.length + 1);
        assertMalformed(() -> CoherenceWire.decode(longer, DOUBLES, 4, 4), "after the end");
    }

    private static BytesView view(byte[] bytes) {
        return new BytesView(bytes, 0, bytes.length);
    }

    private static void assertMalformed(Executable e, String detail) {
        CumulusException x = assertThrows(CumulusException.class, e);
        assertTrue(x.getMessage().contains("malformed") && x.getMessage().contains(detail), x.getMessage());
    }
}
