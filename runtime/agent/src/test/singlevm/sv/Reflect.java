package sv;

import java.lang.reflect.Array;
import java.lang.reflect.Field;

/**
 * Reflective reads and writes of a shared object's field and of an element of its array, under a monitor: by calls, by
 * method references, and in a constructor's prologue (before its {@code super()} call).
 */
public class Reflect {
    static Reflect shared;
    static final Object LOCK = new Object();

    interface Reader {
        Object read(Field f, Object o) throws Exception;
    }

    interface LongWriter {
        void write(Object o, long v) throws Exception;
    }

    interface ElementReader {
        long read(Object array, int i);
    }

    /** Writes field {@code total} of {@code r} reflectively before its {@code super()} call. */
    static final class Stamp {
        Stamp(Reflect r, long total) throws Exception {
            field("total").setLong(r, total);
            super();
        }
    }

    int count;
    long total;
    long referenced;
    String label = "none";
    final long[] cells = new long[3];

    public static void setup() {
        synchronized (LOCK) {
            shared = new Reflect();
        }
    }

    private static Field field(String name) throws NoSuchFieldException {
        return Reflect.class.getDeclaredField(name);
    }

    /** A refused write first (the JDK's exception, nothing left locked), then two that happen. */
    public static String writeReflectively(int count, long cell) throws Exception {
        synchronized (LOCK) {
            Reflect r = shared;
            String refused;
            try {
                field("label").setInt(r, 1);
                refused = "not refused";
            } catch (IllegalArgumentException e) {
                refused = e.getClass().getSimpleName();
            }
            field("count").setInt(r, count);
            Array.setLong(r.cells, 1, cell);
            new Stamp(r, cell + 1);
            LongWriter referenced = field("referenced")::setLong;
            referenced.write(r, cell + 2);
            return refused;
        }
    }

    public static String readReflectively() throws Exception {
        synchronized (LOCK) {
            Reflect r = shared;
            Reader read = Field::get;
            ElementReader element = Array::getLong;
            return field("count").getInt(r) + " " + Array.getLong(r.cells, 1) + " " + read.read(field("total"), r) + " "
                + element.read(r.cells, 1);
        }
    }

    public static void writePlain(int v) {
        synchronized (LOCK) {
            shared.count = v;
            shared.cells[1] = v;
            shared.total = v;
        }
    }

    public static String readPlain() {
        synchronized (LOCK) {
            return shared.count + " " + shared.cells[1] + " " + shared.total + " " + shared.referenced;
        }
    }
}
