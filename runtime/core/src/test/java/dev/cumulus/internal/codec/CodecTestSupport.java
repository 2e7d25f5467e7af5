package dev.cumulus.internal.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

/** Shared helpers: a default codec and one-call round trips. */
final class CodecTestSupport {
    /** The records, enums and {@code @Transferable} classes the codec tests declare, as the runtime would list them. */
    static final TransferAllowList TEST_CLASSES = testClasses(ValueCodecRoundTripTest.class,
        ValueReaderHostileInputTest.class, ValueCodecRefusalTest.class, BytesViewArgumentTest.class,
        ThrowableCodecTest.class, DecodeBudgetTest.class, SoleValuesTest.class);
    static final ValueCodec CODEC = new ValueCodec(ReferenceHandler.NONE, CodecTestSupport.class.getClassLoader(),
        CodecLimits.DEFAULTS, TEST_CLASSES);

    private static TransferAllowList testClasses(Class<?>... tests) {
        TransferAllowList list = new TransferAllowList();
        for (Class<?> test : tests) {
            for (Class<?> nested : test.getDeclaredClasses()) {
                if (nested.isRecord() || nested.isEnum() || nested.isAnnotationPresent(dev.cumulus.Transferable.class)) {
                    list.allow(nested);
                }
            }
        }
        return list;
    }

    private CodecTestSupport() {
    }

    /** Encodes at a non-zero offset and decodes; checks the reader consumed exactly the encoded bytes. */
    @SuppressWarnings("unchecked")
    static <T> T roundTrip(ValueCodec codec, T value) {
        MutableDirectBuffer buffer = new ExpandableArrayBuffer(64);
        int offset = 7;
        int end = codec.write(buffer, offset, value, "value");
        ValueReader reader = codec.reader(buffer, offset, end - offset);
        Object decoded = reader.read();
        assertEquals(end, reader.position(), "reader must stop exactly at the end of the encoding");
        return (T) decoded;
    }

    static <T> T roundTrip(T value) {
        return roundTrip(CODEC, value);
    }

    /** @return the encoding of {@code value} as a byte array */
    static byte[] encode(ValueCodec codec, Object value) {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        int end = codec.write(buffer, 0, value, "value");
        byte[] bytes = new byte[end];
        buffer.getBytes(0, bytes);
        return bytes;
    }
}
