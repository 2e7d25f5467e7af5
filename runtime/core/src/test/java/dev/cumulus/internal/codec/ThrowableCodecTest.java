package dev.cumulus.internal.codec;

import static dev.cumulus.internal.codec.CodecTestSupport.CODEC;
import dev.cumulus.RemoteCallException;
import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.RemoteCallException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ThrowableCodecTest {

    static final AtomicInteger NOT_ALLOWED_CONSTRUCTED = new AtomicInteger();

    public static class AppFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public AppFailure(String message) {
            super(message);
        }
    }

    public static class NoStringConstructor extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public NoStringConstructor(int code) {
            super("code " + code);
        }
    }

    /** A checked exception nobody declares: must never be instantiated at the receiver. */
    public static class NotAllowed extends Exception {
        private static final long serialVersionUID = 1L;

        public NotAllowed(String message) {
            super(message);
            NOT_ALLOWED_CONSTRUCTED.incrementAndGet();
        }
    }

    private static Throwable transfer(Throwable t, Class<?>... declared) {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        int end = CODEC.writeThrowable(buffer, 4, t);
        ValueReader reader = CODEC.reader(buffer, 4, end - 4);
        Throwable local = reader.readThrowable(declared);
        assertEquals(end, reader.position());
        return local;
    }

    @Test
    void javaUncheckedExceptionIsRecreatedWithRemoteTrace() {
        IllegalArgumentException remote = new IllegalArgumentException("bad size");
        Throwable local = transfer(remote);
        assertInstanceOf(IllegalArgumentException.class, local);
        assertEquals("bad size", local.getMessage());
        assertArrayEquals(remote.getStackTrace(), local.getStackTrace());
        assertInstanceOf(StackOverflowError.class, transfer(new StackOverflowError("deep")));
        AssertionError failedAssert = assertInstanceOf(AssertionError.class,
            transfer(new AssertionError("expected 3")), "through its (Object) constructor");
        assertEquals("expected 3", failedAssert.getMessage());
        assertNull(assertInstanceOf(AssertionError.class, transfer(new AssertionError())).getMessage());
    }

    @Test
    void declaredCheckedExceptionsAndTheirSubclassesAreRecreated() {
        assertInstanceOf(IOException.class, transfer(new IOException("disk"), IOException.class));
        Throwable sub = transfer(new FileNotFoundException("/x"), IOException.class);
        assertInstanceOf(FileNotFoundException.class, sub);
        assertEquals("/x", sub.getMessage());
    }

    @Test
    void undeclaredCheckedExceptionBecomesRemoteCallException() {
        IOException remote = new IOException("disk full");
        Throwable local = transfer(remote, TimeoutException.class);
        RemoteCallException call = assertInstanceOf(RemoteCallException.class, local);
        assertTrue(call.getMessage().contains("java.io.IOException: disk full"), call.getMessage());
        assertTrue(call.getMessage().contains("does not declare it"), call.getMessage());
        RemoteThrowable cause = assertInstanceOf(RemoteThrowable.class, call.getCause());
        assertEquals("java.io.IOException", cause.remoteClassName());
        assertEquals("disk full", cause.getMessage());
        assertEquals("java.io.IOException: disk full", cause.toString());
        assertArrayEquals(remote.getStackTrace(), cause.getStackTrace());
    }

    @Test
    void aRegisteredApplicationRuntimeExceptionIsRecreated() {
        CODEC.allowList().allow(AppFailure.class);
        Throwable local = transfer(new AppFailure("oops"));
        assertInstanceOf(AppFailure.class, local);
        assertEquals("oops", local.getMessage());
    }

    /** Thrown here, so initialised here; its bytes are then renamed to {@link UnregisteredB}'s. */
    public static class UnregisteredA extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public UnregisteredA(String message) {
            super(message);
        }
    }

    /** Counts {@link UnregisteredB}'s initialisations (a field of its own would initialise it when read). */
    static final AtomicInteger UNREGISTERED_B_INITIALISED = new AtomicInteger();

    /** An application exception no signature declares and nobody registered: never initialised at the receiver. */
    public static class UnregisteredB extends RuntimeException {
        private static final long serialVersionUID = 1L;

        static {
            UNREGISTERED_B_INITIALISED.incrementAndGet();
        }

        public UnregisteredB(String message) {
            super(message);
        }
    }

    @Test
    void anUnregisteredApplicationRuntimeExceptionArrivesAsARemoteCallExceptionAndIsNotInitialised() {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        int end = CODEC.writeThrowable(buffer, 0, new UnregisteredA("no"));
        byte[] bytes = new byte[end];
        buffer.getBytes(0, bytes);
        String encoded = new String(bytes, StandardCharsets.ISO_8859_1);
        assertTrue(encoded.contains("UnregisteredA"), "the class name is in the message");
        byte[] renamed = encoded.replace("UnregisteredA", "UnregisteredB").getBytes(StandardCharsets.ISO_8859_1);
        Throwable local = CODEC.reader(new UnsafeBuffer(renamed), 0, renamed.length).readThrowable(new Class<?>[0]);
        assertInstanceOf(RemoteCallException.class, local);
        assertTrue(local.getMessage().contains("Transfers.allow(UnregisteredB.class)"), local.getMessage());
        assertEquals(0, UNREGISTERED_B_INITIALISED.get(), "the receiver never initialised the class a message named");
    }

    @Test
    void exceptionWithoutStringConstructorBecomesRemoteCallException() {
        CODEC.allowList().allow(NoStringConstructor.class);
        RemoteCallException call = assertInstanceOf(RemoteCallException.class,
            transfer(new NoStringConstructor(7)));
        assertTrue(call.getMessage().contains(NoStringConstructor.class.getName() + ": code 7"), call.getMessage());
        assertTrue(call.getMessage().contains("no public (String) constructor"), call.getMessage());
    }

    @Test
    void undeclaredCheckedApplicationExceptionIsNeverInstantiated() {
        NotAllowed remote = new NotAllowed("x");
        int before = NOT_ALLOWED_CONSTRUCTED.get();
        assertInstanceOf(RemoteCallException.class, transfer(remote));
        assertEquals(before, NOT_ALLOWED_CONSTRUCTED.get());
        assertInstanceOf(NotAllowed.class, transfer(remote, Exception.class), "declared via a supertype");
    }

    @Test
    void unknownClassBecomesRemoteCallException() {
        StackTraceElement[] frames = {new StackTraceElement("com.example.Far", "run", "Far.java", 12)};
        RemoteThrowable remote = new RemoteThrowable("com.example.Missing", "gone", frames, null);
        RemoteCallException call = assertInstanceOf(RemoteCallException.class, transfer(remote));
        assertTrue(call.getMessage().contains("com.example.Missing: gone"), call.getMessage());
        assertTrue(call.getMessage().contains("not available on this node"), call.getMessage());
        assertArrayEquals(frames, call.getCause().getStackTrace());
    }

    @Test
    void causeChainIsCarried() {
        IllegalStateException remote = new IllegalStateException("outer",
            new IllegalArgumentException("middle", new IOException("inner")));
        Throwable local = transfer(remote);
        assertInstanceOf(IllegalStateException.class, local);
        assertInstanceOf(IllegalArgumentException.class, local.getCause());
        assertEquals("middle", local.getCause().getMessage());
        RemoteThrowable inner = assertInstanceOf(RemoteThrowable.class, local.getCause().getCause());
        assertEquals("java.io.IOException", inner.remoteClassName());
        assertNull(inner.getCause());
    }

    @Test
    void causeChainAndFramesAreBounded() {
        Throwable deep = new IllegalStateException("root");
        for (int i = 0; i < 40; i++) {
            deep = new IllegalStateException("level " + i, deep);
        }
        Throwable local = transfer(deep);
        int depth = 0;
        for (Throwable t = local; t != null; t = t.getCause()) {
            depth++;
        }
        assertEquals(CodecLimits.DEFAULTS.maxCauseDepth(), depth);

        IllegalStateException manyFrames = new IllegalStateException("frames");
        StackTraceElement frame = new StackTraceElement("a.B", "c", null, -1);
        StackTraceElement[] frames = new StackTraceElement[5000];
        Arrays.fill(frames, frame);
        manyFrames.setStackTrace(frames);
        assertEquals(CodecLimits.DEFAULTS.maxStackFrames(), transfer(manyFrames).getStackTrace().length);
    }

    @Test
    void selfCausedChainTerminates() {
        CODEC.allowList().allow(SelfCaused.class);
        Throwable local = transfer(new SelfCaused("loop"));
        assertInstanceOf(SelfCaused.class, local);
        assertEquals("loop", local.getMessage());
    }

    public static class SelfCaused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public SelfCaused(String message) {
            super(message);
        }

        @Override
        public synchronized Throwable getCause() {
            return this;
        }
    }

    @Test
    void aMessageLongerThanAStringMayBeArrivesCutAndSaysSo() {
        CodecLimits d = CodecLimits.DEFAULTS;
        ValueCodec small = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(), new CodecLimits(
            d.maxMessageBytes(), 200, d.maxElements(), d.maxDepth(), d.maxClassNameLength(), d.maxStackFrames(),
            d.maxCauseDepth(), d.maxDecodeWork(), d.maxDecodeHeapBytes()));
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        int end = small.writeThrowable(buffer, 4, new IllegalStateException("x".repeat(1_000)));
        Throwable local = small.reader(buffer, 4, end - 4).readThrowable(new Class<?>[0]);
        String message = local.getMessage();
        assertInstanceOf(IllegalStateException.class, local);
        assertEquals(200, message.length(), message);
        assertTrue(message.startsWith("xxx") && message.endsWith("(cut: the message had 1000 chars, more than a "
            + "message carries)"), message);
        assertEquals("... (cut: t", Encoder.cut("y".repeat(50), 11), "a tiny limit keeps what fits of the note");
    }
}
