package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.RemoteRef;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bytes off the network into {@link RpcEngine#onData}: a message too short for its header, or of no RPC type, is
 * dropped; a call whose header is whole but whose arguments do not decode is answered with an error; an answer to no
 * pending call is dropped. Nothing of it throws where it is polled, and the engine serves good calls afterwards.
 */
@Timeout(30)
class RpcHostileInputTest {
    public interface Echo {
        String echo(String s);
    }

    /** Every instance has the same hash code. */
    public record Collider(int id) {
        @Override
        public int hashCode() {
            return 42;
        }
    }

    public interface Counter {
        int count(java.util.Collection<Object> values);

        int countColliders(java.util.Collection<Collider> values);
    }

    private static final Method ECHO;
    private static final Method COUNT;
    private static final Method COUNT_COLLIDERS;

    static {
        try {
            ECHO = Echo.class.getMethod("echo", String.class);
            COUNT = Counter.class.getMethod("count", java.util.Collection.class);
            COUNT_COLLIDERS = Counter.class.getMethod("countColliders", java.util.Collection.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** What the engine under test sends: its answers. */
    private final BlockingQueue<byte[]> answers = new LinkedBlockingQueue<>();
    /** What the calling engine sends: its calls. */
    private final BlockingQueue<byte[]> calls = new LinkedBlockingQueue<>();
    private final ClassLoader loader = getClass().getClassLoader();
    private final RpcEngine caller = new RpcEngine(0, 2, (to, buf, off, len) -> calls.add(copy(buf, off, len)),
        loader, 0);
    private final RpcEngine server = new RpcEngine(1, 2, (to, buf, off, len) -> answers.add(copy(buf, off, len)),
        loader, 0);

    @AfterEach
    void close() {
        caller.close();
        server.close();
    }

    @Test
    void cutCallsAreDroppedOrAnsweredWithAnErrorAndGoodCallsStillWork() throws Throwable {
        RemoteRef ref = server.export((Echo) s -> s + "!", Echo.class, "echo");
        PendingCall pending = caller.start(ref, "echo", ECHO, MethodIds.idOf(ECHO),
            new Object[] {"a longer argument"}, false, null);
        byte[] call = calls.take();
        for (int n = 0; n < CallHeaderFlyweight.LENGTH; n++) {
            server.onData(0, cut(call, n), 0, n); // shorter than a call's header: dropped
        }
        for (int n = CallHeaderFlyweight.LENGTH; n < call.length; n++) {
            server.onData(0, cut(call, n), 0, n); // a whole header, cut arguments: an error answers it
            byte[] answer = answers.poll(10, TimeUnit.SECONDS);
            assertNotNull(answer, "no answer to a call cut at " + n);
            ReplyHeaderFlyweight header = new ReplyHeaderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(answer), 0);
            assertEquals(ReplyHeaderFlyweight.ERROR, header.type(), "the answer to a call cut at " + n);
            assertEquals(pending.callId, header.callId());
        }
        server.onData(0, new UnsafeBuffer(call), 0, call.length);
        byte[] reply = answers.poll(10, TimeUnit.SECONDS);
        assertNotNull(reply, "no reply to the whole call");
        for (int n = 0; n < ReplyHeaderFlyweight.LENGTH; n++) {
            caller.onData(1, cut(reply, n), 0, n); // shorter than an answer's header: dropped
        }
        assertFalse(pending.reply.isDone(), "a cut header was taken for the reply");
        caller.onData(1, new UnsafeBuffer(reply), 0, reply.length);
        assertEquals("a longer argument!", caller.await(pending, 10_000_000_000L));
    }

    @Test
    void aReplyCutInItsValueFailsTheCallWithAClearException() throws Throwable {
        RemoteRef ref = server.export((Echo) s -> s, Echo.class, "echo");
        int length = -1;
        for (int n = ReplyHeaderFlyweight.LENGTH; length < 0 || n < length; n++) {
            PendingCall pending = caller.start(ref, "echo", ECHO, MethodIds.idOf(ECHO),
                new Object[] {"some text"}, false, null);
            byte[] call = calls.take();
            server.onData(0, new UnsafeBuffer(call), 0, call.length);
            byte[] reply = answers.poll(10, TimeUnit.SECONDS);
            assertNotNull(reply, "no reply");
            length = reply.length;
            caller.onData(1, cut(reply, n), 0, n);
            int at = n;
            CumulusException e = assertThrows(CumulusException.class, () -> caller.await(pending, 10_000_000_000L),
                "a reply cut at " + at);
            assertNotNull(e.getMessage());
        }
    }

    @Test
    void randomMessagesAndAnswersToNoCallNeverThrowWherePolled() throws Throwable {
        server.export((Echo) s -> s, Echo.class, "echo");
        server.onOneWayFailure(reason -> { }); // a random call id of 0 (one-way) would report its failure here
        Random random = new Random(17);
        int answersDue = 0;
        for (int i = 0; i < 5_000; i++) {
            byte[] junk = new byte[random.nextInt(64)];
            random.nextBytes(junk);
            if (junk.length > 0) {
                junk[0] = (byte) (1 + random.nextInt(4)); // mostly RPC types: their headers and bodies are random
            }
            server.onData(0, new UnsafeBuffer(junk), 0, junk.length);
            caller.onData(1, new UnsafeBuffer(junk), 0, junk.length);
            CallHeaderFlyweight header = new CallHeaderFlyweight().wrap((DirectBuffer) new UnsafeBuffer(junk), 0);
            if (header.validate(junk.length) && header.callId() != RpcEngine.ONE_WAY) {
                answersDue++;
            }
        }
        for (int k = 0; k < answersDue; k++) { // a random call names no object here: an error answers it
            byte[] answer = answers.poll(10, TimeUnit.SECONDS);
            assertNotNull(answer, "answer " + k + " of " + answersDue + " did not come");
            assertEquals(ReplyHeaderFlyweight.ERROR, answer[0]);
        }
    }

    /**
     * Calls whose arguments are hostile sets (lists sharing each other 40 levels deep, 50,000 records of one hash
     * code) are answered with an error naming the decode budget, three times over, and the engine serves a good call
     * afterwards.
     */
    @Test
    void callsWithHostileSetsAreAnsweredWithAnErrorAndTheEngineStillServes() throws Throwable {
        Counter counter = new Counter() {
            @Override
            public int count(java.util.Collection<Object> values) {
                return values.size();
            }

            @Override
            public int countColliders(java.util.Collection<Collider> values) {
                return values.size();
            }
        };
        RemoteRef counterRef = server.export(counter, Counter.class, "counter");
        RemoteRef echoRef = server.export((Echo) s -> s + "!", Echo.class, "echo");
        java.util.List<Object> doubling = new java.util.ArrayList<>(java.util.List.of(1));
        for (int i = 0; i < 40; i++) {
            doubling = new java.util.ArrayList<>(java.util.List.of(doubling, doubling));
        }
        java.util.List<Collider> colliders = new java.util.ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            colliders.add(new Collider(i));
        }
        for (int round = 0; round < 3; round++) {
            for (Object[] hostile : new Object[][] {
                {COUNT, new java.util.ArrayList<>(java.util.List.of(doubling))}, {COUNT_COLLIDERS, colliders}}) {
                PendingCall pending = caller.start(counterRef, "count", (Method) hostile[0],
                    MethodIds.idOf((Method) hostile[0]), new Object[] {hostile[1]}, false, null);
                byte[] call = calls.take();
                assertEquals(32, call[CallHeaderFlyweight.LENGTH], "an ArrayList (tag 32) as sent");
                call[CallHeaderFlyweight.LENGTH] = 35; // now a HashSet: the server hashes its elements
                server.onData(0, new UnsafeBuffer(call), 0, call.length);
                byte[] answer = answers.poll(30, TimeUnit.SECONDS);
                assertNotNull(answer, "no answer to a hostile call");
                assertEquals(ReplyHeaderFlyweight.ERROR, answer[0]);
                caller.onData(1, new UnsafeBuffer(answer), 0, answer.length);
                CumulusException e = assertThrows(CumulusException.class, () -> caller.await(pending, 30_000_000_000L));
                assertTrue(String.valueOf(e.getMessage()).contains("CodecLimits.maxDecodeWork"), e.getMessage());
            }
        }
        PendingCall good = caller.start(echoRef, "echo", ECHO, MethodIds.idOf(ECHO),
            new Object[] {"still here"}, false, null);
        byte[] call = calls.take();
        server.onData(0, new UnsafeBuffer(call), 0, call.length);
        byte[] reply = answers.poll(30, TimeUnit.SECONDS);
        assertNotNull(reply);
        caller.onData(1, new UnsafeBuffer(reply), 0, reply.length);
        assertEquals("still here!", caller.await(good, 30_000_000_000L));
    }

    private static UnsafeBuffer cut(byte[] message, int n) {
        return new UnsafeBuffer(Arrays.copyOf(message, n)); // ends where the message does: no read past it
    }

    private static byte[] copy(DirectBuffer buffer, int offset, int length) {
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }
}
