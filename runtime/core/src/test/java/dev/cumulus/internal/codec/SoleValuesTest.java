package dev.cumulus.internal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.NotTransferableException;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The quick path for simple values: the same bytes as the full encoder, read back by either reader. */
class SoleValuesTest {
    private static final ValueCodec CODEC = CodecTestSupport.CODEC;

    private static List<Object> simpleValues() {
        byte[] random = new byte[300];
        new Random(7).nextBytes(random);
        return Arrays.asList(null, 0, -5, Integer.MIN_VALUE, Long.MAX_VALUE, -1L, 3.5, Double.NaN, -0.0, true, false,
            new byte[0], random);
    }

    /** What the full encoder writes for {@code value}. */
    private static byte[] fullEncoding(Object value) {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        Encoder encoder = new Encoder(ReferenceHandler.NONE, CodecLimits.DEFAULTS, buffer, 0);
        encoder.writeTop(value, () -> "value");
        return Arrays.copyOf(buffer.byteArray(), encoder.position());
    }

    private static byte[] quickEncoding(Object value) {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        int end = SoleValues.write(buffer, 0, value, CodecLimits.DEFAULTS);
        assertTrue(end > 0, "a simple value takes the quick path: " + value);
        return Arrays.copyOf(buffer.byteArray(), end);
    }

    @Test
    void simpleValuesAreWrittenExactlyAsTheFullEncoderWritesThem() {
        for (Object value : simpleValues()) {
            assertArrayEquals(fullEncoding(value), quickEncoding(value), "encoding of " + value);
        }
    }

    @Test
    void eitherReaderReadsWhatEitherPathWrote() {
        for (Object value : simpleValues()) {
            for (byte[] bytes : List.of(fullEncoding(value), quickEncoding(value))) {
                UnsafeBuffer buffer = new UnsafeBuffer(bytes);
                ValueReader reader = CODEC.reader(buffer, 0, bytes.length);
                assertValueEquals(value, reader.read());
                assertEquals(bytes.length, reader.position());
                assertValueEquals(value, CODEC.readValue(buffer, 0, bytes.length));
            }
        }
    }

    @Test
    void readSimpleDecodesOnlySimpleValues() {
        byte[] number = quickEncoding(42L);
        assertEquals(42L, CODEC.readSimple(new UnsafeBuffer(number), 0, number.length));
        for (Object other : List.of("text", List.of(1, 2), new int[] {1, 2}, new Point(1, 2), (short) 3)) {
            byte[] bytes = fullEncoding(other);
            assertSame(ValueCodec.NOT_SIMPLE, CODEC.readSimple(new UnsafeBuffer(bytes), 0, bytes.length),
                "not simple: " + other);
            assertValueEquals(other, CODEC.readValue(new UnsafeBuffer(bytes), 0, bytes.length));
        }
        assertSame(ValueCodec.NOT_SIMPLE, CODEC.readSimple(new UnsafeBuffer(new byte[4]), 2, 3),
            "a range outside the buffer is left to the full reader, which reports it");
    }

    @Test
    void aCutOrNegativeByteArrayIsACodecExceptionOnEitherRead() {
        byte[] bytes = quickEncoding(new byte[100]);
        UnsafeBuffer cut = new UnsafeBuffer(bytes, 0, 50);
        CodecException e = assertThrows(CodecException.class, () -> CODEC.readSimple(cut, 0, 50));
        assertTrue(e.getMessage().contains("truncated byte array of 100 bytes"), e.getMessage());
        assertThrows(CodecException.class, () -> CODEC.readValue(cut, 0, 50));

        UnsafeBuffer negative = new UnsafeBuffer(bytes.clone());
        negative.putInt(1, -3, ByteOrder.LITTLE_ENDIAN);
        e = assertThrows(CodecException.class, () -> CODEC.readValue(negative, 0, bytes.length));
        assertTrue(e.getMessage().contains("negative array length -3"), e.getMessage());

        byte[] number = quickEncoding(7L);
        assertThrows(CodecException.class, () -> CODEC.readValue(new UnsafeBuffer(number), 0, 5));

        byte[] flag = quickEncoding(true);
        flag[1] = 2;
        e = assertThrows(CodecException.class, () -> CODEC.readSimple(new UnsafeBuffer(flag), 0, flag.length));
        assertTrue(e.getMessage().contains("invalid boolean 2"), e.getMessage());
        assertThrows(CodecException.class, () -> CODEC.readValue(new UnsafeBuffer(flag), 0, flag.length));
    }

    @Test
    void aNegativeOffsetIsRefusedBeforeAnythingIsWritten() {
        assertThrows(IllegalArgumentException.class, () -> CODEC.write(new ExpandableArrayBuffer(64), -1, 5L, "x"));
        assertThrows(IllegalArgumentException.class,
            () -> CODEC.writeArguments(new ExpandableArrayBuffer(64), -1, new Object[] {5L}, () -> "x"));
    }

    @Test
    void aByteArrayOverTheMessageLimitIsStillRefusedWithTheLimitNamed() {
        ValueCodec small = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(),
            new CodecLimits(64, 1024, 1024, 64, 256, 16, 4, 1 << 20, 1 << 20), CodecTestSupport.TEST_CLASSES);
        NotTransferableException e = assertThrows(NotTransferableException.class,
            () -> small.write(new ExpandableArrayBuffer(64), 0, new byte[100], "result of Echo.echo"));
        assertTrue(e.getMessage().contains("maxMessageBytes"), e.getMessage());
        assertTrue(e.getMessage().contains("Echo.echo"), e.getMessage());
    }

    @Test
    void aOneArgumentCallOfASimpleValueReadsBackAsItsArgument() throws Exception {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        byte[] payload = {1, 2, 3};
        int end = CODEC.writeArguments(buffer, 3, new Object[] {payload},
            Echo.class.getMethod("echo", byte[].class));
        assertArrayEquals(payload, (byte[]) CODEC.reader(buffer, 3, end - 3).readArgument(byte[].class));
        assertArrayEquals(payload, (byte[]) CODEC.readValue(buffer, 3, end - 3));
    }

    private static void assertValueEquals(Object expected, Object actual) {
        if (expected == null) {
            assertNull(actual);
        } else if (expected instanceof byte[] bytes) {
            assertArrayEquals(bytes, (byte[]) actual);
        } else if (expected instanceof int[] ints) {
            assertArrayEquals(ints, (int[]) actual);
        } else {
            assertEquals(expected, actual);
        }
    }

    record Point(int x, int y) {
    }

    interface Echo {
        byte[] echo(byte[] payload);
    }
}
