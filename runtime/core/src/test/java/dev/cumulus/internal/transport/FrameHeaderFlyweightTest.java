package dev.cumulus.internal.transport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The transport's frame header: it round-trips in place; the decoder's check refuses short and unknown frames. */
@Timeout(10)
class FrameHeaderFlyweightTest {
    @Test
    void wholeAndChunkHeadersRoundTripAtAnyOffset() {
        for (int at : new int[] {0, 7}) {
            UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
            b.setMemory(0, 64, (byte) 0x5a); // the padding must be zeroed, not left as found
            new FrameHeaderFlyweight().wrap(b, at).header(FrameHeaderFlyweight.CHUNK, 3, 0xCAFE)
                .chunk(Long.MAX_VALUE - 1, 1 << 20, 4096);
            FrameHeaderFlyweight in = new FrameHeaderFlyweight().wrap((DirectBuffer) b, at);
            assertEquals(FrameHeaderFlyweight.CHUNK_LENGTH, in.headerLength(FrameHeaderFlyweight.CHUNK_LENGTH));
            assertEquals(FrameHeaderFlyweight.CHUNK, in.type());
            assertEquals(3, in.source());
            assertEquals(0xCAFE, in.runTag());
            assertEquals(Long.MAX_VALUE - 1, in.messageId());
            assertEquals(1 << 20, in.totalLength());
            assertEquals(4096, in.chunkOffset());
            assertEquals(0, b.getByte(at + 1) | b.getByte(at + 2) | b.getByte(at + 3), "padding");

            new FrameHeaderFlyweight().wrap(b, at).header(FrameHeaderFlyweight.WHOLE, 0, -7);
            assertEquals(FrameHeaderFlyweight.WHOLE_LENGTH, in.headerLength(FrameHeaderFlyweight.WHOLE_LENGTH + 5));
            assertEquals(0, in.source());
            assertEquals(-7, in.runTag());
        }
    }

    @Test
    void theLayoutIsTheDocumentedOne() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[FrameHeaderFlyweight.CHUNK_LENGTH]);
        new FrameHeaderFlyweight().wrap(b, 0).header(FrameHeaderFlyweight.CHUNK, 1, 2).chunk(3, 4, 5);
        assertEquals(2, b.getByte(0));
        assertEquals(1, b.getInt(4, ByteOrder.LITTLE_ENDIAN));
        assertEquals(2, b.getInt(8, ByteOrder.LITTLE_ENDIAN));
        assertEquals(3, b.getLong(12, ByteOrder.LITTLE_ENDIAN));
        assertEquals(4, b.getInt(20, ByteOrder.LITTLE_ENDIAN));
        assertEquals(5, b.getInt(24, ByteOrder.LITTLE_ENDIAN));
    }

    @Test
    void cutFramesAndUnknownTypesAreRejected() {
        byte[] chunk = new byte[FrameHeaderFlyweight.CHUNK_LENGTH];
        new FrameHeaderFlyweight().wrap(new UnsafeBuffer(chunk), 0).header(FrameHeaderFlyweight.CHUNK, 1, 1);
        byte[] whole = chunk.clone();
        whole[0] = FrameHeaderFlyweight.WHOLE;
        for (int n = 0; n < FrameHeaderFlyweight.CHUNK_LENGTH; n++) {
            // the buffer ends where the frame was cut: a read past it would throw
            FrameHeaderFlyweight cutChunk = new FrameHeaderFlyweight().wrap(
                (DirectBuffer) new UnsafeBuffer(Arrays.copyOf(chunk, n)), 0);
            assertEquals(FrameHeaderFlyweight.REJECTED, cutChunk.headerLength(n), "a chunk cut at " + n);
            if (n < FrameHeaderFlyweight.WHOLE_LENGTH) {
                FrameHeaderFlyweight cutWhole = new FrameHeaderFlyweight().wrap(
                    (DirectBuffer) new UnsafeBuffer(Arrays.copyOf(whole, n)), 0);
                assertEquals(FrameHeaderFlyweight.REJECTED, cutWhole.headerLength(n), "a whole frame cut at " + n);
            }
        }
        FrameHeaderFlyweight in = new FrameHeaderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(chunk), 0);
        for (byte type : new byte[] {0, 3, -1, Byte.MAX_VALUE}) {
            chunk[0] = type;
            assertEquals(FrameHeaderFlyweight.REJECTED, in.headerLength(chunk.length), "type " + type);
        }
        assertEquals(FrameHeaderFlyweight.REJECTED, in.headerLength(-1), "a negative length");
    }

    @Test
    void randomFramesAreRejectedOrReadableNeverThrow() {
        Random random = new Random(5);
        for (int i = 0; i < 20_000; i++) {
            byte[] junk = new byte[random.nextInt(40)];
            random.nextBytes(junk);
            if (junk.length > 0 && random.nextBoolean()) {
                junk[0] = (byte) (1 + random.nextInt(2));
            }
            FrameHeaderFlyweight in = new FrameHeaderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(junk), 0);
            int header = in.headerLength(junk.length);
            if (header != FrameHeaderFlyweight.REJECTED) {
                in.source();
                in.runTag();
                if (header == FrameHeaderFlyweight.CHUNK_LENGTH) {
                    in.messageId();
                    in.totalLength();
                    in.chunkOffset();
                }
            }
        }
    }
}
