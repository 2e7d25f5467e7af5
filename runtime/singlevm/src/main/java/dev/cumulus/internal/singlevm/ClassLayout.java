package dev.cumulus.internal.singlevm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fields of a woven program class as the shared heap sees them: an object's instance fields (those of its program
 * classes, superclass first, in declaration order) or a class's own static fields, each with a {@link VarHandle}, and
 * the state and id fields the agent added. An object's entries are its fields and, for a program exception, one more
 * after them: the state {@code Throwable} keeps ({@link ThrowableState}). The fields of the JDK classes it extends are
 * no entries: a class whose JDK superclasses have any (besides {@code Throwable}'s and {@code Thread}'s, which the
 * heap handles, and the per-node bookkeeping of {@code AbstractList} and {@code AbstractMap}) names the JDK class in
 * {@link #unsharedJdkState}, and its objects cannot leave their node. Built once per class (a {@link ClassValue});
 * immutable.
 */
final class ClassLayout {
    static final String PREFIX = "$cumulus$";
    static final String STATE = PREFIX + "state";
    static final String ID = PREFIX + "id";
    static final String STATICS = PREFIX + "statics";

    private static final ClassValue<ClassLayout> INSTANCE = new ClassValue<>() {
        @Override
        protected ClassLayout computeValue(Class<?> type) {
            return new ClassLayout(type, false);
        }
    };
    private static final ClassValue<ClassLayout> STATIC = new ClassValue<>() {
        @Override
        protected ClassLayout computeValue(Class<?> type) {
            return new ClassLayout(type, true);
        }
    };

    /**
     * JDK classes whose instance fields are per-node bookkeeping a program subclass may keep per copy:
     * {@code AbstractList.modCount} (fail-fast iteration) and {@code AbstractMap}'s cached key and value views.
     */
    private static final Set<Class<?>> PER_NODE_JDK_STATE = Set.of(AbstractList.class, AbstractMap.class);

    final Class<?> type;
    final Field[] fields;
    final VarHandle[] handles;
    /** A program exception: one more entry after the fields, its {@link ThrowableState}. */
    final boolean throwable;
    /**
     * The JDK superclass this program class extends ({@code type}'s nearest) if a JDK class between it and
     * {@code Object} has instance state the heap does not carry, else {@code null}. Always {@code null} for statics.
     */
    final Class<?> unsharedJdkState;
    /** The object's {@code $cumulus$state} and {@code $cumulus$id}, or for statics the class's {@code $cumulus$statics}. */
    final VarHandle state;
    final VarHandle id;
    /** Whether every field is final (a record's, say): a copy that was ever filled never needs another fetch. */
    final boolean allFinal;
    private final Map<String, Integer> byName = new ConcurrentHashMap<>();

    private ClassLayout(Class<?> type, boolean statics) {
        this.type = type;
        List<Field> found = new ArrayList<>();
        if (statics) {
            requireProgramClass(type);
            for (Field f : type.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && !f.getName().startsWith(PREFIX)
                        && !Modifier.isFinal(f.getModifiers())) { // the weaver keeps final only on constants
                    found.add(f);
                }
            }
        } else {
            List<Class<?>> chain = new ArrayList<>();
            for (Class<?> k = type; k != null && isProgramClass(k); k = k.getSuperclass()) {
                chain.addFirst(k);
            }
            for (Class<?> k : chain) {
                for (Field f : k.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && !f.getName().startsWith(PREFIX)) {
                        found.add(f);
                    }
                }
            }
        }
        this.fields = found.toArray(Field[]::new);
        this.allFinal = found.stream().allMatch(f -> Modifier.isFinal(f.getModifiers()));
        this.throwable = !statics && Throwable.class.isAssignableFrom(type);
        this.unsharedJdkState = statics ? null : unsharedJdkState(type);
        this.handles = new VarHandle[fields.length];
        try {
            for (int i = 0; i < fields.length; i++) {
                Field f = fields[i];
                MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(f.getDeclaringClass(),
                    MethodHandles.lookup());
                handles[i] = statics ? lookup.findStaticVarHandle(f.getDeclaringClass(), f.getName(), f.getType())
                    : lookup.findVarHandle(f.getDeclaringClass(), f.getName(), f.getType());
                byName.put(f.getDeclaringClass().getName() + '.' + f.getName(), i);
            }
            if (statics) {
                this.state = MethodHandles.privateLookupIn(type, MethodHandles.lookup())
                    .findStaticVarHandle(type, STATICS, int.class);
                this.id = null;
            } else {
                Class<?> top = type.getField(STATE).getDeclaringClass();
                MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(top, MethodHandles.lookup());
                this.state = lookup.findVarHandle(top, STATE, int.class);
                this.id = lookup.findVarHandle(top, ID, long.class);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("class " + type.getName() + " is not woven for the single-VM mode (run "
                + "it with cumulus run --single-vm, which starts the agent): " + e, e);
        }
    }

    /** The layout of an instance of {@code type} (a woven program class). */
    static ClassLayout of(Class<?> type) {
        return INSTANCE.get(type);
    }

    /** The layout of {@code type}'s own static fields. */
    static ClassLayout statics(Class<?> type) {
        return STATIC.get(type);
    }

    private static final ClassValue<Constructor<?>> BARE = new ClassValue<>() {
        @Override
        protected Constructor<?> computeValue(Class<?> type) {
            return bareConstructor(type);
        }
    };

    /**
     * A new instance of program class {@code type} made without running a constructor, its fields at their defaults:
     * a copy before its first fill, or the master of an object published to this node before its image is stored.
     */
    static Object instantiate(Class<?> type) throws ReflectiveOperationException {
        return BARE.get(type).newInstance();
    }

    @SuppressWarnings("restriction")
    private static Constructor<?> bareConstructor(Class<?> type) {
        try {
            Constructor<?> c = sun.reflect.ReflectionFactory.getReflectionFactory()
                .newConstructorForSerialization(type, Object.class.getDeclaredConstructor());
            c.setAccessible(true);
            return c;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final ClassValue<Boolean> PROGRAM = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                type.getDeclaredField(STATICS);
                return true;
            } catch (NoSuchFieldException e) {
                return false;
            }
        }
    };

    /** True if {@code type} is a program class woven for the single-VM mode. */
    static boolean isProgramClass(Class<?> type) {
        return PROGRAM.get(type);
    }

    private static void requireProgramClass(Class<?> type) {
        if (!isProgramClass(type)) {
            throw new IllegalStateException("class " + type.getName() + " is not woven for the single-VM mode");
        }
    }

    /**
     * The nearest JDK superclass of program class {@code type} if it or a JDK class above it (below {@code Object})
     * declares instance fields the heap does not carry, else {@code null}.
     */
    private static Class<?> unsharedJdkState(Class<?> type) {
        Class<?> jdk = type;
        while (jdk != null && isProgramClass(jdk)) {
            jdk = jdk.getSuperclass();
        }
        for (Class<?> k = jdk; k != null && k != Object.class; k = k.getSuperclass()) {
            if (k == Thread.class || k == Throwable.class || PER_NODE_JDK_STATE.contains(k)) {
                continue;
            }
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    return jdk;
                }
            }
        }
        return null;
    }

    /** How many entries: the fields, and a program exception's state. */
    int size() {
        return fields.length + (throwable ? 1 : 0);
    }

    /** Whether entry {@code i} is a program exception's {@link ThrowableState}, not a field. */
    private boolean isThrowableState(int i) {
        return i == fields.length;
    }

    /** The declared type of entry {@code i}. */
    Class<?> typeOf(int i) {
        return isThrowableState(i) ? ThrowableState.class : fields[i].getType();
    }

    /** Entry {@code i} as messages and profiles name it: {@code Class.field}, or {@code Throwable's state}. */
    String nameOf(int i) {
        return isThrowableState(i) ? "java.lang.Throwable's state"
            : fields[i].getDeclaringClass().getName() + '.' + fields[i].getName();
    }

    /** Entry {@code i} as a profile names it: the field's name, or {@code Throwable}. */
    String simpleNameOf(int i) {
        return isThrowableState(i) ? "Throwable" : fields[i].getName();
    }

    /** Entry {@code i} of object {@code o}, a plain read. */
    Object get(Object o, int i) {
        return isThrowableState(i) ? ThrowableState.of((Throwable) o) : handles[i].get(o);
    }

    /** Entry {@code i} of object {@code o}, a volatile read. */
    Object getVolatile(Object o, int i) {
        return isThrowableState(i) ? ThrowableState.of((Throwable) o) : handles[i].getVolatile(o);
    }

    /** Stores {@code v} in entry {@code i} of object {@code o}, a plain write. */
    void set(Object o, int i, Object v) {
        if (isThrowableState(i)) {
            ((ThrowableState) v).writeInto((Throwable) o);
        } else {
            handles[i].set(o, v);
        }
    }

    /** Stores {@code v} in entry {@code i} of object {@code o}, a volatile write. */
    void setVolatile(Object o, int i, Object v) {
        if (isThrowableState(i)) {
            ((ThrowableState) v).writeInto((Throwable) o);
        } else {
            handles[i].setVolatile(o, v);
        }
    }

    /** The index of field {@code name} as {@code owner} (a getfield's or putfield's class) names it. */
    int indexOf(Class<?> owner, String name) {
        for (Class<?> k = owner; k != null; k = k.getSuperclass()) {
            Integer i = byName.get(k.getName() + '.' + name);
            if (i != null) {
                return i;
            }
        }
        throw new IllegalStateException("class " + type.getName() + " has no shared field " + owner.getName() + '.'
            + name);
    }
}
