package dev.cumulus.internal.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reassembly under hostile chunks, with a stepped clock: memory follows the data, bounds per sender, expiry. */
@Timeout(30)
class ChunkAssemblerTest {
    private static final int MAX_MESSAGE = 256 << 20;
    private long nowNs;
    private final List<String> lines = new ArrayList<>();
    private final TransportErrors errors = new TransportErrors("", () -> nowNs, 1_000_000_000L, lines::add);
    private final ChunkAssembler assembler =
        new ChunkAssembler(MAX_MESSAGE, 2L * MAX_MESSAGE, 5_000_000_000L, () -> nowNs, errors);
    private final UnsafeBuffer src = new UnsafeBuffer(new byte[4096]);

    @Test
    void fourTinyChunksThatDeclareTheLargestMessageAllocateLittle() {
        for (int id = 0; id < 4; id++) { // a 36-byte frame: 28 bytes of chunk header, 8 of payload
            assertNull(assembler.onChunk(1, Channel.DATA, id, MAX_MESSAGE, 0, src, 0, 8));
        }
        assertEquals(4, assembler.partialCount());
        assertTrue(assembler.bytesHeld() <= 4L * ChunkAssembler.FIRST_BUFFER_BYTES,
            "held " + assembler.bytesHeld() + " bytes, not the 1 GiB the frames declare");
    }

    @Test
    void memoryGrowsWithTheDataAndTheMessageArrivesWhole() {
        int total = 300_000;
        byte[] expected = new byte[total];
        for (int i = 0; i < total; i++) {
            expected[i] = (byte) (i * 31);
        }
        UnsafeBuffer data = new UnsafeBuffer(expected);
        DirectBuffer whole = null;
        for (int at = 0; at < total; at += 1000) {
            assertTrue(assembler.bytesHeld() <= Math.max(2L * at, ChunkAssembler.FIRST_BUFFER_BYTES),
                "held " + assembler.bytesHeld() + " after " + at + " bytes");
            whole = assembler.onChunk(2, Channel.DATA, 9, total, at, data, at, Math.min(1000, total - at));
        }
        assertNotNull(whole);
        byte[] got = new byte[total];
        whole.getBytes(0, got);
        assertArrayEquals(expected, got);
        assembler.release(2, Channel.DATA, 9);
        assertEquals(0, assembler.bytesHeld());
        assertEquals(0, assembler.droppedCount());
    }

    @Test
    void oneSenderHoldsBoundedMessagesAndOthersAreStillServed() {
        for (int id = 0; id < ChunkAssembler.MAX_PARTIALS_PER_SENDER + 10; id++) {
            assertNull(assembler.onChunk(1, Channel.DATA, id, MAX_MESSAGE, 0, src, 0, 8));
        }
        assertEquals(ChunkAssembler.MAX_PARTIALS_PER_SENDER, assembler.partialCount());
        assertEquals(10, assembler.droppedCount());
        assertNotNull(assembler.onChunk(2, Channel.DATA, 1, 16, 0, src, 0, 16), "another sender is served");
        assertEquals(10, errors.count("chunk-dropped"), "the ten drops are one kind, counted");
        assertEquals(1, lines.size(), "printed once: " + lines);
    }

    @Test
    void oneSendersBytesAreBounded() {
        ChunkAssembler small = new ChunkAssembler(100_000, 150_000, 5_000_000_000L, () -> nowNs, errors);
        UnsafeBuffer big = new UnsafeBuffer(new byte[100_000]);
        assertNull(small.onChunk(1, Channel.DATA, 1, 100_000, 0, big, 0, 90_000));
        assertNull(small.onChunk(1, Channel.DATA, 2, 100_000, 0, big, 0, 90_000), "over the sender's bytes");
        assertEquals(1, small.droppedCount());
        assertTrue(small.bytesHeld() <= 150_000);
    }

    @Test
    void chunksOutOfSequenceDropTheirMessage() {
        assertNull(assembler.onChunk(1, Channel.DATA, 1, 100, 0, src, 0, 10));
        assertNull(assembler.onChunk(1, Channel.DATA, 1, 100, 50, src, 0, 10), "a gap");
        assertEquals(0, assembler.partialCount());
        assertNull(assembler.onChunk(1, Channel.DATA, 2, 100, 10, src, 0, 10), "no first chunk");
        assertNull(assembler.onChunk(1, Channel.DATA, 3, 100, 0, src, 0, 10));
        assertNull(assembler.onChunk(1, Channel.DATA, 3, 200, 10, src, 0, 10), "another total");
        assertEquals(0, assembler.partialCount());
        assertEquals(3, assembler.droppedCount());
        assertEquals(0, assembler.bytesHeld());
    }

    @Test
    void incompleteMessagesExpire() {
        assertNull(assembler.onChunk(1, Channel.DATA, 1, 100, 0, src, 0, 10));
        nowNs += 4_000_000_000L;
        assertNull(assembler.onChunk(1, Channel.DATA, 1, 100, 10, src, 0, 10), "touched: still there");
        nowNs += 4_000_000_000L;
        assertNull(assembler.onChunk(3, Channel.DATA, 7, 100, 0, src, 0, 10));
        assertEquals(2, assembler.partialCount(), "4 s since its last chunk: kept");
        nowNs += 6_000_000_000L;
        assembler.expire(nowNs);
        assertEquals(0, assembler.partialCount());
        assertEquals(0, assembler.bytesHeld());
        assertEquals(2, assembler.droppedCount());
        assertEquals(2, errors.count("chunk-expired"));
    }

    @Test
    void aStalledLastMessageExpiresByItsOwnClockWithoutAnotherMessageStarting() {
        assertNull(assembler.onChunk(2, Channel.DATA, 5, 100, 0, src, 0, 10));
        nowNs += 20_000_000_000L;
        assembler.expire(); // what the node's timer runs; no other chunked message starts
        assertEquals(0, assembler.partialCount());
        assertEquals(0, assembler.bytesHeld());
        assertEquals(1, assembler.droppedCount());
    }
}
