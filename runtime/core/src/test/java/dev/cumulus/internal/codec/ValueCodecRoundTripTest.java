package dev.cumulus.internal.codec;

import static dev.cumulus.internal.codec.CodecTestSupport.CODEC;
import static dev.cumulus.internal.codec.CodecTestSupport.roundTrip;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.Transferable;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ValueCodecRoundTripTest {

    record Point(int x, double y, String label) {
    }

    record Box<T>(T value, List<T> values, Map<String, T> byName) {
    }

    private record Secret(long code, char[] letters) {
    }

    record Checked(int positive) {
        Checked {
            if (positive <= 0) {
                throw new IllegalArgumentException("not positive: " + positive);
            }
        }
    }

    enum Color {
        RED, GREEN {
            @Override
            public String toString() {
                return "green!";
            }
        }, BLUE
    }

    @Transferable
    static class Node {
        int value;
        Node next;
        Object payload;
        transient int cache = 99;
        static int instances;

        private Node() {
        }

        Node(int value) {
            this.value = value;
            instances++;
        }
    }

    static class Base {
        protected String baseName;
        long baseCount;
    }

    @Transferable
    static final class Derived extends Base {
        private final String own;
        boolean flag;
        byte b;
        short s;
        char c;
        float f;
        double d;
        long l;

        @SuppressWarnings("unused")
        private Derived() {
            this.own = null;
        }

        Derived(String own) {
            this.own = own;
        }
    }

    @Test
    void primitivesBoxesAndStrings() {
        for (Object value : new Object[] {true, false, (byte) -7, (short) 31000, 'x', '\u20ac', 42, Integer.MIN_VALUE,
            Long.MAX_VALUE, 1.5f, Float.NaN, -0.0d, Double.MAX_VALUE, "", "plain ascii", "Grüße café",
            "snow \u2603 and emoji \uD83D\uDE00", "x".repeat(1000)}) {
            assertEquals(value, roundTrip(value), () -> "round trip of " + value);
        }
        assertNull(roundTrip(null));
    }

    @Test
    void primitiveArraysOfEveryType() {
        assertArrayEquals(new boolean[] {true, false, true}, roundTrip(new boolean[] {true, false, true}));
        assertArrayEquals(new byte[] {1, -2, 3}, roundTrip(new byte[] {1, -2, 3}));
        assertArrayEquals(new short[] {1, -2, 300}, roundTrip(new short[] {1, -2, 300}));
        assertArrayEquals(new char[] {'a', '\u20ac'}, roundTrip(new char[] {'a', '\u20ac'}));
        assertArrayEquals(new int[] {1, -2, Integer.MAX_VALUE}, roundTrip(new int[] {1, -2, Integer.MAX_VALUE}));
        assertArrayEquals(new long[] {1, Long.MIN_VALUE}, roundTrip(new long[] {1, Long.MIN_VALUE}));
        assertArrayEquals(new float[] {1.25f, -0f}, roundTrip(new float[] {1.25f, -0f}));
        assertArrayEquals(new double[] {Math.PI, Double.NEGATIVE_INFINITY},
            roundTrip(new double[] {Math.PI, Double.NEGATIVE_INFINITY}));
        assertArrayEquals(new int[0], roundTrip(new int[0]));
    }

    @Test
    void objectAndMultiDimensionalArrays() {
        double[][] matrix = new double[3][4];
        matrix[2][3] = 7.5;
        double[][] decoded = roundTrip(matrix);
        assertEquals(double[][].class, decoded.getClass());
        assertTrue(Arrays.deepEquals(matrix, decoded));

        String[] strings = {"a", null, "c"};
        String[] decodedStrings = roundTrip(strings);
        assertEquals(String[].class, decodedStrings.getClass());
        assertArrayEquals(strings, decodedStrings);

        Object[] mixed = {1, "two", new int[] {3}, List.of(4), Color.BLUE};
        Object[] decodedMixed = roundTrip(mixed);
        assertEquals(Object[].class, decodedMixed.getClass());
        assertEquals(1, decodedMixed[0]);
        assertArrayEquals(new int[] {3}, (int[]) decodedMixed[2]);
        assertEquals(List.of(4), decodedMixed[3]);
        assertSame(Color.BLUE, decodedMixed[4]);

        Point[] points = {new Point(1, 2, "p")};
        assertEquals(Point[].class, roundTrip(points).getClass());
        CharSequence[] byInterface = {"x", "y"};
        assertEquals(CharSequence[].class, roundTrip(byInterface).getClass());
    }

    @Test
    void recordsIncludingGenericPrivateAndNested() {
        Point point = new Point(3, -1.5, "origin");
        assertEquals(point, roundTrip(point));

        Box<Point> box = new Box<>(point, List.of(point, new Point(0, 0, null)), Map.of("a", point));
        assertEquals(box, roundTrip(box));

        Secret secret = roundTrip(new Secret(77L, new char[] {'s', 'e'}));
        assertEquals(77L, secret.code());
        assertArrayEquals(new char[] {'s', 'e'}, secret.letters());
    }

    @Test
    void enumsByNameIncludingConstantBodies() {
        assertSame(Color.RED, roundTrip(Color.RED));
        assertSame(Color.GREEN, roundTrip(Color.GREEN));
        assertEquals(List.of(Color.GREEN, Color.BLUE), roundTrip(List.of(Color.GREEN, Color.BLUE)));
    }

    @Test
    void transferableClassesCopyFieldsOfTheWholeHierarchy() {
        Derived original = new Derived("mine");
        original.baseName = "base";
        original.baseCount = 12;
        original.flag = true;
        original.b = -1;
        original.s = 2;
        original.c = 'q';
        original.f = 0.5f;
        original.d = 2.25;
        original.l = -9;
        Derived copy = roundTrip(original);
        assertNotSame(original, copy);
        assertEquals("mine", copy.own);
        assertEquals("base", copy.baseName);
        assertEquals(12, copy.baseCount);
        assertTrue(copy.flag);
        assertEquals(-1, copy.b);
        assertEquals(2, copy.s);
        assertEquals('q', copy.c);
        assertEquals(0.5f, copy.f);
        assertEquals(2.25, copy.d);
        assertEquals(-9, copy.l);
    }

    @Test
    void transientAndStaticFieldsAreNotCopied() {
        Node node = new Node(5);
        node.cache = 1234;
        int instancesBefore = Node.instances;
        Node copy = roundTrip(node);
        assertEquals(5, copy.value);
        assertEquals(99, copy.cache, "transient field keeps the value the no-arg constructor gave it");
        assertEquals(instancesBefore, Node.instances, "decoding uses the no-argument constructor");
    }

    @Test
    void mutableCollectionsKeepTheirClassAndContents() {
        List<Object> arrayList = new ArrayList<>(List.of(1, "a"));
        arrayList.add(null);
        assertCollection(arrayList, ArrayList.class);
        assertCollection(new LinkedList<>(List.of(1, 2, 3)), LinkedList.class);
        ArrayDeque<String> deque = new ArrayDeque<>(List.of("x", "y"));
        ArrayDeque<String> dequeCopy = roundTrip(deque);
        assertEquals(List.copyOf(deque), List.copyOf(dequeCopy));
        assertCollection(new HashSet<>(Set.of(1, 2, 3)), HashSet.class);
        assertCollection(new LinkedHashSet<>(List.of("z", "a", "m")), LinkedHashSet.class);
        assertEquals(List.of("z", "a", "m"), List.copyOf(roundTrip(new LinkedHashSet<>(List.of("z", "a", "m")))));
        assertCollection(new TreeSet<>(List.of(5, 1, 3)), TreeSet.class);

        Map<String, Integer> hashMap = new HashMap<>(Map.of("a", 1, "b", 2));
        hashMap.put(null, null);
        assertMap(hashMap, HashMap.class);
        LinkedHashMap<String, Integer> linked = new LinkedHashMap<>();
        linked.put("z", 1);
        linked.put("a", 2);
        LinkedHashMap<String, Integer> linkedCopy = roundTrip(linked);
        assertEquals(List.of("z", "a"), List.copyOf(linkedCopy.keySet()));
        assertMap(new TreeMap<>(Map.of(3, "c", 1, "a")), TreeMap.class);
        List<Integer> fixed = Arrays.asList(1, 2);
        List<Integer> fixedCopy = roundTrip(fixed);
        assertEquals(fixed, fixedCopy);
        assertEquals(fixed.getClass(), fixedCopy.getClass());
    }

    private static void assertCollection(Collection<?> value, Class<?> type) {
        Object copy = roundTrip(value);
        assertEquals(type, copy.getClass());
        assertEquals(value, copy);
    }

    private static void assertMap(Map<?, ?> value, Class<?> type) {
        Object copy = roundTrip(value);
        assertEquals(type, copy.getClass());
        assertEquals(value, copy);
    }

    @Test
    void immutableCollectionsDecodeAsImmutable() {
        for (Object value : List.<Object>of(List.of(), List.of(1), List.of(1, 2, 3), Set.of(), Set.of("a"),
            Set.of("a", "b", "c"), Map.of(), Map.of("k", 1), Map.of("a", 1, "b", 2, "c", 3),
            Collections.unmodifiableList(new ArrayList<>(List.of(1, 2))), Collections.emptyList(),
            Collections.singletonList("s"), Collections.unmodifiableSet(new LinkedHashSet<>(List.of(3, 1))),
            Collections.emptySet(), Collections.singleton(1), Collections.unmodifiableMap(new HashMap<>(Map.of(1, 2))),
            Collections.emptyMap(), Collections.singletonMap("k", "v"), List.of(1, 2, 3).subList(1, 3))) {
            Object copy = roundTrip(value);
            assertEquals(value, copy);
            if (copy instanceof List<?> list) {
                assertThrows(UnsupportedOperationException.class, () -> list.add(null), value::toString);
            } else if (copy instanceof Set<?> set) {
                assertThrows(UnsupportedOperationException.class, () -> set.add(null), value::toString);
            } else {
                assertThrows(UnsupportedOperationException.class, () -> ((Map<?, ?>) copy).put(null, null),
                    value::toString);
            }
        }
        List<Integer> withNull = Stream.of(1, null, 3).toList();
        List<Integer> withNullCopy = roundTrip(withNull);
        assertEquals(withNull, withNullCopy);
        assertThrows(UnsupportedOperationException.class, () -> withNullCopy.add(4));
    }

    @Test
    void optionalTimeAndNumbers() {
        assertEquals(Optional.empty(), roundTrip(Optional.empty()));
        assertEquals(Optional.of(List.of(1)), roundTrip(Optional.of(List.of(1))));
        Instant now = Instant.ofEpochSecond(1_700_000_000L, 123_456_789);
        assertEquals(now, roundTrip(now));
        assertEquals(Duration.ofMillis(-1500), roundTrip(Duration.ofMillis(-1500)));
        assertEquals(LocalDate.of(2025, 2, 28), roundTrip(LocalDate.of(2025, 2, 28)));
        BigInteger big = BigInteger.TWO.pow(300).negate();
        assertEquals(big, roundTrip(big));
        BigDecimal decimal = new BigDecimal("-12345.678900");
        assertEquals(decimal, roundTrip(decimal));
        assertEquals(decimal.scale(), roundTrip(decimal).scale());
        UUID uuid = UUID.randomUUID();
        assertEquals(uuid, roundTrip(uuid));
    }

    @Test
    void nestedGenericStructures() {
        Map<String, List<Map<Integer, Point[]>>> nested = new TreeMap<>();
        nested.put("first", List.of(Map.of(1, new Point[] {new Point(1, 1, "one")})));
        nested.put("second", new ArrayList<>(List.of(new HashMap<>())));
        Map<String, List<Map<Integer, Point[]>>> copy = roundTrip(nested);
        assertEquals(TreeMap.class, copy.getClass());
        assertArrayEquals(new Point[] {new Point(1, 1, "one")}, copy.get("first").getFirst().get(1));
        assertEquals(List.of(Map.of()), copy.get("second"));
        Box<Optional<int[]>> box = new Box<>(Optional.of(new int[] {9}), List.of(), Map.of());
        Box<Optional<int[]>> boxCopy = roundTrip(box);
        assertArrayEquals(new int[] {9}, boxCopy.value().orElseThrow());
    }

    @Test
    void cyclicObjectGraphRoundTrips() {
        Node a = new Node(1);
        Node b = new Node(2);
        a.next = b;
        b.next = a;
        a.payload = a;
        Node copy = roundTrip(a);
        assertEquals(1, copy.value);
        assertEquals(2, copy.next.value);
        assertSame(copy, copy.next.next, "cycle a -> b -> a is preserved");
        assertSame(copy, copy.payload, "self reference is preserved");
    }

    @Test
    void sharingOfArraysObjectsAndCollectionsIsPreserved() {
        int[] shared = {1, 2, 3};
        Node node = new Node(7);
        List<String> list = new ArrayList<>(List.of("x"));
        Object[] holder = {shared, shared, node, node, list, list, "s", "s"};
        Object[] copy = roundTrip(holder);
        assertSame(copy[0], copy[1]);
        assertSame(copy[2], copy[3]);
        assertSame(copy[4], copy[5]);
        assertNotSame(shared, copy[0]);

        Object[] selfContaining = new Object[2];
        selfContaining[0] = selfContaining;
        List<Object> selfList = new ArrayList<>();
        selfList.add(selfList);
        selfContaining[1] = selfList;
        Object[] selfCopy = roundTrip(selfContaining);
        assertSame(selfCopy, selfCopy[0]);
        List<?> selfListCopy = (List<?>) selfCopy[1];
        assertSame(selfListCopy, selfListCopy.getFirst());
    }

    @Test
    void sharingIsPreservedForManyObjectsInOneMessage() {
        // more distinct objects than the encoder keeps in its small table before it switches to a map
        int n = 20;
        Object[] holder = new Object[2 * n];
        for (int i = 0; i < n; i++) {
            holder[i] = new int[] {i};
            holder[2 * n - 1 - i] = holder[i];
        }
        Object[] copy = roundTrip(holder);
        for (int i = 0; i < n; i++) {
            assertSame(copy[i], copy[2 * n - 1 - i], "object " + i);
            assertEquals(i, ((int[]) copy[i])[0]);
            if (i > 0) {
                assertNotSame(copy[i - 1], copy[i]);
            }
        }
    }

    @Test
    void cycleThroughARecordTerminates() {
        Object[] array = new Object[1];
        Box<Object> box = new Box<>(array, List.of(), Map.of());
        array[0] = box;
        @SuppressWarnings("unchecked")
        Box<Object> copy = roundTrip(box);
        Object[] arrayCopy = (Object[]) copy.value();
        assertSame(arrayCopy, ((Box<?>) arrayCopy[0]).value(), "the array stays shared; records are values");
    }

    @Test
    void repeatedClassNamesAreWrittenOnce() {
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            points.add(new Point(i, i, null));
        }
        byte[] bytes = CodecTestSupport.encode(CODEC, points);
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        String name = Point.class.getName();
        assertEquals(text.indexOf(name), text.lastIndexOf(name), "class name appears once");
        assertTrue(bytes.length < 100 * 20 + name.length() + 64, "about 18 bytes per point: " + bytes.length);
    }

    @Test
    void argumentsShareOneTableAndReadOneByOne() throws Exception {
        int[] shared = {4, 5};
        Point point = new Point(1, 2, "p");
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        Method method = Api.class.getMethod("call", int[].class, int[].class, Point.class, Point.class);
        int end = CODEC.writeArguments(buffer, 3, new Object[] {shared, shared, point, point}, method);
        Object[] decoded = CODEC.reader(buffer, 3, end - 3).readArguments(4);
        assertSame(decoded[0], decoded[1]);
        assertEquals(point, decoded[3]);

        ValueReader oneByOne = CODEC.reader(buffer, 3, end - 3);
        Object first = oneByOne.read();
        assertSame(first, oneByOne.read());
        assertEquals(point, oneByOne.read());
        assertEquals(point, oneByOne.read());
        assertEquals(0, oneByOne.remaining());
        assertThrows(CodecException.class, () -> CODEC.reader(buffer, 3, end - 3).readArguments(3),
            "bytes left over after fewer arguments");
    }

    interface Api {
        void call(int[] a, int[] b, Point p, Point q);
    }

    @Test
    void worksOnDirectAndWrappedBuffers() {
        double[] values = {1, 2, 3, 4, 5};
        ExpandableDirectByteBuffer direct = new ExpandableDirectByteBuffer(8);
        int end = CODEC.write(direct, 5, values, "value");
        assertArrayEquals(values, (double[]) CODEC.reader(direct, 5, end - 5).read());
        byte[] copy = new byte[end];
        direct.getBytes(0, copy);
        UnsafeBuffer wrapped = new UnsafeBuffer(copy);
        assertArrayEquals(values, (double[]) CODEC.reader(wrapped, 5, end - 5).read());
        UnsafeBuffer tooSmall = new UnsafeBuffer(new byte[16]);
        assertThrows(IndexOutOfBoundsException.class, () -> CODEC.write(tooSmall, 0, values, "value"));
    }

    @Test
    void littleEndianOnTheWire() {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        int end = CODEC.write(buffer, 0, 0x01020304, "value");
        assertEquals(5, end);
        assertEquals(Tags.INT, buffer.getByte(0));
        assertEquals(0x04, buffer.getByte(1));
        assertEquals(0x01, buffer.getByte(4));
    }

    @Test
    void referenceHandlerIsAskedFirstAndTurnsReferencesBack() {
        Node exported = new Node(1);
        Map<Long, Object> proxies = new ConcurrentHashMap<>();
        Object proxy = new Object();
        proxies.put(42L, proxy);
        ReferenceHandler handler = new ReferenceHandler() {
            @Override
            public RemoteRef toRef(Object value) {
                return value == exported ? new RemoteRef(3, 42L, Runnable.class.getName()) : null;
            }

            @Override
            public Object fromRef(RemoteRef ref) {
                assertEquals(new RemoteRef(3, 42L, Runnable.class.getName()), ref);
                return proxies.get(ref.objectId());
            }
        };
        ValueCodec codec = new ValueCodec(handler, getClass().getClassLoader(), CodecLimits.DEFAULTS, CodecTestSupport.TEST_CLASSES);
        List<Object> copy = roundTrip(codec, List.of(exported, "by value"));
        assertSame(proxy, copy.get(0));
        assertEquals("by value", copy.get(1));

        byte[] bytes = CodecTestSupport.encode(codec, exported);
        CodecException e = assertThrows(CodecException.class,
            () -> CODEC.reader(new UnsafeBuffer(bytes), 0, bytes.length).read());
        assertTrue(e.getMessage().contains("no reference handler"), e.getMessage());
    }

    @Test
    void recordConstructorValidationRunsOnDecode() {
        assertEquals(new Checked(3), roundTrip(new Checked(3)));
        byte[] bytes = CodecTestSupport.encode(CODEC, new Checked(3));
        // the int component is the last four bytes: make it negative
        UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        buffer.putInt(bytes.length - 4, -5, ByteOrder.LITTLE_ENDIAN);
        CodecException e = assertThrows(CodecException.class, () -> CODEC.reader(buffer, 0, bytes.length).read());
        assertTrue(e.getMessage().contains("not positive: -5"), e.getMessage());
    }
}
