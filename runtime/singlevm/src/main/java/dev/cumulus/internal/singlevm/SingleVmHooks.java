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

    /**
     * A woven read of reference field {@code owner.name} of copy {@code o} (not a master) gave {@code null}: if its home
     * holds a JDK object this node cannot use there, the read stops the run naming the field, the object's class and
     * where it was made (docs/design/SINGLEVM.md, "JDK objects"); else the {@code null} is the field's value.
     */
    public static void nullRead(Object o, Class<?> owner, String name) {
        ObjectSpace.current().checkForeign(o, owner, name);
    }

    /** As {@link #nullRead} for static field {@code owner.name} on a node other than 0 (whose statics are copies). */
    public static void nullStaticRead(Class<?> owner, String name) {
        ObjectSpace.current().checkForeignStatic(owner, name);
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
     * A woven {@code aaload} of element {@code i} of {@code a} gave {@code null}, on a node that holds copies: when
     * {@code a} is a copy (not {@code known}, the array the site found to be none) whose element is foreign, the read
     * stops the run as {@link #nullRead} does.
     */
    public static void nullElement(Object a, int i, Object known) {
        if (a != known && CopyTable.mayHold(a)) {
            ObjectSpace s = ObjectSpace.current();
            Copy c = s.arrayCopy(a);
            if (c != null) {
                s.checkForeign(c, i, i + 1);
            }
        }
    }

    /**
     * {@code System.arraycopy}: the source is filled if it is a stale copy (a foreign element in the range stops the
     * run, as a read of it would); the copied elements of a copy are dirty.
     */
    public static void arraycopy(Object src, int srcPos, Object dst, int dstPos, int length) {
        if (!remoteArrays || src == null || dst == null) {
            System.arraycopy(src, srcPos, dst, dstPos, length);
            return;
        }
        ObjectSpace s = ObjectSpace.current();
        Copy source = CopyTable.mayHold(src) ? s.arrayCopy(src) : null;
        if (source != null) {
            s.fillRange(source, srcPos, length);
            s.checkForeign(source, srcPos, srcPos + length);
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
    static Copy begin(Object a) {
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

    /** After a store into element {@code i} of the array {@link #begin} returned {@code c} for: dirty, unlocked. */
    static void end(Copy c, int i) {
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

    // ---- the program's end ----------------------------------------------------------------------------------------

    /** {@code System.exit(status)} in the program: every node ends with {@code status} ({@link ProgramExit}). */
    public static void exit(int status) {
        ProgramExit.exit(ObjectSpace.current(), status, false);
    }

    /** {@code Runtime.exit(status)} in the program: as {@link #exit(int)}. */
    public static void exit(Runtime runtime, int status) {
        ProgramExit.exit(ObjectSpace.current(), status, false);
    }

    /** {@code Runtime.halt(status)} in the program: every node halts with {@code status}, running no shutdown hook. */
    public static void halt(Runtime runtime, int status) {
        ProgramExit.exit(ObjectSpace.current(), status, true);
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
