package dev.cumulus.internal.singlevm;

/**
 * What the agent's single-VM weaving calls around a program's call into JDK code that takes arrays
 * (docs/design/SINGLEVM.md, "The woven form"; the agent's {@code JdkArrayCalls}). JDK code is not woven: it would read
 * an array copy as last filled, and its writes into a copy would never be marked dirty. So a stale copy is filled
 * before the JDK reads it ({@link #readArray}, {@link #readArrayRange}, {@link #readArrayDeep}; a copy whose elements
 * there hold a JDK object this node cannot use stops the run, as a woven read of such an element does), and a JDK
 * method that writes into an array argument writes a private clone whose changed elements go into the copy afterwards
 * ({@link #snapshot}, {@link #target}, {@link #storeWritten}, {@link #result}). Public only because woven program
 * classes call it; not user API.
 */
public final class JdkArrayHooks {
    private JdkArrayHooks() {
    }

    /**
     * Before the JDK reads array {@code a} whole ({@code a.clone()}, or a JDK method the program passes it to): a stale
     * copy is filled from its home first.
     */
    public static void readArray(Object a) {
        if (SingleVmHooks.remoteArrays && a != null && CopyTable.mayHold(a)) {
            ObjectSpace s = ObjectSpace.current();
            Copy c = s.arrayCopy(a);
            if (c != null) {
                int length = java.lang.reflect.Array.getLength(a);
                s.fillRange(c, 0, length);
                s.checkForeign(c, 0, length);
            }
        }
    }

    /**
     * Before the JDK reads elements {@code from} to {@code to} of array {@code a} ({@code Arrays.copyOfRange},
     * {@code new String(chars, offset, count)}): the blocks of a stale copy they fall in are filled first, not the
     * whole array. A range the JDK will refuse is not filled (the call throws its own exception); one past the end
     * ({@code copyOfRange} pads) stops at it.
     */
    public static void readArrayRange(Object a, int from, int to) {
        if (SingleVmHooks.remoteArrays && a != null && from >= 0 && from <= to && CopyTable.mayHold(a)) {
            ObjectSpace s = ObjectSpace.current();
            Copy c = s.arrayCopy(a);
            if (c != null) {
                int end = Math.min(to, java.lang.reflect.Array.getLength(a));
                if (from < end) {
                    s.fillRange(c, from, end - from);
                    s.checkForeign(c, from, end);
                }
            }
        }
    }

    /**
     * Before a {@code deep} method of {@code java.util.Arrays} ({@code deepToString}, {@code deepEquals},
     * {@code deepHashCode}) or {@code Objects.deepEquals} (whose {@code a} may be no array: then nothing): {@code a}
     * and every array inside it, at any depth, are filled if they are stale copies.
     * Each array is visited once: an array that holds itself ({@code deepToString} prints it as {@code [...]}) does
     * not send this round in circles.
     */
    public static void readArrayDeep(Object a) {
        if (SingleVmHooks.remoteArrays && a != null && a.getClass().isArray()) { // Objects.deepEquals: any Object
            readArrayDeep(a, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
        }
    }

    private static void readArrayDeep(Object a, java.util.Set<Object> seen) {
        if (!seen.add(a)) {
            return;
        }
        readArray(a);
        if (a instanceof Object[] elements) {
            for (Object e : elements) {
                if (e != null && e.getClass().isArray()) {
                    readArrayDeep(e, seen);
                }
            }
        }
    }

    /**
     * Before a JDK method writes elements {@code from} to {@code to} of array argument {@code a} (or any of them:
     * {@code whole}) — {@code Arrays.sort}, {@code InputStream.read}, {@code Collection.toArray} and the others the
     * weaver names: when {@code a} is a copy, the range is filled and a clone of the copy returned, its contents before
     * the call, which {@link #target} clones again for the JDK to write and {@link #storeWritten} compares with;
     * else {@code a} itself, and the JDK writes {@code a}. A range the JDK will refuse is not filled: the call throws
     * its own exception. Also {@code a} itself where {@code receiver}'s class runs the program's own code for
     * {@code method} (name and descriptor: a program stream's {@code read} called as {@code InputStream.read}): that
     * code is woven and writes the copy as any program code does, and the array it is given is the program's, which it
     * may keep.
     */
    public static Object snapshot(Object receiver, String method, Object a, int from, int to, boolean whole) {
        if (!SingleVmHooks.remoteArrays || a == null || !CopyTable.mayHold(a)) {
            return a;
        }
        ObjectSpace s = ObjectSpace.current();
        Copy c = s.arrayCopy(a);
        if (c == null || receiver != null && ProgramMethods.declares(receiver.getClass(), method)) {
            return a;
        }
        int length = java.lang.reflect.Array.getLength(a);
        if (whole) {
            s.fillRange(c, 0, length);
            s.checkForeign(c, 0, length);
        } else if (0 <= from && from <= to && to <= length) {
            s.fillRange(c, from, to - from);
            s.checkForeign(c, from, to);
        }
        c.lock.lock();
        try {
            return cloneOf(a);
        } finally {
            c.lock.unlock();
        }
    }

    /**
     * The array the JDK method is given in place of {@code a}: {@code a} itself when it is no copy, else a private
     * clone of {@code snapshot}. The JDK writes a private array, so neither a fill nor a flush of another thread of
     * this node meets its writes half done, and no lock is held while it runs the program's code (a comparator, a
     * stream's read).
     */
    public static Object target(Object a, Object snapshot) {
        return snapshot == a ? a : cloneOf(snapshot);
    }

    /**
     * After the JDK method given {@link #target} returned or threw: each element in the range that it changed goes
     * into copy {@code a}, marked dirty (so the next release writes it back) — as far as the JDK got, as on one JVM.
     * Only the changed ones: an element the JDK left alone may have been filled anew meanwhile, or be written by
     * another node, and must not go back as this node's write. Nothing for a range the JDK refused.
     */
    public static void storeWritten(Object a, Object snapshot, Object written, int from, int to, boolean whole) {
        if (written == a) {
            return;
        }
        int length = java.lang.reflect.Array.getLength(a);
        int start = whole ? 0 : from;
        int end = whole ? length : to;
        if (start < 0 || start > end || end > length) {
            return;
        }
        ObjectSpace s = ObjectSpace.current();
        Copy c = s.arrayCopy(a);
        c.lock.lock();
        try {
            for (int i = nextChange(snapshot, written, start, end); i >= 0; i = nextChange(snapshot, written, i + 1,
                    end)) {
                System.arraycopy(written, i, a, i, 1);
                s.markDirty(c, i);
            }
        } finally {
            c.lock.unlock();
        }
    }

    /**
     * What the call returns to the program: {@code a} where the JDK returned the array it wrote in its place
     * ({@code Collection.toArray(T[])} returns the array it was given when the elements fit), else {@code result}.
     */
    public static Object result(Object result, Object written, Object a) {
        return result == written && written != a ? a : result;
    }

    /** The first index from {@code from} below {@code to} where {@code before} and {@code after} differ, or -1. */
    private static int nextChange(Object before, Object after, int from, int to) {
        if (from >= to) {
            return -1;
        }
        int i = switch (before) {
            case int[] x -> java.util.Arrays.mismatch(x, from, to, (int[]) after, from, to);
            case long[] x -> java.util.Arrays.mismatch(x, from, to, (long[]) after, from, to);
            case double[] x -> bitsMismatch(x, (double[]) after, from, to); // a NaN's payload too, and -0.0
            case float[] x -> bitsMismatch(x, (float[]) after, from, to);
            case char[] x -> java.util.Arrays.mismatch(x, from, to, (char[]) after, from, to);
            case short[] x -> java.util.Arrays.mismatch(x, from, to, (short[]) after, from, to);
            case byte[] x -> java.util.Arrays.mismatch(x, from, to, (byte[]) after, from, to);
            case boolean[] x -> java.util.Arrays.mismatch(x, from, to, (boolean[]) after, from, to);
            case Object[] x -> referenceMismatch(x, (Object[]) after, from, to); // by identity, not equals
            default -> throw new IllegalArgumentException("not an array: " + before.getClass().getName());
        };
        return i < 0 ? -1 : from + i;
    }

    /**
     * Where {@code before} and {@code after} first differ bit for bit below {@code to}, relative to {@code from}, or -1:
     * {@code Arrays.mismatch} takes two NaNs as equal, but the JDK may write one NaN over another (sort, fill), and
     * the program reads its bits ({@code Double.doubleToRawLongBits}) as on one JVM.
     */
    private static int bitsMismatch(double[] before, double[] after, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Double.doubleToRawLongBits(before[i]) != Double.doubleToRawLongBits(after[i])) {
                return i - from;
            }
        }
        return -1;
    }

    private static int bitsMismatch(float[] before, float[] after, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Float.floatToRawIntBits(before[i]) != Float.floatToRawIntBits(after[i])) {
                return i - from;
            }
        }
        return -1;
    }

    private static int referenceMismatch(Object[] before, Object[] after, int from, int to) {
        for (int i = from; i < to; i++) {
            if (before[i] != after[i]) {
                return i - from;
            }
        }
        return -1;
    }

    /**
     * {@code Arrays.setAll(a, generator)} ({@code parallel}: {@code parallelSetAll}). On an array copy, the loop of
     * stores the JDK specifies ({@code a[i] = generator(i)} for each index in turn), each a woven store, so the
     * generator may read the elements written before it (a recurrence) and a generator that throws leaves the ones
     * written so far; else the JDK's own method.
     */
    @SuppressWarnings("unchecked")
    public static void setAll(Object a, Object generator, boolean parallel) {
        boolean copy = SingleVmHooks.remoteArrays && a != null && CopyTable.mayHold(a)
            && ObjectSpace.current().arrayCopy(a) != null;
        switch (a) {
            case int[] x when !copy -> setAllInJdk(parallel, () -> java.util.Arrays.setAll(x,
                (java.util.function.IntUnaryOperator) generator), () -> java.util.Arrays.parallelSetAll(x,
                (java.util.function.IntUnaryOperator) generator));
            case long[] x when !copy -> setAllInJdk(parallel, () -> java.util.Arrays.setAll(x,
                (java.util.function.IntToLongFunction) generator), () -> java.util.Arrays.parallelSetAll(x,
                (java.util.function.IntToLongFunction) generator));
            case double[] x when !copy -> setAllInJdk(parallel, () -> java.util.Arrays.setAll(x,
                (java.util.function.IntToDoubleFunction) generator), () -> java.util.Arrays.parallelSetAll(x,
                (java.util.function.IntToDoubleFunction) generator));
            case Object[] x when !copy -> setAllInJdk(parallel, () -> java.util.Arrays.setAll(x,
                (java.util.function.IntFunction<Object>) generator), () -> java.util.Arrays.parallelSetAll(x,
                (java.util.function.IntFunction<Object>) generator));
            case int[] x -> {
                java.util.function.IntUnaryOperator g = java.util.Objects.requireNonNull(
                    (java.util.function.IntUnaryOperator) generator);
                for (int i = 0; i < x.length; i++) {
                    SingleVmHooks.storeInt(x, i, g.applyAsInt(i), null);
                }
            }
            case long[] x -> {
                java.util.function.IntToLongFunction g = java.util.Objects.requireNonNull(
                    (java.util.function.IntToLongFunction) generator);
                for (int i = 0; i < x.length; i++) {
                    SingleVmHooks.storeLong(x, i, g.applyAsLong(i), null);
                }
            }
            case double[] x -> {
                java.util.function.IntToDoubleFunction g = java.util.Objects.requireNonNull(
                    (java.util.function.IntToDoubleFunction) generator);
                for (int i = 0; i < x.length; i++) {
                    SingleVmHooks.storeDouble(x, i, g.applyAsDouble(i), null);
                }
            }
            case Object[] x -> {
                java.util.function.IntFunction<Object> g = java.util.Objects.requireNonNull(
                    (java.util.function.IntFunction<Object>) generator);
                for (int i = 0; i < x.length; i++) {
                    SingleVmHooks.storeRef(x, i, g.apply(i), null);
                }
            }
            case null -> throw new NullPointerException();
            default -> throw new IllegalArgumentException("Arrays.setAll of a " + a.getClass().getName());
        }
    }

    private static void setAllInJdk(boolean parallel, Runnable sequential, Runnable inParallel) {
        if (parallel) {
            inParallel.run();
        } else {
            sequential.run();
        }
    }

    private static Object cloneOf(Object a) {
        return switch (a) {
            case int[] x -> x.clone();
            case long[] x -> x.clone();
            case double[] x -> x.clone();
            case float[] x -> x.clone();
            case char[] x -> x.clone();
            case short[] x -> x.clone();
            case byte[] x -> x.clone();
            case boolean[] x -> x.clone();
            case Object[] x -> x.clone();
            default -> throw new IllegalArgumentException("not an array: " + a.getClass().getName());
        };
    }

}
