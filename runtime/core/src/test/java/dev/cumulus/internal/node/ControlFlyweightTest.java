package dev.cumulus.internal.node;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The control channel's wire form: every message round-trips; hostile bytes decode to {@code null}, never throw. */
@Timeout(10)
class ControlFlyweightTest {
    private static final List<ControlMessage> MESSAGES = List.of(new ControlMessage.Hello(4711, -3),
        new ControlMessage.Heartbeat(0, 1, 0), new ControlMessage.Heartbeat(Long.MAX_VALUE, 99, -7),
        new ControlMessage.Probe(), new ControlMessage.BarrierEnter(7, 3, BarrierKind.BARRIER),
        new ControlMessage.BarrierEnter(8, -1, BarrierKind.CLOSE),
        new ControlMessage.BarrierRelease(Long.MAX_VALUE, -1), new ControlMessage.Goodbye(12, Leaving.CLOSED),
        new ControlMessage.Goodbye(0, Leaving.ENDED), new ControlMessage.Goodbye(3, Leaving.EXITING),
        new ControlMessage.Failure(3, "node 3 went silent"), new ControlMessage.Failure(0, ""));

    @Test
    void everyMessageRoundTripsAtAnyOffset() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
        for (int at : new int[] {0, 5}) {
            for (ControlMessage m : MESSAGES) {
                int length = ControlMessage.encode(m, new ControlFlyweight().wrap(buffer, at));
                assertEquals(m, ControlMessage.decode(new ControlFlyweight().wrap((DirectBuffer) buffer, at), length));
            }
        }
    }

    @Test
    void theLayoutIsTheDocumentedOne() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        ControlFlyweight out = new ControlFlyweight().wrap(buffer, 0);
        assertEquals(18, ControlMessage.encode(new ControlMessage.BarrierEnter(0x0102, 0x0304, BarrierKind.CLOSE), out));
        assertEquals(ControlFlyweight.BARRIER_ENTER, buffer.getByte(0));
        assertEquals(0x02, buffer.getByte(1), "little endian epoch at 1");
        assertEquals(0x04, buffer.getByte(9), "little endian watermark at 9");
        assertEquals(BarrierKind.CLOSE.code(), buffer.getByte(17), "kind at 17");
        assertEquals(17, ControlMessage.encode(new ControlMessage.BarrierRelease(0x0102, 0x0304), out));
        assertEquals(10, ControlMessage.encode(new ControlMessage.Goodbye(4, Leaving.EXITING), out));
        assertEquals(Leaving.EXITING.code(), buffer.getByte(9), "leaving at 9");
        assertEquals(9 + 2, ControlMessage.encode(new ControlMessage.Failure(5, "ab"), out));
        assertEquals(5, buffer.getByte(1));
        assertEquals(2, buffer.getByte(5));
        assertEquals('a', buffer.getByte(9));
        assertEquals(17, ControlMessage.encode(new ControlMessage.Hello(0x0102, 0x0304), out));
        assertEquals(0x02, buffer.getByte(1), "little endian pid at 1");
        assertEquals(0x04, buffer.getByte(9), "little endian host at 9");
        assertEquals(25, ControlMessage.encode(new ControlMessage.Heartbeat(0x0506, 0x0708, 0x090a), out));
        assertEquals(ControlFlyweight.HEARTBEAT, buffer.getByte(0));
        assertEquals(0x06, buffer.getByte(1), "little endian progress at 1");
        assertEquals(0x08, buffer.getByte(9), "pid at 9");
        assertEquals(0x0a, buffer.getByte(17), "host at 17");
        assertEquals(1, ControlMessage.encode(new ControlMessage.Probe(), out));
        assertEquals(7, buffer.getByte(0));
    }

    @Test
    void aLongReasonIsCutToTheLimitAndStillDecodes() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
        String reason = "x".repeat(ControlFlyweight.MAX_REASON_BYTES + 100);
        int length = ControlMessage.encode(new ControlMessage.Failure(1, reason), new ControlFlyweight().wrap(buffer, 0));
        assertEquals(9 + ControlFlyweight.MAX_REASON_BYTES, length);
        ControlMessage.Failure back = (ControlMessage.Failure) ControlMessage.decode(
            new ControlFlyweight().wrap((DirectBuffer) buffer, 0), length);
        assertEquals(reason.substring(0, ControlFlyweight.MAX_REASON_BYTES), back.reason());
    }

    @Test
    void everyCutMessageIsRefused() {
        for (ControlMessage m : MESSAGES) {
            byte[] bytes = new byte[2048];
            int length = ControlMessage.encode(m, new ControlFlyweight().wrap(new UnsafeBuffer(bytes), 0));
            for (int n = 0; n < length; n++) {
                // the buffer ends where the message was cut: a read past it would throw
                UnsafeBuffer cut = new UnsafeBuffer(Arrays.copyOf(bytes, n));
                assertNull(ControlMessage.decode(new ControlFlyweight().wrap((DirectBuffer) cut, 0), n),
                    m + " cut at " + n);
            }
        }
    }

    @Test
    void negativeOversizedOrOverlongReasonLengthsAndUnknownTypesAreRefused() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
        ControlFlyweight in = new ControlFlyweight().wrap((DirectBuffer) buffer, 0);
        buffer.putByte(0, ControlFlyweight.FAILURE);
        buffer.putInt(1, 1);
        for (int declared : new int[] {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, ControlFlyweight.MAX_REASON_BYTES + 1,
            12}) {
            buffer.putInt(5, declared, ByteOrder.LITTLE_ENDIAN);
            assertFalse(in.validate(20), "reason length " + declared);
            assertNull(ControlMessage.decode(in, 20));
        }
        buffer.putInt(5, 11, ByteOrder.LITTLE_ENDIAN);
        assertTrue(in.validate(20), "a reason that ends where the message does");
        for (byte type : new byte[] {0, 8, -1, Byte.MAX_VALUE}) {
            buffer.putByte(0, type);
            assertNull(ControlMessage.decode(in, 20), "type " + type);
        }
        assertNull(ControlMessage.decode(in, 0), "an empty message");
        assertNull(ControlMessage.decode(in, -1), "a negative length");
    }

    @Test
    void unknownBarrierKindsAndWaysOfLeavingAreRefused() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        ControlFlyweight out = new ControlFlyweight().wrap(buffer, 0);
        ControlFlyweight in = new ControlFlyweight().wrap((DirectBuffer) buffer, 0);
        for (byte bad : new byte[] {0, 3, -1}) {
            int length = ControlMessage.encode(new ControlMessage.BarrierEnter(1, 1, BarrierKind.BARRIER), out);
            buffer.putByte(ControlFlyweight.BARRIER_KIND_OFFSET, bad);
            assertNull(ControlMessage.decode(in, length), "barrier kind " + bad);
        }
        for (byte bad : new byte[] {0, 4, -1}) {
            int length = ControlMessage.encode(new ControlMessage.Goodbye(1, Leaving.CLOSED), out);
            buffer.putByte(ControlFlyweight.LEAVING_OFFSET, bad);
            assertNull(ControlMessage.decode(in, length), "leaving " + bad);
        }
    }

    @Test
    void randomBytesDecodeToNullOrAMessageNeverThrow() {
        Random random = new Random(1);
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[random.nextInt(64)];
            random.nextBytes(bytes);
            if (bytes.length > 0 && random.nextBoolean()) {
                bytes[0] = (byte) (1 + random.nextInt(7)); // a known type: its fields are random
            }
            ControlMessage.decode(new ControlFlyweight().wrap((DirectBuffer) new UnsafeBuffer(bytes), 0), bytes.length);
        }
    }
}
