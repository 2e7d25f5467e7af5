package dev.cumulus.internal.singlevm;

import dev.cumulus.CumulusException;
import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JDK exceptions in an {@link ObjectImage} entry ({@link ImageCodec}'s {@code THROWABLE}): encoded by value and
 * rebuilt as an equal exception of the same class (message, cause chain, stack trace, suppressed exceptions); within
 * the bounds of {@link ThrowableText}; a class without a usable constructor becomes a RuntimeException naming it;
 * a text naming a class that is missing or no exception, or breaking the bounds, is refused with a message saying so.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ThrowableValueTest {
    @Test
    void aJdkExceptionMovesByValueWithItsCauseChainSuppressedExceptionsAndStackTrace() {
        onOneNode(space -> {
            IllegalStateException e = new IllegalStateException("outer", new ArithmeticException("inner"));
            e.addSuppressed(new UnsupportedOperationException("suppressed"));
            Throwable back = roundTrip(space, e);
            assertNotSame(e, back);
            assertSame(IllegalStateException.class, back.getClass());
            assertEquals("outer", back.getMessage());
            assertSame(ArithmeticException.class, back.getCause().getClass());
            assertEquals("inner", back.getCause().getMessage());
            assertArrayEquals(shown(e.getStackTrace()), shown(back.getStackTrace()));
            assertArrayEquals(shown(e.getCause().getStackTrace()), shown(back.getCause().getStackTrace()));
            assertEquals(1, back.getSuppressed().length);
            assertEquals("suppressed", back.getSuppressed()[0].getMessage());
            assertEquals(e.toString(), back.toString());
        });
    }

    /**
     * One JDK exception met twice in a text (the cause of one exception and suppressed in another, as a shared
     * failure often is) arrives as one exception in both places; it used to be dropped the second time.
     */
    @Test
    void aJdkExceptionMetTwiceArrivesAsOneExceptionInBothPlaces() {
        onOneNode(space -> {
            ArithmeticException shared = new ArithmeticException("shared");
            IllegalStateException first = new IllegalStateException("first", shared);
            IllegalArgumentException second = new IllegalArgumentException("second");
            second.addSuppressed(shared);
            first.addSuppressed(second);
            Throwable back = roundTrip(space, first);
            Throwable cause = back.getCause();
            assertEquals("shared", cause.getMessage());
            Throwable secondBack = back.getSuppressed()[0];
            assertEquals(1, secondBack.getSuppressed().length);
            assertSame(cause, secondBack.getSuppressed()[0]);
        });
    }

    /** A cycle of JDK exceptions (each the other's cause) keeps its shape: the cycle, not a cut chain. */
    @Test
    void aCauseCycleOfJdkExceptionsKeepsItsShape() {
        onOneNode(space -> {
            IllegalStateException p = new IllegalStateException("p");
            IllegalArgumentException q = new IllegalArgumentException("q");
            p.initCause(q);
            q.initCause(p);
            Throwable back = roundTrip(space, p);
            assertEquals("q", back.getCause().getMessage());
            assertSame(back, back.getCause().getCause());
        });
    }

    /**
     * A cause cycle through an exception that can only be made with its cause ({@code UncheckedIOException}) keeps its
     * shape too: it is made with a stand-in cause, which the real one replaces (the chain used to end at the
     * {@code IOException}, its cause lost).
     */
    @Test
    void aCauseCycleThroughAnExceptionMadeOnlyWithItsCauseKeepsItsShape() {
        onOneNode(space -> {
            IOException io = new IOException("io");
            UncheckedIOException u = new UncheckedIOException("u", io);
            io.initCause(u);
            Throwable back = roundTrip(space, u);
            assertSame(UncheckedIOException.class, back.getClass());
            assertEquals("io", back.getCause().getMessage());
            assertSame(back, back.getCause().getCause());
            Throwable ioBack = roundTrip(space, io);
            assertSame(IOException.class, ioBack.getClass());
            assertSame(ioBack, ioBack.getCause().getCause());
        });
    }

    @Test
    void aCauseNotSetYetCanStillBeSetAfterTheMove() {
        onOneNode(space -> {
            Throwable back = roundTrip(space, new IllegalArgumentException("no cause yet"));
            assertNull(back.getCause());
            back.initCause(new ArithmeticException("later"));
            assertEquals("later", back.getCause().getMessage());
            Throwable none = roundTrip(space, new IllegalArgumentException("no cause", null));
            assertThrows(IllegalStateException.class, () -> none.initCause(new ArithmeticException()));
        });
    }

    @Test
    void longChainsTracesAndMessagesAreCutToTheBounds() {
        onOneNode(space -> {
            Throwable chain = new RuntimeException("0");
            for (int i = 1; i < 40; i++) {
                chain = new RuntimeException(String.valueOf(i), chain);
            }
            int depth = 0;
            for (Throwable t = roundTrip(space, chain); t != null; t = t.getCause()) {
                depth++;
            }
            assertEquals(ThrowableText.MAX_DEPTH + 1, depth);

            RuntimeException big = new RuntimeException("x".repeat(ThrowableText.MAX_MESSAGE + 10));
            StackTraceElement frame = new StackTraceElement("a.B", "m", "B.java", 7);
            StackTraceElement[] frames = new StackTraceElement[ThrowableText.MAX_FRAMES + 500];
            java.util.Arrays.fill(frames, frame);
            big.setStackTrace(frames);
            Throwable back = roundTrip(space, big);
            assertEquals(ThrowableText.MAX_MESSAGE, back.getMessage().length());
            assertEquals(ThrowableText.MAX_FRAMES, back.getStackTrace().length);
            assertEquals(frame, back.getStackTrace()[0]);
        });
    }

    @Test
    void aClassWithoutAUsableConstructorBecomesARuntimeExceptionNamingIt() {
        onOneNode(space -> {
            IOException io = new IOException("disk");
            Throwable back = roundTrip(space, (Throwable) new java.time.format.DateTimeParseException("bad date",
                "2026-13-01", 5).initCause(io));
            assertSame(RuntimeException.class, back.getClass());
            assertEquals("java.time.format.DateTimeParseException: bad date", back.getMessage());
            assertSame(IOException.class, back.getCause().getClass());
            assertEquals("disk", back.getCause().getMessage());
        });
    }

    @Test
    void aClassMadeWithItsCausesOwnTypeKeepsItsClass() {
        onOneNode(space -> {
            IOException io = new IOException("disk");
            Throwable back = roundTrip(space, new UncheckedIOException("read failed", io));
            assertSame(UncheckedIOException.class, back.getClass()); // (String, IOException)
            assertEquals("read failed", back.getMessage());
            assertSame(IOException.class, back.getCause().getClass());
            assertEquals("disk", back.getCause().getMessage());
        });
    }

    @Test
    void aClassThatIsMissingOrNoExceptionIsRefused() {
        onOneNode(space -> {
            CumulusException missing = assertThrows(CumulusException.class,
                () -> decode(space, "V15:no.such.Failure-0;N0;"));
            assertTrue(missing.getMessage().startsWith("field f of test holds an exception this node cannot rebuild: "
                + "node 0 cannot load class no.such.Failure"), missing.getMessage());
            CumulusException string = assertThrows(CumulusException.class,
                () -> decode(space, "V16:java.lang.String-0;N0;"));
            assertEquals("field f of test holds an exception this node cannot rebuild: java.lang.String is not a JDK "
                + "exception class", string.getMessage());
        });
    }

    @Test
    void aTextBreakingTheBoundsIsRefused() {
        onOneNode(space -> {
            CumulusException frames = assertThrows(CumulusException.class,
                () -> decode(space, "V26:java.lang.RuntimeException-5000;N0;"));
            assertTrue(frames.getMessage().contains("5000 frames (at most 1024)"), frames.getMessage());
            String deep = "V26:java.lang.RuntimeException-0;".repeat(ThrowableText.MAX_DEPTH + 2) + "N"
                + "0;".repeat(ThrowableText.MAX_DEPTH + 2);
            CumulusException nested = assertThrows(CumulusException.class, () -> decode(space, deep));
            assertTrue(nested.getMessage().contains("nested more than 16 deep"), nested.getMessage());
            CumulusException trailing = assertThrows(CumulusException.class,
                () -> decode(space, "V26:java.lang.RuntimeException-0;N0;junk"));
            assertTrue(trailing.getMessage().contains("text after the end"), trailing.getMessage());
            CumulusException ahead = assertThrows(CumulusException.class,
                () -> decode(space, "V26:java.lang.RuntimeException-0;B1;0;"));
            assertTrue(ahead.getMessage().contains("exception 1 referred back to, of 1 so far"), ahead.getMessage());
        });
    }

    /**
     * The frames as a stack trace prints them: the class loader's name and the module's version are not sent (a
     * trace prints neither for the application's and the JDK's classes), so the elements themselves are not equal.
     */
    private static String[] shown(StackTraceElement[] frames) {
        return java.util.Arrays.stream(frames).map(StackTraceElement::toString).toArray(String[]::new);
    }

    private static Throwable roundTrip(ObjectSpace space, Throwable t) {
        ObjectImage image = ObjectImage.empty("test", 1);
        ImageCodec.encode(space, image, 0, Throwable.class, t);
        assertEquals(ImageCodec.THROWABLE, image.kinds()[0]);
        return (Throwable) ImageCodec.decode(space, image, 0, Throwable.class, "field f of test");
    }

    /**
     * A program exception's state (its image's last entry) whose cause chain leads back to the exception itself: the
     * text names the owner there instead of writing its state again, so its suppressed exceptions stay where they
     * belong (they were left out: written with the owner's second mention, then dropped at the first as written).
     * JDK exceptions stand in for the program's here; the text is the same but for how the owner is named.
     */
    @Test
    void aStateWhoseCauseChainLeadsBackToItsOwnerKeepsItsSuppressedExceptions() {
        IllegalStateException p = new IllegalStateException("p");
        IllegalArgumentException q = new IllegalArgumentException("q");
        p.initCause(q);
        q.initCause(p);
        p.addSuppressed(new ArithmeticException("suppressed of p"));
        ThrowableText.State state = ThrowableText.parseState(ThrowableText.state(ThrowableState.of(p), v -> 0));
        assertEquals(1, state.suppressed().size());
        ThrowableText.Jdk suppressed = (ThrowableText.Jdk) state.suppressed().get(0);
        assertEquals("suppressed of p", suppressed.state().message());
        ThrowableText.Jdk cause = (ThrowableText.Jdk) state.cause();
        assertEquals("q", cause.state().message());
        assertTrue(cause.state().cause() instanceof ThrowableText.Absent, "q's cause, p, is the owner: not again");
    }

    private static Object decode(ObjectSpace space, String text) {
        ObjectImage image = ObjectImage.empty("test", 1);
        image.kinds()[0] = ImageCodec.THROWABLE;
        image.texts()[0] = text;
        return ImageCodec.decode(space, image, 0, Throwable.class, "field f of test");
    }

    private static void onOneNode(Consumer<ObjectSpace> body) {
        LocalCluster.run(1, cluster -> {
            ObjectSpace space = new ObjectSpace(Heaps.of(cluster), ThrowableValueTest.class.getClassLoader());
            space.bind();
            try {
                body.accept(space);
            } finally {
                space.close();
            }
        });
    }
}
