package conform;

import java.util.Iterator;

/**
 * Odds and ends on shared objects: a Thread subclass's own fields read by main after {@code join}, a program
 * Iterable walked with for-each on another node, {@code instanceof} on arrays held as {@code Object}, interface
 * static and private methods, a timed {@code wait(ms)} that times out, and a generic class.
 */
final class Misc implements Conform.Case {
    interface Shape {
        double area();

        static Shape square(double side) {
            return () -> side * side;
        }

        default String show() {
            return fmt(area());
        }

        private String fmt(double v) {
            return String.format("%.1f", v);
        }
    }

    static final class Range implements Iterable<Integer> {
        final int from;
        final int to;

        Range(int from, int to) {
            this.from = from;
            this.to = to;
        }

        @Override
        public Iterator<Integer> iterator() {
            return new Iterator<>() {
                int next = from;

                @Override
                public boolean hasNext() {
                    return next < to;
                }

                @Override
                public Integer next() {
                    return next++;
                }
            };
        }
    }

    static final class Pair<A, B> {
        final A first;
        B second;

        Pair(A first, B second) {
            this.first = first;
            this.second = second;
        }
    }

    static final class Summer extends Thread {
        final Range range;
        final Object[] things;
        long sum;
        String kinds = "";
        String shapes;
        boolean timedOut;

        Summer(Range range, Object[] things) {
            this.range = range;
            this.things = things;
        }

        @Override
        public void run() {
            for (int i : range) {
                sum += i;
            }
            for (Object o : things) {
                kinds += o instanceof int[] a ? "ints" + a.length : o instanceof String[][] s ? "grid" + s[1][0]
                    : o instanceof Pair<?, ?> p ? "pair" + p.first + p.second : "?";
            }
            shapes = Shape.square(3).show();
            Object lock = things[2];
            synchronized (lock) {
                long start = System.nanoTime();
                try {
                    lock.wait(50);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                timedOut = System.nanoTime() - start >= 40_000_000L;
            }
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Object[] things = {new int[] {1, 2, 3}, new String[][] {{"a"}, {"b", "c"}}, new Pair<>("k", 7)};
        Summer s = new Summer(new Range(1, 101), things);
        s.start();
        s.join();
        @SuppressWarnings("unchecked")
        Pair<String, Integer> p = (Pair<String, Integer>) things[2];
        out.println("sum " + s.sum + " kinds " + s.kinds + " shapes " + s.shapes + " timedOut " + s.timedOut
            + " pair " + p.first + p.second);
    }
}
