package dev.cumulus.bench.hostile;

import dev.cumulus.internal.codec.CodecLimits;
import dev.cumulus.internal.codec.ReferenceHandler;
import dev.cumulus.internal.codec.ValueCodec;
import dev.cumulus.internal.transport.FrameHeaderFlyweight;
import io.aeron.protocol.HeaderFlyweight;
import io.aeron.protocol.SetupFlyweight;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Random;

/**
 * The bytes of the hostile inputs of issue 24 §2, as an attacker that knows the wire format makes them. Values the
 * encoder refuses to make (a set that would take 2^40 steps to hash, a set of colliding keys, a list whose heap cost
 * exceeds the receiver's budget) are encoded as the harmless list they are built from, and then the message's first
 * tag is changed to the tag the encoder writes for the collection named: the layout (tag, count, elements) is the same.
 */
final class HostileInputs {
    /** Levels of the back-reference bomb: hashing it visits 2^40 lists. */
    static final int BOMB_LEVELS = 40;
    /** Records with one hash code in the flooding set. */
    static final int COLLIDERS = 50_000;
    /** The declared length of the oversized chunk frame and of the oversized setup frame's term: 1 GiB. */
    static final int ONE_GIB = 1 << 30;
    /** Length of the garbage frame. */
    static final int GARBAGE_BYTES = 40;

    private static final ValueCodec CODEC = new ValueCodec(ReferenceHandler.NONE, HostileInputs.class.getClassLoader(),
        CodecLimits.DEFAULTS);

    private HostileInputs() {
    }

    /** {@code levels} lists, each holding the one below twice (a back-reference): hashing the top visits 2^levels. */
    static List<Object> doublingLists(int levels) {
        List<Object> list = new ArrayList<>(List.of(1));
        for (int i = 0; i < levels; i++) {
            list = new ArrayList<>(List.of(list, list));
        }
        return list;
    }

    /** A {@code HashSet} holding {@link #doublingLists}({@value #BOMB_LEVELS}): about 410 bytes. */
    static byte[] backReferenceBomb() {
        return retagged(new ArrayList<>(List.of(doublingLists(BOMB_LEVELS))), tagOf(new HashSet<>()));
    }

    /** A {@code HashSet} of {@value #COLLIDERS} records with one hash code. */
    static byte[] collidingSet() {
        List<Target.Collider> colliders = new ArrayList<>(COLLIDERS);
        for (int i = 0; i < COLLIDERS; i++) {
            colliders.add(new Target.Collider(i));
        }
        return retagged(colliders, tagOf(new HashSet<>()));
    }

    /**
     * A {@code LinkedList} of {@code count} nulls: one byte per element on the wire, a list node each on the heap, so
     * a message of a few MB asks for more heap than the receiver's per-message budget.
     */
    static byte[] nullsList(int count) {
        return retagged(new ArrayList<>(Collections.nCopies(count, null)), tagOf(new LinkedList<>()));
    }

    /** A value of a record that no exported signature names ({@link Stranger}). */
    static byte[] notOnTheAllowList() {
        return encode(new Stranger(7));
    }

    /** A chunk frame from {@code source} declaring a message of 1 GiB, with 8 bytes of it. */
    static UnsafeBuffer oversizedChunk(int source, int runTag, long messageId) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[FrameHeaderFlyweight.CHUNK_LENGTH + 8]);
        new FrameHeaderFlyweight().wrap(b, 0).header(FrameHeaderFlyweight.CHUNK, source, runTag)
            .chunk(messageId, ONE_GIB, 0);
        return b;
    }

    /**
     * {@value #GARBAGE_BYTES} bytes: a whole-message header from {@code source} (so the frame passes the transport's
     * checks and reaches the call decoder) and random bytes after it.
     */
    static UnsafeBuffer garbage(int source, int runTag, Random random) {
        byte[] bytes = new byte[GARBAGE_BYTES];
        random.nextBytes(bytes);
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        new FrameHeaderFlyweight().wrap(b, 0).header(FrameHeaderFlyweight.WHOLE, source, runTag);
        return b;
    }

    /** A sealed whole frame from {@code source} whose counter and tag are made up (the attacker has no secret). */
    static UnsafeBuffer forgedSealed(int source, int runTag, long counter, Random random) {
        int length = FrameHeaderFlyweight.SEALED_WHOLE_LENGTH + 16;
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        UnsafeBuffer b = new UnsafeBuffer(bytes);
        new FrameHeaderFlyweight().wrap(b, 0).header(FrameHeaderFlyweight.SEALED_WHOLE, source, runTag);
        b.putLong(FrameHeaderFlyweight.WHOLE_LENGTH, counter, ByteOrder.LITTLE_ENDIAN);
        return b;
    }

    /** An Aeron setup frame for {@code streamId} declaring a 1 GiB term (Aeron's largest). */
    static byte[] oversizedSetup(int streamId, int sessionId) {
        byte[] bytes = new byte[SetupFlyweight.HEADER_LENGTH];
        SetupFlyweight setup = new SetupFlyweight(new UnsafeBuffer(bytes));
        setup.frameLength(SetupFlyweight.HEADER_LENGTH);
        setup.version(HeaderFlyweight.CURRENT_VERSION).flags((short) 0).headerType(HeaderFlyweight.HDR_TYPE_SETUP);
        setup.termOffset(0).sessionId(sessionId).streamId(streamId).initialTermId(0).activeTermId(0)
            .termLength(ONE_GIB).mtuLength(1408).ttl(0);
        return bytes;
    }

    /** The tag the encoder writes first for {@code sample}. */
    private static byte tagOf(Object sample) {
        return encode(sample)[0];
    }

    private static byte[] retagged(List<?> elements, byte tag) {
        byte[] bytes = encode(elements);
        byte listTag = tagOf(new ArrayList<>());
        if (bytes[0] != listTag) {
            throw new IllegalStateException("an ArrayList no longer encodes with tag " + listTag + " first");
        }
        bytes[0] = tag;
        return bytes;
    }

    private static byte[] encode(Object value) {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        int end = CODEC.write(buffer, 0, value, "a hostile input");
        byte[] bytes = new byte[end];
        buffer.getBytes(0, bytes);
        return bytes;
    }
}
