package dev.cumulus.internal.codec;

import static dev.cumulus.internal.codec.CodecTestSupport.CODEC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.NotTransferableException;
import dev.cumulus.Transferable;
import java.io.Serializable;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ValueCodecRefusalTest {

    @Transferable
    static class Job {
        int size = 3;
        ThreadPoolExecutor pool;
    }

    interface Worker {
        int compute(String name, Job job);
    }

    static class SerialThing implements Serializable {
        private static final long serialVersionUID = 1L;
        int x;
    }

    record Wrap(Object inner) {
    }

    @Transferable
    static class NoDefaultConstructor {
        final int x;

        NoDefaultConstructor(int x) {
            this.x = x;
        }
    }

    private static String refuse(Object value) {
        return assertThrows(NotTransferableException.class,
            () -> CODEC.write(new ExpandableArrayBuffer(), 0, value, "result of Worker.compute")).getMessage();
    }

    @Test
    void argumentMessageNamesMethodFieldAndType() throws Exception {
        Method compute = Worker.class.getMethod("compute", String.class, Job.class);
        Job job = new Job();
        job.pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        try {
            String message = assertThrows(NotTransferableException.class, () -> CODEC.writeArguments(
                new ExpandableArrayBuffer(), 0, new Object[] {"name", job}, compute)).getMessage();
            assertEquals("argument 2 of Worker.compute -> field 'pool' -> java.util.concurrent.ThreadPoolExecutor"
                + " is not transferable: pass primitives, strings, arrays, records, enums, collections of those,"
                + " or annotate the class @Transferable", message);
        } finally {
            job.pool.shutdownNow();
        }
        job.pool = null;
        CODEC.writeArguments(new ExpandableArrayBuffer(), 0, new Object[] {"name", job}, compute);
    }

    @Test
    void plainObjectIsRefused() {
        assertEquals("result of Worker.compute -> java.lang.Object is not transferable: "
            + TypeInfo.DEFAULT_ADVICE, refuse(new Object()));
    }

    @Test
    void serializableDoesNotMakeAClassTransferable() {
        String message = refuse(new SerialThing());
        assertTrue(message.startsWith("result of Worker.compute -> " + SerialThing.class.getName()
            + " is not transferable"), message);
        assertTrue(message.contains("java.io.Serializable does not make a class transferable"), message);
    }

    @Test
    void pathGoesThroughCollectionsMapsRecordsArraysAndOptionals() {
        assertTrue(refuse(List.of(1, new Object())).startsWith(
            "result of Worker.compute -> element 1 -> java.lang.Object is not transferable"));
        assertTrue(refuse(Map.of("key", new Wrap(new StringBuilder()))).startsWith(
            "result of Worker.compute -> value of entry 0 (key \"key\") -> component 'inner' ->"
                + " java.lang.StringBuilder is not transferable"));
        assertTrue(refuse(Map.of(new Object(), 1)).startsWith(
            "result of Worker.compute -> key of entry 0 -> java.lang.Object is not transferable"));
        assertTrue(refuse(new Object[] {1, 2, new Object[] {new Thread[0]}}).startsWith(
            "result of Worker.compute -> element 2 -> element 0 -> java.lang.Thread[] is not transferable: its"
                + " element type java.lang.Thread is not transferable"));
        assertTrue(refuse(Optional.of(new Object())).startsWith(
            "result of Worker.compute -> Optional value -> java.lang.Object is not transferable"));
    }

    @Test
    void sortedCollectionsWithAComparatorAreRefused() {
        TreeMap<String, Integer> map = new TreeMap<>(Comparator.reverseOrder());
        assertTrue(refuse(map).startsWith("result of Worker.compute -> java.util.TreeMap with a comparator is not"
            + " transferable: only natural ordering"), refuse(map));
        TreeSet<String> set = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        assertTrue(refuse(set).contains("java.util.TreeSet with a comparator"));
    }

    @Test
    void subclassesOfJdkCollectionsAreRefused() {
        List<String> custom = new ArrayList<>() {
            private static final long serialVersionUID = 1L;
        };
        assertTrue(refuse(custom).contains("is not transferable"));
    }

    @Test
    void transferableWithoutNoArgumentConstructorIsRefused() {
        String message = refuse(new NoDefaultConstructor(1));
        assertTrue(message.contains(NoDefaultConstructor.class.getName() + " is not transferable"), message);
        assertTrue(message.contains("no no-argument constructor"), message);
    }

    @Test
    void senderEnforcesLimits() {
        ValueCodec small = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(),
            new CodecLimits(1024, 100, 10, 8, 200, 10, 4, 1 << 20, 1 << 20), CodecTestSupport.TEST_CLASSES);
        String tooBig = assertThrows(NotTransferableException.class,
            () -> small.write(new ExpandableArrayBuffer(), 0, new byte[2000], "big")).getMessage();
        assertTrue(tooBig.startsWith("big -> byte[] is not transferable: the message would exceed"
            + " CodecLimits.maxMessageBytes (1024 bytes)"), tooBig);
        String tooLong = assertThrows(NotTransferableException.class,
            () -> small.write(new ExpandableArrayBuffer(), 0, "x".repeat(101), "s")).getMessage();
        assertTrue(tooLong.contains("more than CodecLimits.maxStringChars (100)"), tooLong);
        String tooMany = assertThrows(NotTransferableException.class,
            () -> small.write(new ExpandableArrayBuffer(), 0, new ArrayList<>(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9,
                10, 11)), "list")).getMessage();
        assertTrue(tooMany.contains("more than CodecLimits.maxElements (10)"), tooMany);
        Object deep = new Object[0];
        for (int i = 0; i < 9; i++) {
            deep = new Object[] {deep};
        }
        Object finalDeep = deep;
        String tooDeep = assertThrows(NotTransferableException.class,
            () -> small.write(new ExpandableArrayBuffer(), 0, finalDeep, "deep")).getMessage();
        assertTrue(tooDeep.contains("nested more than CodecLimits.maxDepth (8)"), tooDeep);
        assertTrue(tooDeep.startsWith("deep -> element 0 -> element 0"), tooDeep);
    }

    @Test
    void wrongArgumentCountIsAProgrammingError() throws Exception {
        Method compute = Worker.class.getMethod("compute", String.class, Job.class);
        assertThrows(IllegalArgumentException.class,
            () -> CODEC.writeArguments(new ExpandableArrayBuffer(), 0, new Object[] {"only one"}, compute));
    }
}
