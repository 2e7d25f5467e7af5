package dev.cumulus.internal.codec;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Fuzz target of the value decoder: whatever the bytes, reading them as a value, as arguments, as a throwable or as a
 * {@code BytesView} argument throws nothing but {@link CodecException}, and never spends more than the decode budget.
 * The seeds (resources, {@code ValueCodecFuzzTestInputs}) hold the hostile messages of {@link DecodeBudgetTest};
 * {@code ./build fuzz} fuzzes it (docs/design/TRANSFER.md).
 */
class ValueCodecFuzzTest {
    /** Small budgets, so an input that would cost much is refused quickly and the fuzzer stays fast. */
    static final CodecLimits LIMITS = new CodecLimits(1 << 20, 1 << 16, 1 << 16, 64, 256, 64, 4, 1 << 20, 16L << 20);
    private static final ValueCodec CODEC = new ValueCodec(ReferenceHandler.NONE,
        ValueCodecFuzzTest.class.getClassLoader(), LIMITS, CodecTestSupport.TEST_CLASSES);

    @FuzzTest(maxDuration = "2s")
    void valueReader(byte[] data) {
        UnsafeBuffer buffer = new UnsafeBuffer(data);
        decode(() -> CODEC.readValue(buffer, 0, data.length));
        decode(() -> CODEC.readSimple(buffer, 0, data.length));
        decode(() -> CODEC.reader(buffer, 0, data.length).readArguments(2));
        decode(() -> CODEC.reader(buffer, 0, data.length).readThrowable(new Class<?>[0]));
        decode(() -> CODEC.reader(buffer, 0, data.length).readArgument(BytesView.class));
        ValueReader reader = CODEC.reader(buffer, 0, data.length);
        decode(reader::read);
        assertTrue(reader.workSpent() <= LIMITS.maxDecodeWork(), "work " + reader.workSpent());
        assertTrue(reader.heapBytesCharged() <= LIMITS.maxDecodeHeapBytes(), "heap " + reader.heapBytesCharged());
    }

    private static void decode(Runnable read) {
        try {
            read.run();
        } catch (CodecException expected) {
            // the one exception bad input may raise
        }
    }
}
