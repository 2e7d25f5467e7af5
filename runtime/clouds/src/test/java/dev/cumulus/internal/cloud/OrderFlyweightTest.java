package dev.cumulus.internal.cloud;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The ordered broadcast's wire form: every message round-trips; hostile bytes decode to {@code null}, never throw. */
@Timeout(10)
class OrderFlyweightTest {
    private static final List<OrderMessage> MESSAGES = List.of(
        new OrderMessage.Data(3, 1, new byte[] {9, 8, 7}), new OrderMessage.Data(Long.MAX_VALUE, 0, new byte[0]),
        new OrderMessage.Request(2), new OrderMessage.Token(5, new int[] {1, 2, 0}), new OrderMessage.Token(0, new int[0]),
        new OrderMessage.Submit(3, new byte[] {1}), new OrderMessage.Submit(0, new byte[0]));

    @Test
    void everyMessageRoundTripsAtAnyOffsetIntoAGrowingBuffer() {
        for (int at : new int[] {0, 3}) {
            for (OrderMessage m : MESSAGES) {
                ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1); // grows as the flyweight writes
                int length = OrderMessage.encode(m, new OrderFlyweight().wrap(buffer, at));
                assertEquals(OrderMessage.encodedLength(m), length);
                assertSame(m, OrderMessage.decode(new OrderFlyweight().wrap((DirectBuffer) buffer, at), length, 4));
            }
        }
    }

    @Test
    void theLayoutIsTheDocumentedOne() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
        OrderFlyweight out = new OrderFlyweight().wrap(b, 0);
        assertEquals(17 + 2, OrderMessage.encode(new OrderMessage.Data(0x0102, 3, new byte[] {5, 6}), out));
        assertEquals(OrderFlyweight.DATA, b.getByte(0));
        assertEquals(0x0102L, b.getLong(1, ByteOrder.LITTLE_ENDIAN));
        assertEquals(3, b.getInt(9, ByteOrder.LITTLE_ENDIAN));
        assertEquals(2, b.getInt(13, ByteOrder.LITTLE_ENDIAN));
        assertEquals(5, b.getByte(17));
        assertEquals(13 + 8, OrderMessage.encode(new OrderMessage.Token(9, new int[] {2, 1}), out));
        assertEquals(OrderFlyweight.TOKEN, b.getByte(0));
        assertEquals(2, b.getInt(9, ByteOrder.LITTLE_ENDIAN));
        assertEquals(1, b.getInt(17, ByteOrder.LITTLE_ENDIAN));
    }

    @Test
    void everyCutOrLengthenedMessageIsRefused() {
        for (OrderMessage m : MESSAGES) {
            byte[] bytes = new byte[OrderMessage.encodedLength(m) + 1];
            int length = OrderMessage.encode(m, new OrderFlyweight().wrap(new UnsafeBuffer(bytes), 0));
            for (int n = 0; n < length; n++) {
                // the buffer ends where the message was cut: a read past it would throw
                UnsafeBuffer cut = new UnsafeBuffer(Arrays.copyOf(bytes, n));
                assertNull(OrderMessage.decode(new OrderFlyweight().wrap((DirectBuffer) cut, 0), n, 4),
                    m + " cut at " + n);
            }
            assertNull(OrderMessage.decode(new OrderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(bytes), 0),
                length + 1, 4), m + " with a byte more");
        }
    }

    @Test
    void badCountsLengthsSequenceNumbersNodeIdsAndTypesAreRefused() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
        OrderFlyweight out = new OrderFlyweight().wrap(b, 0);
        OrderFlyweight in = new OrderFlyweight().wrap((DirectBuffer) b, 0);
        int n = OrderMessage.encode(new OrderMessage.Token(5, new int[] {1, 2}), out);
        assertNull(OrderMessage.decode(in, n, 2), "a waiting node id outside the cluster");
        for (int count : new int[] {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, OrderFlyweight.MAX_WAITING + 1, 3}) {
            b.putInt(OrderFlyweight.TOKEN_WAITING_COUNT_OFFSET, count, ByteOrder.LITTLE_ENDIAN);
            assertNull(OrderMessage.decode(in, n, 4), "a waiting count of " + count);
        }
        n = OrderMessage.encode(new OrderMessage.Token(-1, new int[0]), out);
        assertNull(OrderMessage.decode(in, n, 4), "a negative next sequence number");
        n = OrderMessage.encode(new OrderMessage.Data(3, 1, new byte[] {9}), out);
        for (int declared : new int[] {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0, 2}) {
            b.putInt(OrderFlyweight.DATA_PAYLOAD_LENGTH_OFFSET, declared, ByteOrder.LITTLE_ENDIAN);
            assertNull(OrderMessage.decode(in, n, 4), "a payload length of " + declared);
        }
        n = OrderMessage.encode(new OrderMessage.Data(-5, 1, new byte[0]), out);
        assertNull(OrderMessage.decode(in, n, 4), "a negative sequence number");
        n = OrderMessage.encode(new OrderMessage.Data(5, 4, new byte[0]), out);
        assertNull(OrderMessage.decode(in, n, 4), "an origin outside the cluster");
        n = OrderMessage.encode(new OrderMessage.Submit(-1, new byte[0]), out);
        assertNull(OrderMessage.decode(in, n, 4), "a negative origin");
        n = OrderMessage.encode(new OrderMessage.Request(7), out);
        assertNull(OrderMessage.decode(in, n, 4), "a requester outside the cluster");
        for (byte type : new byte[] {0, 5, -1, Byte.MAX_VALUE}) {
            b.putByte(0, type);
            assertNull(OrderMessage.decode(in, n, 4), "type " + type);
        }
        assertNull(OrderMessage.decode(in, 0, 4), "an empty message");
        assertNull(OrderMessage.decode(in, -1, 4), "a negative length");
    }

    @Test
    void randomBytesDecodeToNullOrAMessageNeverThrow() {
        Random random = new Random(3);
        for (int i = 0; i < 20_000; i++) {
            byte[] junk = new byte[random.nextInt(40)];
            random.nextBytes(junk);
            if (junk.length > 0 && random.nextBoolean()) {
                junk[0] = (byte) (1 + random.nextInt(4)); // a known type: its fields are random
            }
            OrderMessage.decode(new OrderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(junk), 0), junk.length, 8);
        }
    }

    /** Records with arrays compare by identity: compare their parts. */
    private static void assertSame(OrderMessage expected, OrderMessage actual) {
        switch (expected) {
            case OrderMessage.Data d -> {
                OrderMessage.Data a = (OrderMessage.Data) actual;
                assertEquals(List.of(d.seq(), d.origin()), List.of(a.seq(), a.origin()));
                assertArrayEquals(d.payload(), a.payload());
            }
            case OrderMessage.Token t -> {
                OrderMessage.Token a = (OrderMessage.Token) actual;
                assertEquals(t.nextSeq(), a.nextSeq());
                assertArrayEquals(t.waiting(), a.waiting());
            }
            case OrderMessage.Submit s -> {
                OrderMessage.Submit a = (OrderMessage.Submit) actual;
                assertEquals(s.origin(), a.origin());
                assertArrayEquals(s.payload(), a.payload());
            }
            case OrderMessage.Request r -> assertEquals(r, actual);
        }
    }
}
