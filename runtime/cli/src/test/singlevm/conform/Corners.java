package conform;

import conform.other.Base;

/**
 * Language corners on copies: fields shadowed in a subclass (same name, another owner, static and instance);
 * protected fields of a superclass in another package written through the subclass; volatile long and double fields
 * written and read on other nodes (never torn); fields of every small primitive type; a final array field whose
 * elements change; generic bridge methods, varargs of program objects, default methods calling abstract ones, a
 * method reference to an instance method of a copy as a thread's task; equals and hashCode overridden mid-hierarchy.
 */
final class Corners implements Conform.Case {
    static class Upper {
        int x = 1;
        static String tag = "upper";

        int upperX() {
            return x;
        }
    }

    static class Lower extends Upper {
        int x = 2;
        static String tag = "lower";

        int lowerX() {
            return x;
        }
    }

    static final class Derived extends Base {
        void bump(int by) {
            guarded += by;
            open += by * 10L;
            made += 0;
        }

        String show() {
            return guarded + " " + open + " " + hidden() + " " + made;
        }
    }

    static final class Wide {
        volatile long big;
        volatile double real;
        char c;
        short s;
        byte b;
        boolean flag;
        float f;
        final int[] slots = new int[3];
    }

    interface Shape<T extends Shape<T>> extends Comparable<T> {
        long area();

        default String describe() {
            return getClass().getSimpleName() + "(" + area() + ")";
        }
    }

    static final class Rect implements Shape<Rect> {
        final long w;
        final long h;

        Rect(long w, long h) {
            this.w = w;
            this.h = h;
        }

        @Override
        public long area() {
            return w * h;
        }

        @Override
        public int compareTo(Rect o) {
            return Long.compare(area(), o.area());
        }
    }

    static class Point {
        int x;
        int y;

        Point(int x, int y) {
            this.x = x;
            this.y = y;
        }
    }

    static class Named extends Point {
        String name;

        Named(int x, int y, String name) {
            super(x, y);
            this.name = name;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Named n && n.x == x && n.y == y;
        }

        @Override
        public int hashCode() {
            return 31 * x + y;
        }
    }

    static final class Labelled extends Named {
        Labelled(int x, int y, String name) {
            super(x, y, name);
        }
    }

    static final class Worker {
        long sum;
        String note;

        void work() {
            for (int i = 1; i <= 100; i++) {
                sum += i;
            }
            note = "worked " + sum;
        }
    }

    static long total(Shape<?>... shapes) {
        long t = 0;
        for (Shape<?> s : shapes) {
            t += s.area();
        }
        return t;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compareRaw(Comparable a, Object b) {
        return a.compareTo(b); // through the bridge method
    }

    static final long[] LONGS = {0L, -1L, 0x5555_5555_AAAA_AAAAL, Long.MIN_VALUE};
    static final double[] DOUBLES = {0.0, -0.0, Double.NaN, Double.MAX_VALUE, 1.0 / 3};

    @Override
    public void run(Conform.Out out) throws Exception {
        Lower lower = new Lower();
        Derived derived = new Derived();
        Wide wide = new Wide();
        Rect[] rects = {new Rect(2, 3), new Rect(1, 1), new Rect(4, 5)};
        Named[] points = {new Named(1, 2, "a"), new Labelled(1, 2, "b"), new Named(2, 1, "c")};
        String[] seen = new String[3];
        Worker worker = new Worker();
        Thread writer = new Thread(() -> {
            lower.x = 20;
            ((Upper) lower).x = 10;
            Upper.tag = "UPPER";
            Lower.tag = "LOWER";
            derived.bump(3);
            derived.hide(9);
            wide.c = 'Z';
            wide.s = Short.MIN_VALUE;
            wide.b = (byte) 0x80;
            wide.flag = true;
            wide.f = Float.MIN_VALUE;
            wide.slots[1] = 42;
            int torn = 0;
            for (int i = 0; i < 400; i++) {
                long l = wide.big;
                double d = wide.real;
                boolean knownL = false;
                for (long v : LONGS) {
                    knownL |= v == l;
                }
                boolean knownD = false;
                for (double v : DOUBLES) {
                    knownD |= Double.doubleToRawLongBits(v) == Double.doubleToRawLongBits(d);
                }
                torn += (knownL ? 0 : 1) + (knownD ? 0 : 1);
                wide.big = LONGS[i % LONGS.length];
                wide.real = DOUBLES[i % DOUBLES.length];
            }
            seen[0] = "torn " + torn;
        });
        Thread flipper = new Thread(() -> {
            int torn = 0;
            for (int i = 0; i < 400; i++) {
                wide.big = LONGS[(i + 1) % LONGS.length];
                wide.real = DOUBLES[(i + 2) % DOUBLES.length];
                long l = wide.big;
                boolean known = false;
                for (long v : LONGS) {
                    known |= v == l;
                }
                torn += known ? 0 : 1;
            }
            java.util.Arrays.sort(rects); // Comparable through the bridge, on copies
            seen[1] = "torn " + torn + " sorted " + rects[0].describe() + " " + rects[2].describe() + " total "
                + total(rects) + " " + total(rects[0], rects[1]) + " raw " + compareRaw(rects[2], rects[0]) + " eq "
                + points[0].equals(points[1]) + points[1].equals(points[0]) + points[0].equals(points[2]) + " hash "
                + (points[0].hashCode() == points[1].hashCode()) + " set "
                + new java.util.HashSet<>(java.util.List.of(points)).size();
        });
        Thread runner = new Thread(worker::work);
        Conform.startJoin(writer, flipper, runner);
        out.println("shadow " + lower.x + " " + ((Upper) lower).x + " " + lower.lowerX() + " " + lower.upperX() + " "
            + Upper.tag + " " + Lower.tag);
        out.println("derived " + derived.show());
        out.println("wide " + wide.c + " " + wide.s + " " + wide.b + " " + wide.flag + " " + wide.f + " "
            + java.util.Arrays.toString(wide.slots));
        out.println("volatile " + (wide.big == LONGS[3] || wide.big == LONGS[0] || wide.big == LONGS[1]
            || wide.big == LONGS[2]) + " " + seen[0] + " " + seen[1]);
        out.println("worker " + worker.sum + " " + worker.note);
    }
}
