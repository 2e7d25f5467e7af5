package dev.cumulus.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Fuzz target of the chunk reassembly: a fuzzed sequence of chunks (sources, message ids, declared totals, offsets,
 * lengths) and clock steps never raises an exception, never holds more than its bounds, and a message it completes
 * has the length it declared. Run as a regression test on its seeds in every test run; {@code ./build fuzz} fuzzes it.
 */
class ChunkFuzzTest {
    private static final int MAX_MESSAGE = 1 << 20;
    private static final int SENDERS = 4;

    @FuzzTest(maxDuration = "2s")
    void chunks(FuzzedDataProvider data) {
        long[] now = {0};
        TransportErrors errors = new TransportErrors("", () -> now[0], 1_000_000_000L, line -> { });
        ChunkAssembler assembler = new ChunkAssembler(MAX_MESSAGE, 2L * MAX_MESSAGE, 1_000_000_000L, () -> now[0],
            errors);
        UnsafeBuffer source = new UnsafeBuffer(new byte[64 * 1024]);
        while (data.remainingBytes() > 0) {
            now[0] += data.consumeInt(0, 500_000_000);
            int sender = data.consumeInt(0, SENDERS - 1);
            long messageId = data.consumeInt(0, 200);
            int total = data.consumeBoolean() ? data.consumeInt() : data.consumeInt(1, MAX_MESSAGE + 1);
            int offset = data.consumeBoolean() ? data.consumeInt() : data.consumeInt(0, MAX_MESSAGE);
            int length = data.consumeInt(0, source.capacity());
            DirectBuffer whole = assembler.onChunk(sender, Channel.DATA, messageId, total, offset, source, 0, length);
            if (whole != null) {
                assertEquals(total, whole.capacity());
                assembler.release(sender, Channel.DATA, messageId);
            }
            assertTrue(assembler.bytesHeld() <= SENDERS * 2L * MAX_MESSAGE, "held " + assembler.bytesHeld());
            assertTrue(assembler.partialCount() <= SENDERS * ChunkAssembler.MAX_PARTIALS_PER_SENDER);
        }
    }
}
