package dev.cumulus.internal.array;

import dev.cumulus.CumulusException;
import dev.cumulus.SharedDouble;
import dev.cumulus.SharedLong;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Shared scalars: the values this node is home to, and the client views. Values travel as raw long bits. */
final class Scalars {
    static final int GET = 0;
    static final int SET = 1;
    static final int GET_SET = 2;
    static final int ADD_GET = 3;
    static final int GET_ADD = 4;
    static final int CAS = 5;
    static final int MAX = 6;
    static final int MIN = 7;
    static final int DECLARE = 8;

    private static final class Cell {
        final boolean isDouble;
        long bits;

        Cell(boolean isDouble) {
            this.isDouble = isDouble;
        }
    }

    private final Map<String, Cell> cells = new ConcurrentHashMap<>();

    /** Home side: one atomic operation. */
    long apply(String name, boolean isDouble, int op, long a, long b) {
        Cell c = cells.computeIfAbsent(name, n -> new Cell(isDouble));
        if (c.isDouble != isDouble) {
            throw new CumulusException("shared scalar '" + name + "' is a " + kind(c.isDouble)
                + " but is used as a " + kind(isDouble) + "; use one kind per name");
        }
        synchronized (c) {
            long old = c.bits;
            switch (op) {
                case GET, DECLARE -> {
                    return old;
                }
                case SET -> {
                    c.bits = a;
                    return old;
                }
                case GET_SET -> {
                    c.bits = a;
                    return old;
                }
                case ADD_GET, GET_ADD -> {
                    c.bits = isDouble ? Double.doubleToRawLongBits(Double.longBitsToDouble(old) + Double.longBitsToDouble(a))
                        : old + a;
                    return op == ADD_GET ? c.bits : old;
                }
                case CAS -> {
                    if (old == a) {
                        c.bits = b;
                        return 1;
                    }
                    return 0;
                }
                case MAX, MIN -> {
                    boolean greater = isDouble ? Double.longBitsToDouble(a) > Double.longBitsToDouble(old) : a > old;
                    if (op == MAX ? greater : !greater && a != old) {
                        c.bits = a;
                    }
                    return c.bits;
                }
                default -> throw new CumulusException("shared scalar '" + name + "': unknown operation " + op);
            }
        }
    }

    private static String kind(boolean isDouble) {
        return isDouble ? "SharedDouble" : "SharedLong";
    }

    /** Client view of a {@link SharedLong}. */
    record LongView(ArrayRuntime runtime, String name, int homeNode) implements SharedLong {
        private long op(int op, long a, long b) {
            return runtime.scalar(homeNode, name, false, op, a, b);
        }

        @Override
        public long get() {
            return op(GET, 0, 0);
        }

        @Override
        public void set(long value) {
            op(SET, value, 0);
        }

        @Override
        public long getAndSet(long value) {
            return op(GET_SET, value, 0);
        }

        @Override
        public long addAndGet(long delta) {
            return op(ADD_GET, delta, 0);
        }

        @Override
        public long getAndAdd(long delta) {
            return op(GET_ADD, delta, 0);
        }

        @Override
        public boolean compareAndSet(long expect, long update) {
            return op(CAS, expect, update) == 1;
        }

        @Override
        public long maxAndGet(long value) {
            return op(MAX, value, 0);
        }
    }

    /** Client view of a {@link SharedDouble}. */
    record DoubleView(ArrayRuntime runtime, String name, int homeNode) implements SharedDouble {
        private double op(int op, double a, double b) {
            return Double.longBitsToDouble(runtime.scalar(homeNode, name, true, op, Double.doubleToRawLongBits(a),
                Double.doubleToRawLongBits(b)));
        }

        @Override
        public double get() {
            return op(GET, 0, 0);
        }

        @Override
        public void set(double value) {
            op(SET, value, 0);
        }

        @Override
        public double getAndSet(double value) {
            return op(GET_SET, value, 0);
        }

        @Override
        public double addAndGet(double delta) {
            return op(ADD_GET, delta, 0);
        }

        @Override
        public double getAndAdd(double delta) {
            return op(GET_ADD, delta, 0);
        }

        @Override
        public boolean compareAndSet(double expect, double update) {
            return runtime.scalar(homeNode, name, true, CAS, Double.doubleToRawLongBits(expect),
                Double.doubleToRawLongBits(update)) == 1;
        }

        @Override
        public double maxAndGet(double value) {
            return op(MAX, value, 0);
        }

        @Override
        public double minAndGet(double value) {
            return op(MIN, value, 0);
        }
    }
}
