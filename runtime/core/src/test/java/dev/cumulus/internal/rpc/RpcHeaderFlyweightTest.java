package dev.cumulus.internal.rpc;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The call and answer headers: they round-trip in place; the decoder's checks refuse short and foreign messages. */
@Timeout(10)
class RpcHeaderFlyweightTest {
    @Test
    void aCallHeaderRoundTripsAtAnyOffset() {
        for (int at : new int[] {0, 11}) {
            ExpandableArrayBuffer b = new ExpandableArrayBuffer(1); // grows as the flyweight writes
            new CallHeaderFlyweight().wrap(b, at).write(-2, Long.MAX_VALUE, Integer.MIN_VALUE, 42, 1L << 60);
            CallHeaderFlyweight in = new CallHeaderFlyweight().wrap((DirectBuffer) b, at);
            assertTrue(in.validate(CallHeaderFlyweight.LENGTH));
            assertEquals(-2, in.callId());
            assertEquals(Long.MAX_VALUE, in.objectId());
            assertEquals(Integer.MIN_VALUE, in.methodId());
            assertEquals(42, in.applied());
            assertEquals(1L << 60, in.pollsUntilNs());
        }
    }

    @Test
    void replyAndErrorHeadersRoundTripAtAnyOffset() {
        for (int at : new int[] {0, 11}) {
            for (byte type : new byte[] {ReplyHeaderFlyweight.REPLY, ReplyHeaderFlyweight.ERROR}) {
                ExpandableArrayBuffer b = new ExpandableArrayBuffer(1);
                new ReplyHeaderFlyweight().wrap(b, at).write(type, 77, -1);
                ReplyHeaderFlyweight in = new ReplyHeaderFlyweight().wrap((DirectBuffer) b, at);
                assertTrue(in.validate(ReplyHeaderFlyweight.LENGTH + 3));
                assertEquals(type, in.type());
                assertEquals(77, in.callId());
                assertEquals(-1, in.applied());
            }
        }
    }

    @Test
    void theLayoutsAreTheDocumentedOnes() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[CallHeaderFlyweight.LENGTH]);
        new CallHeaderFlyweight().wrap(b, 0).write(1, 2, 3, 4, 5);
        assertEquals(CallHeaderFlyweight.CALL, b.getByte(0));
        assertEquals(1, b.getLong(1, ByteOrder.LITTLE_ENDIAN));
        assertEquals(2, b.getLong(9, ByteOrder.LITTLE_ENDIAN));
        assertEquals(3, b.getInt(17, ByteOrder.LITTLE_ENDIAN));
        assertEquals(4, b.getLong(21, ByteOrder.LITTLE_ENDIAN));
        assertEquals(5, b.getLong(29, ByteOrder.LITTLE_ENDIAN));
        new ReplyHeaderFlyweight().wrap(b, 0).write(ReplyHeaderFlyweight.ERROR, 6, 7);
        assertEquals(ReplyHeaderFlyweight.ERROR, b.getByte(0));
        assertEquals(6, b.getLong(1, ByteOrder.LITTLE_ENDIAN));
        assertEquals(7, b.getLong(9, ByteOrder.LITTLE_ENDIAN));
    }

    @Test
    void cutHeadersAndForeignTypesAreRefused() {
        byte[] call = new byte[CallHeaderFlyweight.LENGTH];
        new CallHeaderFlyweight().wrap(new UnsafeBuffer(call), 0).write(1, 2, 3, 4, 5);
        byte[] reply = new byte[ReplyHeaderFlyweight.LENGTH];
        new ReplyHeaderFlyweight().wrap(new UnsafeBuffer(reply), 0).write(ReplyHeaderFlyweight.REPLY, 1, 2);
        for (int n = 0; n < CallHeaderFlyweight.LENGTH; n++) {
            // the buffer ends where the message was cut: a read past it would throw
            assertFalse(new CallHeaderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(Arrays.copyOf(call, n)), 0)
                .validate(n), "a call cut at " + n);
            if (n < ReplyHeaderFlyweight.LENGTH) {
                assertFalse(new ReplyHeaderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(Arrays.copyOf(reply, n)),
                    0).validate(n), "a reply cut at " + n);
            }
        }
        CallHeaderFlyweight asCall = new CallHeaderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(reply), 0);
        assertFalse(asCall.validate(reply.length), "a reply is not a call");
        ReplyHeaderFlyweight asReply = new ReplyHeaderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(call), 0);
        assertFalse(asReply.validate(call.length), "a call is not a reply");
        for (byte type : new byte[] {0, 5, -1, Byte.MAX_VALUE}) {
            call[0] = type;
            assertFalse(asReply.validate(call.length), "type " + type);
            assertFalse(new CallHeaderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(call), 0).validate(call.length),
                "type " + type);
        }
        assertFalse(asCall.validate(-1), "a negative length");
        assertFalse(asReply.validate(-1), "a negative length");
    }

    @Test
    void randomBytesAreRefusedOrReadableNeverThrow() {
        Random random = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            byte[] junk = new byte[random.nextInt(48)];
            random.nextBytes(junk);
            if (junk.length > 0 && random.nextBoolean()) {
                junk[0] = (byte) (1 + random.nextInt(3));
            }
            DirectBuffer b = new UnsafeBuffer(junk);
            CallHeaderFlyweight call = new CallHeaderFlyweight().wrap(b, 0);
            if (call.validate(junk.length)) {
                call.callId();
                call.objectId();
                call.methodId();
                call.applied();
                call.pollsUntilNs();
            }
            ReplyHeaderFlyweight reply = new ReplyHeaderFlyweight().wrap(b, 0);
            if (reply.validate(junk.length)) {
                reply.callId();
                reply.applied();
            }
        }
    }
}
