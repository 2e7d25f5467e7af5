package conform;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleBiFunction;

/**
 * Reflection from the program's own code on its own objects, statics and arrays ({@code Field}'s getters and setters,
 * {@code java.lang.reflect.Array}): a reflective read sees what a plain read there would, and a reflective write reaches
 * the other threads as a plain one does, a volatile field's included, across a happens-before edge. The object is
 * main's, the threads that write and read it are others (on other nodes, with more than one). Each thread looks its
 * {@code Field}s up itself: a {@code Field} is a JDK object.
 */
final class Reflection implements Conform.Case {
    static final class Cell {
        int count;
        long total;
        volatile int flag;
        volatile short small;
        volatile long big;
        volatile char letter;
        String label;
        final double[] samples = new double[4];
    }

    static int shared;
    static final Object lock = new Object();
    /** Set by {@link Guarded}'s static initializer. */
    static boolean guardedInitialised;

    /** {@code Field::get} and the like as a method reference. */
    interface Reader {
        Object read(Field f, Object o) throws Exception;
    }

    interface IntWriter {
        void write(Object o, int v) throws Exception;
    }

    interface ElementWriter {
        void write(Object array, int i, double v);
    }

    /** Writes a field of another object reflectively in its constructor's prologue, before {@code super()}. */
    static final class Stamp {
        Stamp(Cell cell, int count) throws Exception {
            field("count").setInt(cell, count);
            super();
        }

        /** A write the JDK refuses there: its exception, the copy left unlocked. */
        Stamp(Cell cell, String count) throws Exception {
            field("count").set(cell, count);
            super();
        }
    }

    /** A thread that runs {@code body} (a {@code Callable}: a lambda that may move to another node). */
    static Thread thread(Callable<?> body) {
        return new Thread(() -> {
            try {
                body.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    static Field field(String name) throws NoSuchFieldException {
        return Cell.class.getDeclaredField(name);
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Cell cell = new Cell();
        cell.count = 1;
        cell.label = "made";

        Conform.startJoin(thread(() -> {
            synchronized (lock) {
                field("count").setInt(cell, 41);
                field("total").set(cell, 7L);
                field("label").set(cell, "written");
                Reflection.class.getDeclaredField("shared").setInt(null, 99);
                Array.setDouble(cell.samples, 2, 2.5);
                Array.set(cell.samples, 1, 1.5);
            }
            return null;
        }));
        out.println("plain reads after reflective writes: " + cell.count + " " + cell.total + " " + cell.label + " "
            + shared + " " + Arrays.toString(cell.samples));

        cell.count = 5;
        cell.total = 123_456_789_012L;
        cell.label = "plain";
        shared = 17;
        cell.samples[0] = 1.25;
        String[] seen = new String[1];
        Conform.startJoin(thread(() -> {
            Field count = field("count");
            seen[0] = count.getInt(cell) + " " + field("total").getLong(cell) + " " + field("total").get(cell) + " "
                + field("label").get(cell) + " " + Reflection.class.getDeclaredField("shared").get(null) + " "
                + Array.get(cell.samples, 0) + " " + Array.getDouble(cell.samples, 2) + " widened "
                + count.getLong(cell) + " " + count.getDouble(cell) + " " + field("flag").getInt(cell);
            return null;
        }));
        out.println("reflective reads after plain writes: " + seen[0]);

        Thread handOff = thread(() -> {
            cell.count = 77;
            cell.samples[3] = 3.5;
            field("flag").setInt(cell, 1);
            return null;
        });
        handOff.start();
        Field flag = field("flag");
        while (flag.getInt(cell) == 0) {
            Thread.onSpinWait();
        }
        out.println("after a reflective volatile hand-off: " + cell.count + " " + cell.samples[3]);
        handOff.join();

        Conform.startJoin(thread(() -> {
            field("small").set(cell, (byte) 3);
            field("big").setInt(cell, 12);
            field("letter").setChar(cell, 'q');
            return null;
        }));
        String[] widened = new String[1];
        Conform.startJoin(thread(() -> {
            widened[0] = field("small").getInt(cell) + " " + field("small").get(cell).getClass().getSimpleName() + " "
                + field("big").getDouble(cell) + " " + field("big").getFloat(cell) + " " + field("letter").getInt(cell)
                + " " + field("letter").get(cell);
            return null;
        }));
        out.println("volatile fields widened: " + widened[0] + "; plain: " + cell.small + " " + cell.big + " "
            + cell.letter);

        String[] refused = new String[1];
        Conform.startJoin(thread(() -> {
            StringBuilder s = new StringBuilder();
            try {
                field("label").getInt(cell);
            } catch (IllegalArgumentException e) {
                s.append("getInt of a String field: ").append(e.getClass().getSimpleName());
            }
            try {
                Array.getDouble(cell.samples, 4);
            } catch (ArrayIndexOutOfBoundsException e) {
                s.append("; Array.getDouble past the end: ").append(e.getClass().getSimpleName());
            }
            try {
                field("count").setLong(cell, 3L);
            } catch (IllegalArgumentException e) {
                s.append("; setLong of an int field: ").append(e.getClass().getSimpleName());
            }
            refused[0] = s.toString();
            return null;
        }));
        out.println(refused[0]);
        out.println("unchanged by the refused calls: " + cell.count + " " + cell.samples.length);

        Cell other = new Cell();
        Conform.startJoin(thread(() -> {
            synchronized (lock) {
                new Stamp(other, 12);
                try {
                    new Stamp(other, "13");
                } catch (IllegalArgumentException e) {
                    other.label = "refused in a prologue";
                }
                IntWriter total = field("total")::setInt;
                total.write(other, 21);
                ElementWriter element = Array::setDouble;
                element.write(other.samples, 3, 4.5);
            }
            return null;
        }));
        out.println("written in a constructor's prologue and through method references: " + other.count + " "
            + other.label + " " + other.total + " " + Arrays.toString(other.samples));
        other.count = 31;
        other.samples[0] = 0.5;
        String[] referenced = new String[1];
        Conform.startJoin(thread(() -> {
            synchronized (lock) {
                Reader read = Field::get;
                ToDoubleBiFunction<Object, Integer> element = Array::getDouble;
                referenced[0] = read.read(field("count"), other) + " " + element.applyAsDouble(other.samples, 0);
            }
            return null;
        }));
        out.println("read through method references: " + referenced[0]);

        Field guarded = Guarded.class.getDeclaredField("value");
        StringBuilder refusals = new StringBuilder();
        try {
            guarded.getInt(null);
        } catch (IllegalAccessException e) {
            refusals.append("get refused");
        }
        try {
            guarded.setInt(null, 2);
        } catch (IllegalAccessException e) {
            refusals.append(", set refused");
        }
        out.println("a refused access to a private static initialises no class: " + refusals + ", initialised "
            + guardedInitialised);
        String[] granted = new String[1];
        Conform.startJoin(thread(() -> {
            Field value = Guarded.class.getDeclaredField("value");
            value.setAccessible(true);
            granted[0] = value.getInt(null) + " " + guardedInitialised;
            return null;
        }));
        out.println("once accessible, it is read after its initialisation: " + granted[0]);

        out.println("Cell's own members only: fields " + Arrays.stream(Cell.class.getDeclaredFields()).map(Field::getName)
            .sorted().toList() + ", public fields " + Cell.class.getFields().length + ", interfaces "
            + Cell.class.getInterfaces().length + " " + Cell.class.getGenericInterfaces().length + ", methods named $ "
            + Arrays.stream(Reflection.class.getDeclaredMethods()).filter(m -> m.getName().startsWith("$")).count());
        String byName;
        try {
            byName = "found " + Cell.class.getDeclaredField("$cumulus$state");
        } catch (NoSuchFieldException e) {
            byName = "NoSuchFieldException " + e.getMessage();
        }
        out.println("a field looked up by name that the program does not declare: " + byName);
    }
}

/** A private static field of another class (no nestmate of Reflection's), whose initializer Reflection sees run. */
final class Guarded {
    private static int value = 1;

    static {
        Reflection.guardedInitialised = true;
    }

    private Guarded() {
    }
}
