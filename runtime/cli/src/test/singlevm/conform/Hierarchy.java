package conform;

/**
 * Class hierarchies on shared objects: fields in super- and subclasses, an abstract class, an interface with a
 * default method overridden below, virtual and super calls, {@code instanceof} with patterns, casts and a pattern
 * matching {@code switch}, all made on main's node and called from threads on the others.
 */
final class Hierarchy implements Conform.Case {
    interface Named {
        String name();

        int sides();

        default String describe() {
            return name() + " with " + sides() + " sides";
        }
    }

    abstract static class Shape implements Named {
        final String label;
        protected long area;
        int touchedBy = -1;

        Shape(String label) {
            this.label = label;
        }

        abstract long computeArea();

        @Override
        public String name() {
            return label;
        }
    }

    static class Rect extends Shape {
        int w;
        int h;

        Rect(String label, int w, int h) {
            super(label);
            this.w = w;
            this.h = h;
        }

        @Override
        long computeArea() {
            return (long) w * h;
        }

        @Override
        public int sides() {
            return 4;
        }
    }

    static final class Square extends Rect {
        Square(String label, int side) {
            super(label, side, side);
        }

        @Override
        public String describe() {
            return "square " + super.describe();
        }
    }

    static final class Tri extends Shape {
        final int base;
        final int height;

        Tri(String label, int base, int height) {
            super(label);
            this.base = base;
            this.height = height;
        }

        @Override
        long computeArea() {
            return (long) base * height / 2;
        }

        @Override
        public int sides() {
            return 3;
        }
    }

    static String classify(Object o) {
        return switch (o) {
            case Square s -> "square side " + s.w;
            case Rect r when r.w > r.h -> "wide rect " + r.w + "x" + r.h;
            case Rect r -> "tall rect " + r.w + "x" + r.h;
            case Tri t -> "tri " + t.base + "/" + t.height;
            case Named n -> "named " + n.name();
            default -> "unknown";
        };
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Shape[] shapes = {new Rect("r1", 3, 2), new Square("s1", 5), new Tri("t1", 6, 4), new Rect("r2", 2, 7),
            new Tri("t2", 9, 3), new Square("s2", 1)};
        String[] kinds = new String[shapes.length];
        int n = 3;
        Thread[] threads = new Thread[n];
        for (int k = 0; k < n; k++) {
            int me = k;
            threads[k] = new Thread(() -> {
                for (int i = me; i < shapes.length; i += n) {
                    Shape s = shapes[i];
                    s.area = s.computeArea();
                    s.touchedBy = me;
                    if (s instanceof Rect r && !(s instanceof Square)) {
                        r.w += 10;
                    }
                    kinds[i] = classify(s) + (s instanceof Named ? " named" : "") + " " + ((Named) s).describe();
                }
            }, "shape-" + k);
        }
        Conform.startJoin(threads);
        for (int i = 0; i < shapes.length; i++) {
            Shape s = shapes[i];
            out.println(s.describe() + " area=" + s.area + " by=" + s.touchedBy + " now " + classify(s) + " | "
                + kinds[i]);
        }
    }
}
