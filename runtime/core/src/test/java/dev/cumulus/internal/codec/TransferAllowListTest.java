package dev.cumulus.internal.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.Transferable;
import dev.cumulus.Transfers;
import java.time.DayOfWeek;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The explicit allow-list: what a signature brings onto it, and that nothing else is loaded or initialised. */
@Timeout(30)
class TransferAllowListTest {
    static final AtomicBoolean UNLISTED_INITIALIZED = new AtomicBoolean();

    /** A record on the classpath that no signature reaches. */
    record Unlisted(int x) {
        static {
            UNLISTED_INITIALIZED.set(true);
        }
    }

    enum Color { RED, GREEN { @Override public String toString() { return "green"; } } }

    record Inner(Color color, DayOfWeek day) {
    }

    @Transferable
    static class Holder {
        Map<String, List<Inner>> byName;
        transient Unlisted notCopied;
    }

    record Outer(Optional<Holder> holder, Inner[] inners) {
    }

    sealed interface Shape permits Circle, Square {
    }

    record Circle(double r) implements Shape {
    }

    record Square(double side) implements Shape {
    }

    record Point(int x, int y) {
    }

    interface Service {
        Outer take(List<? extends Shape> shapes, int n);
    }

    interface Worker<T> {
        void work(T value);
    }

    static final class PointWorker implements Worker<Point> {
        @Override
        public void work(Point value) {
        }
    }

    @Test
    void aSignatureBringsItsTypesAndWhatTheyHold() {
        TransferAllowList list = new TransferAllowList();
        list.allowSignatures(Service.class);
        for (Class<?> c : List.of(Outer.class, Holder.class, Inner.class, Color.class, DayOfWeek.class, Circle.class,
            Square.class, Shape.class)) {
            assertTrue(list.permits(c), c + " is reached");
        }
        assertTrue(list.permits(Inner[].class));
        assertTrue(list.permits(Color.GREEN.getClass()), "a constant's body of an allowed enum");
        assertFalse(list.permits(Unlisted.class), "a transient field does not travel");
        assertFalse(list.permits(Point.class));
        assertTrue(list.permits(String.class) && list.permits(java.util.HashMap.class) && list.permits(Object[].class),
            "the JDK's value kinds need no listing");
    }

    @Test
    void anImplementationBringsTheTypeArgumentsOfItsInterfaces() {
        TransferAllowList list = new TransferAllowList();
        list.allowSignatures(Worker.class);
        assertFalse(list.permits(Point.class));
        list.allowSignatures(PointWorker.class);
        assertTrue(list.permits(Point.class));
    }

    @Test
    void aClassNoSignatureReachesIsRefusedUnloadedAndUninitialized() {
        ValueReaderHostileInputTest.Bytes message = new ValueReaderHostileInputTest.Bytes().b(Tags.RECORD)
            .newClass(Unlisted.class).i(3);
        ValueCodec listed = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(), CodecLimits.DEFAULTS,
            TransferAllowList.of(Point.class));
        CodecException e = assertThrows(CodecException.class,
            () -> listed.reader(message.buffer, 0, message.length).read());
        assertTrue(e.getMessage().contains("not on this node's transfer allow-list")
            && e.getMessage().contains("Transfers.allow"), e.getMessage());
        assertFalse(UNLISTED_INITIALIZED.get(), "a refused record's static initializer never runs");
        ValueCodec open = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(), CodecLimits.DEFAULTS,
            TransferAllowList.of(Unlisted.class));
        assertEquals(new Unlisted(3), open.reader(message.buffer, 0, message.length).read(), "listed: decoded");
    }

    @Test
    void usersRegisterWhatNoSignatureReaches() {
        record Registered(String name) {
        }
        assertFalse(TransferAllowList.shared().permits(Registered.class));
        Transfers.allow(Registered.class);
        assertTrue(TransferAllowList.shared().permits(Registered.class));
        ValueCodec codec = new ValueCodec(ReferenceHandler.NONE, getClass().getClassLoader(), CodecLimits.DEFAULTS);
        assertEquals(new Registered("a"), CodecTestSupport.roundTrip(codec, new Registered("a")));
    }
}
