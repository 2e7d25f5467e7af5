package dev.cumulus.internal.codec;

import static dev.cumulus.internal.codec.CodecTestSupport.CODEC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cumulus.Transferable;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class ValueReaderHostileInputTest {

    static final AtomicBoolean EVIL_INITIALIZED = new AtomicBoolean();

    /** Not transferable; its static initializer must never run because a message named it. */
    static class Evil {
        static {
            EVIL_INITIALIZED.set(true);
        }

        int x;
    }

    record Pair(String name, int[] values) {
    }

    enum Level { LOW, HIGH }

    @Transferable
    static class Tree {
        String label;
        List<Tree> children = new ArrayList<>();
        Tree parent;
        double weight;
    }

    /** A builder for hand-made messages. */
    static final class Bytes {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        int length;

        Bytes b(int value) {
            buffer.putByte(length++, (byte) value);
            return this;
        }

        Bytes i(int value) {
            buffer.putInt(length, value, ByteOrder.LITTLE_ENDIAN);
            length += 4;
            return this;
        }

        Bytes latin1(String value) {
            b(Tags.CODER_LATIN1).i(value.length());
            for (byte x : value.getBytes(StandardCharsets.ISO_8859_1)) {
                b(x);
            }
            return this;
        }

        Bytes newClass(String name) {
            return i(Tags.NEW_CLASS).latin1(name).i(0);
        }

        /** A class-table entry with the class's true fingerprint. */
        Bytes newClass(Class<?> type) {
            return i(Tags.NEW_CLASS).latin1(type.getName()).i(TypeInfo.of(type).fingerprint);
        }

        Object read() {
            return CODEC.reader(buffer, 0, length).read();
        }

        String failure() {
            return assertThrows(CodecException.class, this::read).getMessage();
        }
    }

    private static List<Object> corpus() {
        Tree root = new Tree();
        root.label = "root";
        for (int i = 0; i < 3; i++) {
            Tree child = new Tree();
            child.label = "child " + i;
            child.parent = root;
            child.weight = i;
            root.children.add(child);
        }
        Map<String, Object> map = new HashMap<>();
        map.put("pairs", List.of(new Pair("p", new int[] {1, 2}), new Pair("q", new int[0])));
        map.put("levels", new TreeSet<>(List.of(Level.HIGH, Level.LOW)));
        map.put("sorted", new TreeMap<>(Map.of(1, "one", 2, "two")));
        map.put("opt", Optional.of("€uro"));
        return List.of(root, map, new double[][] {{1, 2}, {3}}, new Object[] {"a", 1L, 'c', 2.0f, null, true},
            new LinkedHashSet<>(List.of("x", "y")), Map.of("k", List.of(Level.LOW)), "plain string");
    }

    @Test
    void everyTruncationFailsWithCodecException() {
        for (Object value : corpus()) {
            byte[] bytes = CodecTestSupport.encode(CODEC, value);
            UnsafeBuffer buffer = new UnsafeBuffer(bytes);
            for (int length = 0; length < bytes.length; length++) {
                int cut = length;
                assertThrows(CodecException.class, () -> CODEC.reader(buffer, 0, cut).read(),
                    () -> "truncated to " + cut + " of " + bytes.length + " bytes: " + value);
            }
        }
    }

    @Test
    void mutatedEncodingsFailOnlyWithCodecException() {
        Random random = new Random(20240611L);
        int[] interesting = {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x10000, -2, 255};
        int decoded = 0;
        int rejected = 0;
        for (Object value : corpus()) {
            byte[] original = CodecTestSupport.encode(CODEC, value);
            for (int round = 0; round < 3000; round++) {
                byte[] bytes = original.clone();
                UnsafeBuffer buffer = new UnsafeBuffer(bytes);
                int mutations = 1 + random.nextInt(3);
                for (int m = 0; m < mutations; m++) {
                    int at = random.nextInt(bytes.length);
                    switch (random.nextInt(3)) {
                        case 0 -> bytes[at] = (byte) random.nextInt(256);
                        case 1 -> bytes[at] ^= (byte) (1 << random.nextInt(8));
                        default -> {
                            if (at + 4 <= bytes.length) {
                                buffer.putInt(at, interesting[random.nextInt(interesting.length)],
                                    ByteOrder.LITTLE_ENDIAN);
                            }
                        }
                    }
                }
                try {
                    CODEC.reader(buffer, 0, bytes.length).read();
                    decoded++;
                } catch (CodecException expected) {
                    rejected++;
                } catch (Throwable other) {
                    fail("mutated encoding of " + value + " threw " + other, other);
                }
            }
        }
        assertTrue(rejected > 1000, "most mutations should be rejected, rejected " + rejected + " decoded " + decoded);
    }

    @Test
    void randomGarbageFailsOnlyWithCodecException() {
        Random random = new Random(7);
        for (int round = 0; round < 5000; round++) {
            byte[] bytes = new byte[1 + random.nextInt(64)];
            random.nextBytes(bytes);
            try {
                CODEC.reader(new UnsafeBuffer(bytes), 0, bytes.length).read();
            } catch (CodecException expected) {
                // fine
            } catch (Throwable other) {
                fail("garbage " + HexFormat.of().formatHex(bytes) + " threw " + other, other);
            }
        }
    }

    @Test
    void mutatedThrowablesFailOnlyWithCodecException() {
        ExpandableArrayBuffer source = new ExpandableArrayBuffer();
        int end = CODEC.writeThrowable(source, 0, new IllegalStateException("outer", new IOException("inner")));
        byte[] original = new byte[end];
        source.getBytes(0, original);
        Random random = new Random(99);
        for (int round = 0; round < 3000; round++) {
            byte[] bytes = original.clone();
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
            int length = random.nextInt(4) == 0 ? random.nextInt(bytes.length) : bytes.length;
            try {
                CODEC.reader(new UnsafeBuffer(bytes), 0, length).readThrowable(new Class<?>[0]);
            } catch (CodecException expected) {
                // fine
            } catch (Throwable other) {
                fail("mutated throwable threw " + other, other);
            }
        }
    }

    @Test
    void hugeDeclaredLengthsAreRejectedBeforeAllocating() {
        for (byte tag : new byte[] {Tags.DOUBLE_ARRAY, Tags.LONG_ARRAY, Tags.BYTE_ARRAY, Tags.BOOLEAN_ARRAY}) {
            String message = new Bytes().b(tag).i(Integer.MAX_VALUE).failure();
            assertTrue(message.contains("truncated"), message);
            assertTrue(new Bytes().b(tag).i(-1).failure().contains("negative array length"));
        }
        assertTrue(new Bytes().b(Tags.STRING).b(Tags.CODER_UTF16).i(Integer.MAX_VALUE).failure()
            .contains("string length"));
        assertTrue(new Bytes().b(Tags.ARRAY_LIST).i(Integer.MAX_VALUE).failure().contains("element count"));
        assertTrue(new Bytes().b(Tags.HASH_MAP).i(1000).b(Tags.NULL).failure().contains("element count 1000 but"));
        assertTrue(new Bytes().b(Tags.OBJECT_ARRAY).newClass("java.lang.Object").i(-5).failure()
            .contains("element count -5"));
        assertTrue(new Bytes().b(Tags.BIG_INTEGER).i(Integer.MAX_VALUE).failure().contains("big number"));
        assertTrue(new Bytes().b(Tags.ENUM).i(Tags.NEW_CLASS).b(Tags.CODER_LATIN1).i(5000).failure()
            .contains("string length 5000 outside 0..1024"));
    }

    @Test
    void nestingBombIsRejected() {
        Bytes bytes = new Bytes();
        for (int i = 0; i < 100_000; i++) {
            bytes.b(Tags.ARRAY_LIST).i(1);
        }
        bytes.b(Tags.NULL);
        assertTrue(bytes.failure().contains("nested deeper than CodecLimits.maxDepth (512)"));
    }

    @Test
    void classesOutsideTheAllowListAreRejectedWithoutInitialization() {
        String message = new Bytes().b(Tags.OBJECT).newClass(Evil.class.getName()).i(1).failure();
        assertTrue(message.contains("class " + Evil.class.getName() + " named in the message is not on this node's"
            + " transfer allow-list"), message);
        assertFalse(EVIL_INITIALIZED.get(), "resolving a refused class must not run its static initializer");

        message = new Bytes().b(Tags.OBJECT_ARRAY).newClass("[L" + Evil.class.getName() + ";").i(0).failure();
        assertTrue(message.contains("not on this node's transfer allow-list"), message);
        assertTrue(new Bytes().b(Tags.OBJECT).newClass("java.util.Date").failure().contains("allow-list"));
        assertTrue(new Bytes().b(Tags.OBJECT).newClass("java.lang.Thread").failure().contains("allow-list"));
        assertTrue(new Bytes().b(Tags.OBJECT).newClass("no.such.Clazz").failure().contains("allow-list"));
        assertTrue(new Bytes().b(Tags.OBJECT).newClass("java.no.such.Clazz").failure().contains("not available"));
        assertTrue(new Bytes().b(Tags.RECORD).newClass(Level.class.getName()).failure().contains("is not a record"));
        assertTrue(new Bytes().b(Tags.OBJECT).newClass(Level.class.getName()).failure()
            .contains("is not a @Transferable class"));
        assertTrue(new Bytes().b(Tags.ENUM).newClass(Pair.class).latin1("X").failure()
            .contains("is not an enum"));
        assertTrue(new Bytes().b(Tags.ENUM).newClass(Level.class.getName()).latin1("MEDIUM").failure()
            .contains("has no constant 'MEDIUM'"));
        assertFalse(EVIL_INITIALIZED.get());
    }

    @Test
    void badReferencesAreRejected() {
        assertTrue(new Bytes().b(Tags.REF).i(0).failure().contains("back-reference to object 0"));
        assertTrue(new Bytes().b(Tags.ENUM).i(3).failure().contains("class reference 3"));
        assertTrue(new Bytes().b(Tags.ENUM).i(-7).failure().contains("invalid class reference -7"));
        assertTrue(new Bytes().b(99).failure().contains("unknown tag 99"));
        assertTrue(new Bytes().b(Tags.BOOLEAN).b(2).failure().contains("invalid boolean 2"));
    }

    @Test
    void typeConfusionIsACodecException() {
        // a TreeSet of mutually incomparable elements
        String message = new Bytes().b(Tags.TREE_SET).i(2).b(Tags.INT).i(1).b(Tags.STRING).latin1("x").failure();
        assertTrue(message.contains("ClassCastException"), message);
        // a record component of the wrong type: Pair(String, int[]) given (int, int[])
        message = new Bytes().b(Tags.RECORD).newClass(Pair.class).b(Tags.INT).i(1).b(Tags.NULL).failure();
        assertTrue(message.contains("do not fit the components"), message);
        // Set.of with duplicates, Optional of null
        assertThrows(CodecException.class,
            new Bytes().b(Tags.IMMUTABLE_SET).i(2).b(Tags.INT).i(1).b(Tags.INT).i(1)::read);
        assertThrows(CodecException.class, new Bytes().b(Tags.OPTIONAL).b(Tags.NULL)::read);
        assertThrows(CodecException.class, new Bytes().b(Tags.LOCAL_DATE).i(2024).b(13).b(1)::read);
    }

    @Test
    void changedClassLayoutIsDetected() {
        byte[] bytes = CodecTestSupport.encode(CODEC, new Pair("p", new int[0]));
        UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        int fingerprintAt = 1 + 4 + 1 + 4 + Pair.class.getName().length();
        assertEquals(TypeInfo.of(Pair.class).fingerprint, buffer.getInt(fingerprintAt, ByteOrder.LITTLE_ENDIAN));
        buffer.putInt(fingerprintAt, 12345, ByteOrder.LITTLE_ENDIAN);
        CodecException e = assertThrows(CodecException.class, () -> CODEC.reader(buffer, 0, bytes.length).read());
        assertTrue(e.getMessage().contains("has different fields on the sender"), e.getMessage());
    }

    @Test
    void readerEnforcesConfiguredLimits() {
        ValueCodec small = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(),
            new CodecLimits(1024, 100, 10, 8, 200, 10, 4, 1 << 20, 1 << 20), CodecTestSupport.TEST_CLASSES);
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        int end = CODEC.write(buffer, 0, new byte[2000], "big");
        assertThrows(CodecException.class, () -> small.reader(buffer, 0, end));
        int strings = CODEC.write(buffer, 0, "y".repeat(101), "s");
        assertTrue(assertThrows(CodecException.class, () -> small.reader(buffer, 0, strings).read()).getMessage()
            .contains("string length 101 outside 0..100"));
        int list = CODEC.write(buffer, 0, new ArrayList<>(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)), "l");
        assertTrue(assertThrows(CodecException.class, () -> small.reader(buffer, 0, list).read()).getMessage()
            .contains("outside 0..10"));
        assertThrows(CodecException.class, () -> CODEC.reader(buffer, 10, buffer.capacity()));
        assertThrows(CodecException.class, () -> CODEC.reader(buffer, -1, 4));
    }
}
