package dev.cumulus.internal.singlevm;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;

/**
 * What the agent's single-VM weaving calls around the program's reflective field and element accesses
 * ({@code Field}'s and {@code java.lang.reflect.Array}'s getters and setters; the agent's {@code ReflectionCalls}).
 * Those are JDK code, not woven: on a copy they would read the fields as last filled, and their writes would never be
 * marked dirty. So the hooks do around the JDK's own call what a woven access of the same field or element does: a
 * read of a stale copy fills it first; a write into a copy takes the copy's lock and marks the field or element dirty
 * once the JDK has written it (not when the JDK refused the call); a volatile field is read and written at its home,
 * with the acquire and release a woven volatile access has. The program's own call stays where it was, so the JDK
 * checks access as the program's code ({@code Field} is caller-sensitive), and its other checks (the argument's
 * class, the value's type, the index) and their exceptions are as on one JVM. Fields of JDK classes and arrays that
 * are no copies are the JDK's alone. Public only because woven program classes call it; not user API.
 */
public final class ReflectionHooks {
    /** What {@link #beginSet} returns for a volatile field: the write goes to the home at {@link #endSet}. */
    private static final Object VOLATILE = new Object();
    private static final Map<Class<?>, Class<?>> PRIMITIVE_OF_BOX = Map.of(Boolean.class, boolean.class,
        Byte.class, byte.class, Character.class, char.class, Short.class, short.class, Integer.class, int.class,
        Long.class, long.class, Float.class, float.class, Double.class, double.class);

    private ReflectionHooks() {
    }

    // ---- Field ----------------------------------------------------------------------------------------------------

    /**
     * True for a static field of a program class: the woven code asks {@code f.canAccess(null)} (as the program's
     * code) for {@link #beforeGet} and {@link #beginSet}.
     */
    public static boolean programStatic(Field f) {
        return Modifier.isStatic(f.getModifiers()) && shared(f);
    }

    /**
     * Before {@code f.get(o)} (or a typed getter): a stale copy of {@code o} (of the statics, for a static field, on a
     * node other than 0) is filled, as before a woven read. A volatile field is read at its home afterwards
     * ({@link #afterGet}); an {@code o} the JDK will refuse ({@code null}, not an instance of the field's class) is
     * left to it, and so is a static field the program's code may not access ({@code accessible} false: the JDK
     * refuses it without initialising its class).
     */
    public static void beforeGet(Field f, Object o, boolean accessible) {
        if (!shared(f) || Modifier.isVolatile(f.getModifiers()) || !accessible) {
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
     * After the JDK read field {@code f} of {@code o} and returned {@code v} (boxed): for a volatile field of a program
     * class, the value at its home instead, with an acquire, as the getter the program called returns it (an
     * {@code int} field's value read with {@code getLong} a {@code Long}); else {@code v}, but a {@code null} from a
     * copy's field that holds a JDK object this node cannot use stops the run, as a woven read of it does.
     */
    public static Object afterGet(Object v, Field f, Object o) {
        if (v == null && shared(f) && !Modifier.isVolatile(f.getModifiers())) {
            nullRead(f, o);
            return null;
        }
        if (!Modifier.isVolatile(f.getModifiers()) || !shared(f)) {
            return v;
        }
        Class<?> declaring = f.getDeclaringClass();
        Object home = Modifier.isStatic(f.getModifiers())
            ? ObjectSpace.current().getStaticVolatile(declaring, f.getName())
            : ObjectSpace.current().getVolatile(o, declaring, f.getName());
        return f.getType().isPrimitive() ? widened(home, PRIMITIVE_OF_BOX.get(v.getClass())) : home;
    }

    /** {@link #afterGet}'s {@code null} from field {@code f} of {@code o} (or a static field): foreign on a copy? */
    private static void nullRead(Field f, Object o) {
        ObjectSpace s = ObjectSpace.current();
        if (Modifier.isStatic(f.getModifiers())) {
            if (s.nodeId() != 0) {
                s.checkForeignStatic(f.getDeclaringClass(), f.getName());
            }
        } else if (f.getDeclaringClass().isInstance(o) && isCopy(o)) {
            s.checkForeign(o, f.getDeclaringClass(), f.getName());
        }
    }

    /**
     * Before {@code f.set(o, v)} (or a typed setter): for a field of a copy (of the statics, for a static field on a
     * node other than 0), the copy's record, locked, which {@link #endSet} marks dirty and unlocks once the JDK wrote
     * the field, or {@link #abandonSet} unlocks if the JDK refused; for a volatile field, a release first (the write
     * that follows must not be seen before it), and {@code VOLATILE}; else {@code null}, as for a static field the
     * program's code may not access ({@code accessible} false: the JDK refuses it without initialising its class).
     */
    public static Object beginSet(Field f, Object o, boolean accessible) {
        if (!shared(f) || !accessible) {
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

    /**
     * The JDK wrote {@code v} (boxed) into field {@code f} of {@code o} ({@code token} from {@link #beginSet}): a
     * copy's field is marked dirty and the copy unlocked; a volatile field is written at its home (the value as the JDK
     * widened it into the field).
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

    /**
     * The JDK refused the write {@link #beginSet} or {@link #beginArraySet} prepared ({@code token}): the copy is
     * unlocked, nothing marked.
     */
    public static void abandonSet(Object token) {
        if (token instanceof Copy c) {
            c.lock.unlock();
        }
    }

    // ---- Array ----------------------------------------------------------------------------------------------------

    /** Before {@code Array.get(a, i)} (or a typed getter): the block of a stale copy that element falls in is filled. */
    public static void beforeArrayGet(Object a, int i) {
        if (a != null && a.getClass().isArray()) {
            JdkArrayHooks.readArrayRange(a, i, i + 1);
        }
    }

    /**
     * Before {@code Array.set(a, i, v)} (or a typed setter): the copy record of {@code a}, locked, when {@code a} is a
     * copy ({@link #endArraySet} marks the element dirty and unlocks it, {@link #abandonSet} only unlocks it), else
     * {@code null}.
     */
    public static Object beginArraySet(Object a) {
        return SingleVmHooks.remoteArrays && a != null && a.getClass().isArray() ? SingleVmHooks.begin(a) : null;
    }

    /** The JDK stored element {@code i} of the array {@link #beginArraySet} returned {@code token} for. */
    public static void endArraySet(Object token, int i) {
        SingleVmHooks.end((Copy) token, i);
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    /** A field the heap keeps: one declared by a program class (a JDK class's fields are the JDK's business). */
    private static boolean shared(Field f) {
        return ClassLayout.isProgramClass(f.getDeclaringClass());
    }

    private static boolean isCopy(Object o) {
        return (int) ClassLayout.of(o.getClass()).state.getVolatile(o) != 0;
    }

    /**
     * {@code v} (a {@code Boolean}, a {@code Character} or a number, which the JDK has just accepted for, or read from,
     * a field of primitive type) as the box of primitive type {@code type}, widened as the JDK widens.
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
}
