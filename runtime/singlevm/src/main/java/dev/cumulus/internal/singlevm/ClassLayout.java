package dev.cumulus.internal.singlevm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fields of a woven program class as the shared heap sees them: an object's instance fields (those of its program
 * classes, superclass first, in declaration order) or a class's own static fields, each with a {@link VarHandle}, and
 * the state and id fields the agent added. Built once per class (a {@link ClassValue}); immutable.
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

    final Class<?> type;
    final Field[] fields;
    final VarHandle[] handles;
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

    int size() {
        return fields.length;
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
