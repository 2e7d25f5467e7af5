package dev.cumulus.internal.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hostile messages a decode budget refuses: each is refused with a {@link CodecException} after a bounded amount
 * of work (asserted as work units, {@code equals} calls or estimated bytes, never as time).
 */
@Timeout(60)
class DecodeBudgetTest {

    /** Every instance has the same hash code; counts its equals calls. */
    record Collider(int id) {
        static final AtomicLong EQUALS_CALLS = new AtomicLong();

        @Override
        public int hashCode() {
            return 42;
        }

        @Override
        public boolean equals(Object other) {
            EQUALS_CALLS.incrementAndGet();
            return other instanceof Collider c && c.id == id;
        }
    }

    private static final ValueCodec CODEC = new ValueCodec(ReferenceHandler.NONE,
        DecodeBudgetTest.class.getClassLoader(), CodecLimits.DEFAULTS, CodecTestSupport.TEST_CLASSES);

    /** Encodes {@code elements} as an ArrayList, then makes the message say {@code tag} (a set kind) instead. */
    static byte[] asSet(List<?> elements, byte tag) {
        byte[] bytes = CodecTestSupport.encode(CODEC, new ArrayList<>(elements));
        assertEquals(Tags.ARRAY_LIST, bytes[0]);
        bytes[0] = tag;
        return bytes;
    }

    /** {@code levels} lists, each holding the one below twice (a back-reference): hashing the top visits 2^levels. */
    static List<Object> doublingLists(int levels) {
        List<Object> list = new ArrayList<>(List.of(1));
        for (int i = 0; i < levels; i++) {
            list = new ArrayList<>(List.of(list, list));
        }
        return list;
    }

    @Test
    void aSetOfListsThatReferToEachOtherFortyLevelsDeepIsRefusedBeforeItsHashRuns() {
        byte[] message = asSet(List.of(doublingLists(40)), Tags.HASH_SET);
        assertTrue(message.length < 500, "a small message: " + message.length + " bytes");
        ValueReader reader = CODEC.reader(new UnsafeBuffer(message), 0, message.length);
        CodecException e = assertThrows(CodecException.class, reader::read);
        assertTrue(e.getMessage().contains("CodecLimits.maxDecodeWork"), e.getMessage());
        assertTrue(reader.workSpent() < 200, "refused after reading its values only: " + reader.workSpent());
    }

    @Test
    void theSameStructureInAListDecodesSinceNothingHashesIt() {
        List<Object> decoded = CodecTestSupport.roundTrip(CODEC, doublingLists(40));
        assertEquals(2, decoded.size());
    }

    @Test
    void aSharedSubtreeCostsWhatItsHashVisitsSoModerateSharingStillDecodes() {
        Set<Object> decoded = CodecTestSupport.roundTrip(CODEC, new HashSet<>(List.of(doublingLists(12))));
        assertEquals(1, decoded.size());
    }

    @Test
    void fiftyThousandRecordsWithOneHashCodeAreRefusedAfterBoundedEqualsCalls() {
        List<Collider> colliders = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            colliders.add(new Collider(i));
        }
        for (byte tag : new byte[] {Tags.HASH_SET, Tags.LINKED_HASH_SET, Tags.UNMODIFIABLE_SET, Tags.IMMUTABLE_SET}) {
            byte[] message = asSet(colliders, tag);
            Collider.EQUALS_CALLS.set(0);
            ValueReader reader = CODEC.reader(new UnsafeBuffer(message), 0, message.length);
            CodecException e = assertThrows(CodecException.class, reader::read, "tag " + tag);
            assertTrue(e.getMessage().contains("CodecLimits.maxDecodeWork"), e.getMessage());
            long limit = CodecLimits.DEFAULTS.maxDecodeWork();
            assertTrue(reader.workSpent() <= limit, "work " + reader.workSpent());
            // each collision is charged EQUALS_WEIGHT times a Collider's structural cost (2: itself and its component),
            // so about limit / 16 equals calls ran (HashMap's tree bins call equals a little more often than once a
            // collision; immutable sets probe instead)
            long bound = limit / (2 * HashWork.EQUALS_WEIGHT) * 2;
            assertTrue(Collider.EQUALS_CALLS.get() <= bound, "equals calls " + Collider.EQUALS_CALLS.get() + " > " + bound);
        }
    }

    @Test
    void aFewCollidingKeysStillDecode() {
        List<Collider> colliders = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            colliders.add(new Collider(i));
        }
        Set<Object> decoded = CodecTestSupport.roundTrip(CODEC, new HashSet<>(colliders));
        assertEquals(500, decoded.size());
    }

    @Test
    void aSetHoldingAListThatHoldsItselfIsRefusedNotOverflowed() {
        List<Object> self = new ArrayList<>();
        self.add(self);
        byte[] message = CodecTestSupport.encode(CODEC, new ArrayList<>(List.of(self)));
        message[0] = Tags.HASH_SET;
        ValueReader reader = CODEC.reader(new UnsafeBuffer(message), 0, message.length);
        CodecException e = assertThrows(CodecException.class, reader::read);
        assertTrue(e.getMessage().contains("CodecLimits.maxDecodeWork"), e.getMessage());
    }

    @Test
    void aCycleThroughAnObjectStillBeingDecodedIsMeasuredWhenHashed() {
        List<Object> holder = new ArrayList<>();
        Set<Object> set = new HashSet<>();
        set.add(holder); // hashed while empty, as the decoder will
        holder.add(set);
        List<Object> decoded = CodecTestSupport.roundTrip(CODEC, holder);
        Set<?> decodedSet = (Set<?>) decoded.getFirst();
        assertTrue(decodedSet.iterator().next() == decoded, "the cycle is kept");
    }

    @Test
    void aListOfNullsIsRefusedByTheHeapBudgetBeforeItIsAllocated() {
        long budget = CodecLimits.defaultHeapBudget(200L << 20); // a node with a 200 MB heap
        ValueCodec codec = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(),
            CodecLimits.DEFAULTS.withMaxDecodeHeapBytes(budget), CodecTestSupport.TEST_CLASSES);
        int count = 16 << 20;
        for (byte tag : new byte[] {Tags.LINKED_LIST, Tags.HASH_SET, Tags.ARRAY_LIST}) {
            UnsafeBuffer message = new UnsafeBuffer(new byte[5 + count]); // tag, count, then count NULL tags
            message.putByte(0, tag);
            message.putInt(1, count, java.nio.ByteOrder.LITTLE_ENDIAN);
            ValueReader reader = codec.reader(message, 0, message.capacity());
            CodecException e = assertThrows(CodecException.class, reader::read, "tag " + tag);
            assertTrue(e.getMessage().contains("CodecLimits.maxDecodeHeapBytes"), e.getMessage());
            assertEquals(0, reader.heapBytesCharged(), "refused at the count, before any element");
            assertTrue(reader.workSpent() <= 1, "no element was read: " + reader.workSpent());
        }
    }

    @Test
    void manySmallValuesAreBoundedByTheWorkBudget() {
        ValueCodec codec = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(),
            CodecLimits.DEFAULTS.withMaxDecodeWork(1000), CodecTestSupport.TEST_CLASSES);
        List<Object> list = new LinkedList<>();
        for (int i = 0; i < 2000; i++) {
            list.add(null);
        }
        byte[] message = CodecTestSupport.encode(codec, list);
        ValueReader reader = codec.reader(new UnsafeBuffer(message), 0, message.length);
        assertThrows(CodecException.class, reader::read);
        assertEquals(1000, reader.workSpent());
    }

    @Test
    void theDefaultHeapBudgetIsAQuarterOfTheHeapWithinBounds() {
        assertEquals(50L << 20, CodecLimits.defaultHeapBudget(200L << 20));
        assertEquals(16L << 20, CodecLimits.defaultHeapBudget(8L << 20));
        assertEquals(1L << 30, CodecLimits.defaultHeapBudget(64L << 30));
    }
}
