package dev.cumulus.internal.singlevm;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * What the agent's single-VM weaving calls around the program's reflective field accesses and in place of its
 * reflective element accesses ({@code Field}'s getters and setters, {@code java.lang.reflect.Array}'s; the agent's
 * {@code ReflectionCalls}). Those are JDK code, not woven: on a copy they would read the fields as last filled, and
 * their writes would never be marked dirty. So the hooks do around the JDK's own call what a woven access of the same
 * field or element does: a read of a stale copy fills it first; a write into a copy takes the copy's lock and marks
 * the field or element dirty once the JDK has written it (not when the JDK refused the call); a volatile field is read
 * and written at its home, with the acquire and release a woven volatile access has. The program's own call of
 * {@code Field} stays where it was, so the JDK checks access as the program's code (a caller-sensitive check), and its
 * other checks (the argument's class, the value's type, the index) and their exceptions are as on one JVM. Fields of
 * JDK classes and arrays that are no copies are the JDK's alone. Public only because woven program classes call it;
 * not user API.
 */
public final class ReflectionHooks {
    /** What {@link #beginSet} returns for a volatile field: the write goes to the home at {@link #endSet}. */
    private static final Object VOLATILE = new Object();

    private ReflectionHooks() {
    }

    // ---- Field: reads, around the program's own call ----------------------------------------------------------

    /**
     * Before {@code f.get(o)} (or a typed getter): a stale copy of {@code o} (of the statics, for a static field, on a
     * node other than 0) is filled, as before a woven read. A volatile field is read at its home afterwards
     * ({@code afterGet}); an {@code o} the JDK will refuse ({@code null}, not an instance of the field's class) is
     * left to it.
     */
    public static void beforeGet(Field f, Object o) {
        if (!shared(f) || Modifier.isVolatile(f.getModifiers())) {
            return;
        }
        Class<?> declaring = f.getDeclaringClass();
        if (Modifier.isStatic(f.getModifiers())) {
            initialise(declaring);
            ObjectSpace s = ObjectSpace.current();
            if (s.nodeId() != 0) {
                s.fetchStatics(declaring, f.getName());
            }
        } else if (declaring.isInstance(o)) {
            ObjectSpace.current().fetch(o, f.getName());
        }
    }

    /**
     * After the JDK read {@code v} from field {@code f} of {@code o}: for a volatile field of a program class, the
     * value at its home instead, with an acquire; else {@code v}. The typed overloads are the typed getters'.
     */
    public static Object afterGet(Object v, Field f, Object o) {
        return sharedVolatile(f) ? volatileRead(f, o) : v;
    }

    public static boolean afterGet(boolean v, Field f, Object o) {
        return sharedVolatile(f) ? (Boolean) volatileRead(f, o) : v;
    }

    public static byte afterGet(byte v, Field f, Object o) {
        return sharedVolatile(f) ? (Byte) volatileRead(f, o) : v;
    }

    public static char afterGet(char v, Field f, Object o) {
        return sharedVolatile(f) ? (Character) volatileRead(f, o) : v;
    }

    public static short afterGet(short v, Field f, Object o) {
        return sharedVolatile(f) ? ((Number) widened(volatileRead(f, o), short.class)).shortValue() : v;
    }

    public static int afterGet(int v, Field f, Object o) {
        return sharedVolatile(f) ? ((Number) widened(volatileRead(f, o), int.class)).intValue() : v;
    }

    public static long afterGet(long v, Field f, Object o) {
        return sharedVolatile(f) ? ((Number) widened(volatileRead(f, o), long.class)).longValue() : v;
    }

    public static float afterGet(float v, Field f, Object o) {
        return sharedVolatile(f) ? ((Number) widened(volatileRead(f, o), float.class)).floatValue() : v;
    }

    public static double afterGet(double v, Field f, Object o) {
        return sharedVolatile(f) ? ((Number) widened(volatileRead(f, o), double.class)).doubleValue() : v;
    }

    // ---- Field: writes, around the program's own call ---------------------------------------------------------

    /**
     * Before {@code f.set(o, v)} (or a typed setter): for a field of a copy (of the statics, for a static field on a
     * node other than 0), the copy's record, locked, which {@link #endSet} marks dirty and unlocks once the JDK wrote
     * the field, or {@link #abandonSet} unlocks if the JDK refused; for a volatile field, a release first (the write
     * that follows must not be seen before it), and {@code VOLATILE}; else {@code null}.
     */
    public static Object beginSet(Field f, Object o) {
        if (!shared(f)) {
            return null;
        }
        Class<?> declaring = f.getDeclaringClass();
        boolean isStatic = Modifier.isStatic(f.getModifiers());
        if (isStatic) {
            initialise(declaring);
        }
        ObjectSpace s = ObjectSpace.current();
        if (Modifier.isVolatile(f.getModifiers())) {
            s.release();
            return VOLATILE;
        }
        if (isStatic) {
            return s.nodeId() != 0 ? s.beginStaticWrite(declaring, f.getName()) : null;
        }
        return declaring.isInstance(o) && isCopy(o) ? s.beginWrite(o) : null;
    }

    /** The JDK refused the write {@link #beginSet} prepared ({@code token}): the copy is unlocked, nothing marked. */
    public static void abandonSet(Object token) {
        if (token instanceof Copy c) {
            c.lock.unlock();
        }
    }

    /**
     * The JDK wrote {@code v} into field {@code f} of {@code o} ({@code token} from {@link #beginSet}): a copy's field
     * is marked dirty and the copy unlocked; a volatile field is written at its home (the value as the JDK widened
     * it). The typed overloads box {@code v}.
     */
    public static void endSet(Object token, Field f, Object o, Object v) {
        if (token instanceof Copy c) {
            try {
                ObjectSpace.current().markDirty(c, c.layout.indexOf(f.getDeclaringClass(), f.getName()));
            } finally {
                c.lock.unlock();
            }
        } else if (token == VOLATILE) {
            Object value = f.getType().isPrimitive() ? widened(v, f.getType()) : v;
            if (Modifier.isStatic(f.getModifiers())) {
                ObjectSpace.current().putStaticVolatile(value, f.getDeclaringClass(), f.getName());
            } else {
                ObjectSpace.current().putVolatile(o, value, f.getDeclaringClass(), f.getName());
            }
        }
    }

    public static void endSet(Object token, Field f, Object o, boolean v) {
        endSet(token, f, o, (Boolean) v);
    }

    public static void endSet(Object token, Field f, Object o, byte v) {
        endSet(token, f, o, (Byte) v);
    }

    public static void endSet(Object token, Field f, Object o, char v) {
        endSet(token, f, o, (Character) v);
    }

    public static void endSet(Object token, Field f, Object o, short v) {
        endSet(token, f, o, (Short) v);
    }

    public static void endSet(Object token, Field f, Object o, int v) {
        endSet(token, f, o, (Integer) v);
    }

    public static void endSet(Object token, Field f, Object o, long v) {
        endSet(token, f, o, (Long) v);
    }

    public static void endSet(Object token, Field f, Object o, float v) {
        endSet(token, f, o, (Float) v);
    }

    public static void endSet(Object token, Field f, Object o, double v) {
        endSet(token, f, o, (Double) v);
    }

    // ---- Array: in place of the program's call (not caller-sensitive) ------------------------------------------

    public static Object arrayGet(Object a, int i) {
        fillElement(a, i);
        return Array.get(a, i);
    }

    public static boolean arrayGetBoolean(Object a, int i) {
        fillElement(a, i);
        return Array.getBoolean(a, i);
    }

    public static byte arrayGetByte(Object a, int i) {
        fillElement(a, i);
        return Array.getByte(a, i);
    }

    public static char arrayGetChar(Object a, int i) {
        fillElement(a, i);
        return Array.getChar(a, i);
    }

    public static short arrayGetShort(Object a, int i) {
        fillElement(a, i);
        return Array.getShort(a, i);
    }

    public static int arrayGetInt(Object a, int i) {
        fillElement(a, i);
        return Array.getInt(a, i);
    }

    public static long arrayGetLong(Object a, int i) {
        fillElement(a, i);
        return Array.getLong(a, i);
    }

    public static float arrayGetFloat(Object a, int i) {
        fillElement(a, i);
        return Array.getFloat(a, i);
    }

    public static double arrayGetDouble(Object a, int i) {
        fillElement(a, i);
        return Array.getDouble(a, i);
    }

    public static void arraySet(Object a, int i, Object v) {
        storeElement(a, i, () -> Array.set(a, i, v));
    }

    public static void arraySetBoolean(Object a, int i, boolean v) {
        storeElement(a, i, () -> Array.setBoolean(a, i, v));
    }

    public static void arraySetByte(Object a, int i, byte v) {
        storeElement(a, i, () -> Array.setByte(a, i, v));
    }

    public static void arraySetChar(Object a, int i, char v) {
        storeElement(a, i, () -> Array.setChar(a, i, v));
    }

    public static void arraySetShort(Object a, int i, short v) {
        storeElement(a, i, () -> Array.setShort(a, i, v));
    }

    public static void arraySetInt(Object a, int i, int v) {
        storeElement(a, i, () -> Array.setInt(a, i, v));
    }

    public static void arraySetLong(Object a, int i, long v) {
        storeElement(a, i, () -> Array.setLong(a, i, v));
    }

    public static void arraySetFloat(Object a, int i, float v) {
        storeElement(a, i, () -> Array.setFloat(a, i, v));
    }

    public static void arraySetDouble(Object a, int i, double v) {
        storeElement(a, i, () -> Array.setDouble(a, i, v));
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    /** A field the heap keeps: one declared by a program class (a JDK class's fields are the JDK's business). */
    private static boolean shared(Field f) {
        return ClassLayout.isProgramClass(f.getDeclaringClass());
    }

    private static boolean sharedVolatile(Field f) {
        return Modifier.isVolatile(f.getModifiers()) && shared(f);
    }

    /**
     * Volatile field {@code f} of {@code o}, which the JDK has just read (so accepted {@code o}), read at its home with
     * an acquire (the value boxed as the field's type).
     */
    private static Object volatileRead(Field f, Object o) {
        Class<?> declaring = f.getDeclaringClass();
        if (Modifier.isStatic(f.getModifiers())) {
            return ObjectSpace.current().getStaticVolatile(declaring, f.getName());
        }
        return ObjectSpace.current().getVolatile(o, declaring, f.getName());
    }

    private static boolean isCopy(Object o) {
        return (int) ClassLayout.of(o.getClass()).state.getVolatile(o) != 0;
    }

    /**
     * {@code v} (a {@code Boolean}, a {@code Character} or a number, which the JDK has just accepted for a field of
     * primitive type {@code type}) as that type's box, widened as the JDK widened it.
     */
    static Object widened(Object v, Class<?> type) {
        if (type == boolean.class || type == char.class || type == byte.class) {
            return v;
        }
        Number n = v instanceof Character c ? Integer.valueOf(c) : (Number) v;
        if (type == short.class) {
            return n.shortValue();
        }
        if (type == int.class) {
            return n.intValue();
        }
        if (type == long.class) {
            return n.longValue();
        }
        if (type == float.class) {
            return n.floatValue();
        }
        return n.doubleValue();
    }

    /** The JDK initialises a field's class before it reads or writes a static field reflectively; so, first, here. */
    private static void initialise(Class<?> type) {
        try {
            Class.forName(type.getName(), true, type.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("class " + type.getName() + " is loaded but cannot be found by name", e);
        }
    }

    /** Before a reflective read of element {@code i} of {@code a}: the block of a stale copy it falls in is filled. */
    private static void fillElement(Object a, int i) {
        if (a != null && a.getClass().isArray()) {
            JdkArrayHooks.readArrayRange(a, i, i + 1);
        }
    }

    /** A reflective store into element {@code i} of {@code a}: into a copy under its lock, dirty once written. */
    private static void storeElement(Object a, int i, Runnable jdk) {
        Copy c = SingleVmHooks.remoteArrays && a != null && a.getClass().isArray() && CopyTable.mayHold(a)
            ? ObjectSpace.current().arrayCopy(a) : null;
        if (c == null) {
            jdk.run();
            return;
        }
        c.lock.lock();
        try {
            jdk.run();
            ObjectSpace.current().markDirty(c, i);
        } finally {
            c.lock.unlock();
        }
    }
}
