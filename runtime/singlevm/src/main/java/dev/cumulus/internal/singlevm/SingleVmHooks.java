package dev.cumulus.internal.singlevm;

/**
 * What the agent's single-VM weaving calls (docs/design/SINGLEVM.md, "The woven form"): the slow paths of field and
 * array accesses to copies, volatile accesses, monitors and wait/notify. Each goes to the current thread's node
 * ({@link ObjectSpace}). Public only because woven program classes call it; not user API.
 */
public final class SingleVmHooks {
    /**
     * True once this JVM holds a copy of an array homed on another node; until then (always, with one node) a woven
     * array access costs the load of this field and a branch.
     */
    public static boolean remoteArrays;

    /**
     * The lowest state of a copy that may be read without a fetch ({@link Epochs}): a woven read of a copy whose
     * {@code $cumulus$state} is below it fetches first. Masters ({@code 0}) are never below it. Written by every
     * acquire; read plainly by woven code (a thread sees its own acquire's write).
     */
    public static int validFrom = Epochs.filledIn(1);

    private SingleVmHooks() {
    }

    /**
     * Whether {@code type}'s static initializer runs here: on node 0, the home of every class's statics. Elsewhere the
     * statics start stale and are fetched from node 0; the class's first use here has node 0 initialise it first
     * ({@link ObjectSpace#initialiseAtHome}), as one JVM would at that use.
     */
    public static boolean staticsHere(Class<?> type) {
        ObjectSpace space = ObjectSpace.current();
        if (space.nodeId() == 0) {
            return true;
        }
        space.initialiseAtHome(type);
        return false;
    }

    /**
     * {@link #staticsHere} for a class without a static initializer of its own: nothing to run at node 0 first, and
     * nothing to wait for while this node's initialisation of the class is under way (a thread serving another node's
     * request that makes a copy of an object of the class may be waiting for it).
     */
    public static boolean staticsHome(Class<?> type) {
        return ObjectSpace.current().nodeId() == 0;
    }

    // ---- fields ---------------------------------------------------------------------------------------------------

    /** A read of field {@code field} of stale copy {@code o}: fill it from its home. */
    public static void fetch(Object o, String field) {
        ObjectSpace.current().fetch(o, field);
    }

    /**
     * JDK code is about to read every field of {@code o} without woven checks: {@code Object.clone} of a program
     * object, or a record's generated {@code equals}, {@code hashCode} and {@code toString} (their
     * {@code ObjectMethods} bootstrap reads the fields through method handles). A stale copy is filled first.
     */
    public static void readAll(Object o) {
        if (o instanceof SharedObject) {
            ObjectSpace.current().readAll(o);
        }
    }

    /**
     * {@code super.clone()} of {@code original} returned {@code clone}: when that is {@code Object.clone}'s copy of a
     * program object (another object, with the original's id), it becomes a new master of this node. A program
     * superclass's {@code clone} may return {@code this} or another object: those stay as they are.
     */
    public static void cloned(Object clone, Object original) {
        if (clone != original && clone instanceof SharedObject && original instanceof SharedObject) {
            ObjectSpace.clonedFrom(clone, original);
        }
    }

    /** A read of static field {@code field} of {@code type} on a node whose statics copy is stale: fill it from node 0. */
    public static void fetchStatics(Class<?> type, String field) {
        ObjectSpace.current().fetchStatics(type, field);
    }

    public static void beginWrite(Object o) {
        ObjectSpace.current().beginWrite(o);
    }

    public static void endWrite(Object o, Class<?> owner, String name) {
        ObjectSpace.current().endWrite(o, owner, name);
    }

    public static void beginStaticWrite(Class<?> owner, String name) {
        ObjectSpace.current().beginStaticWrite(owner, name);
    }

    public static void endStaticWrite(Class<?> owner, String name) {
        ObjectSpace.current().endStaticWrite(owner, name);
    }

    public static Object getVolatile(Object o, Class<?> owner, String name) {
        return ObjectSpace.current().getVolatile(o, owner, name);
    }

    public static void putVolatile(Object o, Object value, Class<?> owner, String name) {
        ObjectSpace.current().putVolatile(o, value, owner, name);
    }

    public static Object getStaticVolatile(Class<?> owner, String name) {
        return ObjectSpace.current().getStaticVolatile(owner, name);
    }

    public static void putStaticVolatile(Object value, Class<?> owner, String name) {
        ObjectSpace.current().putStaticVolatile(value, owner, name);
    }

    // ---- arrays (called only once remoteArrays is set) ------------------------------------------------------------
    // Each access site of a woven method keeps in a local the last array it found to be no copy ("known"): an array is
    // a copy from its making or never, so an access to that array again costs one comparison, no lookup. A hook returns
    // what the site keeps next: the array accessed when it is no copy, else "known" as it was.

    /** Before a load of element {@code i} of {@code a}: a stale copy is filled from its home first. */
    public static Object arrayRead(Object a, int i, Object known) {
        if (a == known) {
            return known;
        }
        return CopyTable.mayHold(a) ? fillRead(a, i, known) : a;
    }

    private static Object fillRead(Object a, int i, Object known) {
        ObjectSpace s = ObjectSpace.current();
        Copy c = s.arrayCopy(a);
        if (c == null) {
            return a;
        }
        s.fillRange(c, i, 1);
        return known;
    }

    /**
     * Before the JDK reads array {@code a} whole ({@code a.clone()}, or a JDK method the program passes it to): a stale
     * copy is filled from its home first.
     */
    public static void readArray(Object a) {
        if (remoteArrays && a != null && CopyTable.mayHold(a)) {
            ObjectSpace s = ObjectSpace.current();
            Copy c = s.arrayCopy(a);
            if (c != null) {
                s.fillRange(c, 0, java.lang.reflect.Array.getLength(a));
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
        if (remoteArrays && a != null && from >= 0 && from <= to && CopyTable.mayHold(a)) {
            ObjectSpace s = ObjectSpace.current();
            Copy c = s.arrayCopy(a);
            if (c != null) {
                int end = Math.min(to, java.lang.reflect.Array.getLength(a));
                if (from < end) {
                    s.fillRange(c, from, end - from);
                }
            }
        }
    }

    /**
     * Before a {@code deep} method of {@code java.util.Arrays} ({@code deepToString}, {@code deepEquals},
     * {@code deepHashCode}): {@code a} and every array inside it, at any depth, are filled if they are stale copies.
     * Each array is visited once: an array that holds itself ({@code deepToString} prints it as {@code [...]}) does
     * not send this round in circles.
     */
    public static void readArrayDeep(Object a) {
        if (remoteArrays && a != null) {
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
     * Before a {@code java.util.Arrays} method writes elements {@code from} to {@code to} of {@code a} (or all of them:
     * {@code whole}) — {@code sort}, {@code parallelSort}, {@code fill}, {@code parallelPrefix}: the array that method
     * is to write. That is {@code a} itself when it is no copy; for a copy, the range filled, then a clone of the copy,
     * which {@link #storeWritten} takes back. The JDK works on a private array, so neither a fill nor a flush of another
     * thread of this node meets its writes half done, and no lock is held while it calls the program's comparator. A
     * range the JDK will refuse is not filled: the call throws its own exception.
     */
    public static Object writableClone(Object a, int from, int to, boolean whole) {
        if (!remoteArrays || a == null || !CopyTable.mayHold(a)) {
            return a;
        }
        ObjectSpace s = ObjectSpace.current();
        Copy c = s.arrayCopy(a);
        if (c == null) {
            return a;
        }
        int length = java.lang.reflect.Array.getLength(a);
        if (whole) {
            s.fillRange(c, 0, length);
        } else if (0 <= from && from <= to && to <= length) {
            s.fillRange(c, from, to - from);
        }
        c.lock.lock();
        try {
            return cloneOf(a);
        } finally {
            c.lock.unlock();
        }
    }

    /**
     * After the {@code java.util.Arrays} call of {@link #writableClone} returned or threw: when it wrote a clone of copy
     * {@code a}, the written elements go into the copy, each marked dirty (so the next release writes them back) — as
     * far as the JDK got, as on one JVM. Nothing for a range the JDK refused.
     */
    public static void storeWritten(Object a, Object written, int from, int to, boolean whole) {
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
            System.arraycopy(written, start, a, start, end - start);
            for (int i = start; i < end; i++) {
                s.markDirty(c, i);
            }
        } finally {
            c.lock.unlock();
        }
    }

    /**
     * {@code Arrays.setAll(a, generator)} ({@code parallel}: {@code parallelSetAll}). On an array copy, the loop of
     * stores the JDK specifies ({@code a[i] = generator(i)} for each index in turn), each a woven store, so the
     * generator may read the elements written before it (a recurrence) and a generator that throws leaves the ones
     * written so far; else the JDK's own method.
     */
    @SuppressWarnings("unchecked")
    public static void setAll(Object a, Object generator, boolean parallel) {
        boolean copy = remoteArrays && a != null && CopyTable.mayHold(a) && ObjectSpace.current().arrayCopy(a) != null;
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
                    storeInt(x, i, g.applyAsInt(i), null);
                }
            }
            case long[] x -> {
                java.util.function.IntToLongFunction g = java.util.Objects.requireNonNull(
                    (java.util.function.IntToLongFunction) generator);
                for (int i = 0; i < x.length; i++) {
                    storeLong(x, i, g.applyAsLong(i), null);
                }
            }
            case double[] x -> {
                java.util.function.IntToDoubleFunction g = java.util.Objects.requireNonNull(
                    (java.util.function.IntToDoubleFunction) generator);
                for (int i = 0; i < x.length; i++) {
                    storeDouble(x, i, g.applyAsDouble(i), null);
                }
            }
            case Object[] x -> {
                java.util.function.IntFunction<Object> g = java.util.Objects.requireNonNull(
                    (java.util.function.IntFunction<Object>) generator);
                for (int i = 0; i < x.length; i++) {
                    storeRef(x, i, g.apply(i), null);
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

    /** {@code System.arraycopy}: the source is filled if it is a stale copy; the copied elements of a copy are dirty. */
    public static void arraycopy(Object src, int srcPos, Object dst, int dstPos, int length) {
        if (!remoteArrays || src == null || dst == null) {
            System.arraycopy(src, srcPos, dst, dstPos, length);
            return;
        }
        ObjectSpace s = ObjectSpace.current();
        Copy source = CopyTable.mayHold(src) ? s.arrayCopy(src) : null;
        if (source != null) {
            s.fillRange(source, srcPos, length);
        }
        Copy c = begin(dst);
        try {
            System.arraycopy(src, srcPos, dst, dstPos, length);
        } finally {
            if (c != null) {
                try {
                    for (int i = dstPos; i < dstPos + length; i++) {
                        s.markDirty(c, i);
                    }
                } finally {
                    c.lock.unlock();
                }
            }
        }
    }

    public static Object storeInt(int[] a, int i, int v, Object known) {
        if (a == known) {
            a[i] = v;
            return known;
        }
        Copy c = begin(a);
        try {
            a[i] = v;
        } finally {
            end(c, i);
        }
        return c == null ? a : known;
    }

    public static Object storeLong(long[] a, int i, long v, Object known) {
        if (a == known) {
            a[i] = v;
            return known;
        }
        Copy c = begin(a);
        try {
            a[i] = v;
        } finally {
            end(c, i);
        }
        return c == null ? a : known;
    }

    public static Object storeFloat(float[] a, int i, float v, Object known) {
        if (a == known) {
            a[i] = v;
            return known;
        }
        Copy c = begin(a);
        try {
            a[i] = v;
        } finally {
            end(c, i);
        }
        return c == null ? a : known;
    }

    public static Object storeDouble(double[] a, int i, double v, Object known) {
        if (a == known) {
            a[i] = v;
            return known;
        }
        Copy c = begin(a);
        try {
            a[i] = v;
        } finally {
            end(c, i);
        }
        return c == null ? a : known;
    }

    public static Object storeChar(char[] a, int i, char v, Object known) {
        if (a == known) {
            a[i] = v;
            return known;
        }
        Copy c = begin(a);
        try {
            a[i] = v;
        } finally {
            end(c, i);
        }
        return c == null ? a : known;
    }

    public static Object storeShort(short[] a, int i, short v, Object known) {
        if (a == known) {
            a[i] = v;
            return known;
        }
        Copy c = begin(a);
        try {
            a[i] = v;
        } finally {
            end(c, i);
        }
        return c == null ? a : known;
    }

    /** {@code bastore}: a {@code byte[]} or a {@code boolean[]}. */
    public static Object storeByte(Object a, int i, int v, Object known) {
        Copy c = a == known ? null : begin(a);
        try {
            if (a instanceof boolean[] b) {
                b[i] = (v & 1) != 0;
            } else {
                ((byte[]) a)[i] = (byte) v;
            }
        } finally {
            end(c, i);
        }
        return c == null ? a : known;
    }

    public static Object storeRef(Object[] a, int i, Object v, Object known) {
        if (a == known) {
            a[i] = v;
            return known;
        }
        Copy c = begin(a);
        try {
            a[i] = v;
        } finally {
            end(c, i);
        }
        return c == null ? a : known;
    }

    /** The copy record of {@code a}, locked, or {@code null} when {@code a} is no copy. */
    private static Copy begin(Object a) {
        if (a == null) {
            throw new NullPointerException("cannot store into a null array");
        }
        if (!CopyTable.mayHold(a)) {
            return null;
        }
        Copy c = ObjectSpace.current().arrayCopy(a);
        if (c != null) {
            c.lock.lock();
        }
        return c;
    }

    private static void end(Copy c, int i) {
        if (c != null) {
            try {
                if (i >= 0 && i < java.lang.reflect.Array.getLength(c.target)) {
                    ObjectSpace.current().markDirty(c, i);
                }
            } finally {
                c.lock.unlock();
            }
        }
    }

    // ---- threads --------------------------------------------------------------------------------------------------

    /** After {@code new Thread(task)} (or with a name): remembers the task the thread will run. */
    public static void made(Thread t, Runnable task) {
        ObjectSpace.current().threads().made(t, task);
    }

    /** {@code t.start()}: runs the thread on the next node. */
    public static void start(Thread t) {
        ObjectSpace.current().threads().start(t);
    }

    public static void join(Thread t) throws InterruptedException {
        ObjectSpace.current().threads().join(t, 0);
    }

    public static void join(Thread t, long timeoutMs) throws InterruptedException {
        if (timeoutMs < 0) {
            throw new IllegalArgumentException("timeout value is negative: " + timeoutMs);
        }
        ObjectSpace.current().threads().join(t, timeoutMs);
    }

    /** {@code t.interrupt()} in the program: the thread is interrupted on whichever node runs it. */
    public static void interrupt(Thread t) {
        ObjectSpace.current().threads().interrupt(t);
    }

    public static boolean isAlive(Thread t) {
        return ObjectSpace.current().threads().isAlive(t);
    }

    public static Thread.State getState(Thread t) {
        return ObjectSpace.current().threads().state(t);
    }

    /** {@code Thread.holdsLock(o)}: whether the current thread holds {@code o}'s monitor as woven code takes it. */
    public static boolean holdsLock(Object o) {
        if (o == null) {
            throw new NullPointerException("holdsLock of null");
        }
        if (isSharedKind(o)) {
            long id = ObjectSpace.current().existingId(o);
            return id != 0 && ObjectSpace.current().heap().holdsLock(id);
        }
        if (o instanceof Class<?> c && ClassLayout.isProgramClass(c)) {
            return ObjectSpace.current().heap().holdsLock(ObjectSpace.current().heap().statics(c.getName(), 0));
        }
        return LocalMonitors.holds(o);
    }

    /** A {@code Runnable} lambda or method reference of the program, as a shared object (see SharedRunnable). */
    public static Runnable runnable(Object[] captures, String owner, String name, String descriptor, int kind) {
        return new SharedRunnable(captures, owner, name, descriptor, kind);
    }

    /** A {@code Callable} lambda or method reference of the program, as a shared object (see SharedCallable). */
    public static java.util.concurrent.Callable<Object> callable(Object[] captures, String owner, String name,
                                                                 String descriptor, int kind) {
        return new SharedCallable(captures, owner, name, descriptor, kind);
    }

    // ---- monitors -------------------------------------------------------------------------------------------------

    /** {@code monitorenter}: a shared object's (or program class's) cluster-wide monitor, else a node-local one. */
    public static void monitorEnter(Object o) {
        long id = sharedId(o);
        if (id != 0) {
            ObjectSpace.current().monitorEnter(o, id);
        } else {
            LocalMonitors.enter(o);
        }
    }

    public static void monitorExit(Object o) {
        long id = sharedId(o);
        if (id != 0) {
            ObjectSpace.current().heap().monitorExit(id);
        } else {
            LocalMonitors.exit(o);
        }
    }

    public static void await(Object o) throws InterruptedException {
        await(o, 0L);
    }

    public static void await(Object o, long timeoutMs) throws InterruptedException {
        if (timeoutMs < 0) {
            throw new IllegalArgumentException("timeout value is negative: " + timeoutMs);
        }
        long id = sharedId(o);
        if (id != 0) {
            ObjectSpace.current().heap().await(id, timeoutMs);
        } else {
            LocalMonitors.await(o, timeoutMs);
        }
    }

    public static void await(Object o, long timeoutMs, int nanos) throws InterruptedException {
        if (nanos < 0 || nanos > 999_999) {
            throw new IllegalArgumentException("nanosecond timeout value out of range: " + nanos);
        }
        await(o, timeoutMs + (nanos > 0 && timeoutMs < Long.MAX_VALUE ? 1 : 0));
    }

    public static void notifyOne(Object o) {
        long id = sharedId(o);
        if (id != 0) {
            ObjectSpace.current().heap().notifyOne(id);
        } else {
            LocalMonitors.notify(o, false);
        }
    }

    public static void notifyAll(Object o) {
        long id = sharedId(o);
        if (id != 0) {
            ObjectSpace.current().heap().notifyAll(id);
        } else {
            LocalMonitors.notify(o, true);
        }
    }

    /** The shared-heap id whose monitor stands for {@code o}'s, or {@code 0} if {@code o} keeps a node-local one. */
    /** Objects whose monitor is the cluster-wide one: the program's, arrays, and plain {@code Object}s. */
    private static boolean isSharedKind(Object o) {
        return o instanceof SharedObject || o.getClass().isArray() || o.getClass() == Object.class;
    }

    private static long sharedId(Object o) {
        if (o == null) {
            throw new NullPointerException("cannot synchronize on null");
        }
        if (isSharedKind(o)) {
            return ObjectSpace.current().idOf(o);
        }
        if (o instanceof Class<?> c && ClassLayout.isProgramClass(c)) {
            return ObjectSpace.current().heap().statics(c.getName(), 0);
        }
        return 0;
    }
}
