package dev.cumulus.internal.codec;

import dev.cumulus.Transferable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The classes a {@link ValueCodec} may resolve from a message's class table: an explicit list, not "every record, enum
 * and {@code @Transferable} class on the classpath". A class named on the wire is decoded only if
 * <ul>
 *   <li>it is one of the JDK's listed value kinds (boxes, {@code String}, the collections and value classes of
 *       docs/design/TRANSFER.md, {@code Object}, {@code Number}) or a JDK interface (as an array's element type);</li>
 *   <li>or it was added here: by the runtime, from the method signatures of exported interfaces, proxies' interfaces
 *       and cloud classes and the field types of PastSet templates, each with its transferable components (record
 *       components, {@code @Transferable} fields, type arguments, array elements, a sealed type's permitted
 *       subclasses); or by the user ({@code dev.cumulus.Transfers.allow});</li>
 *   <li>or it is an array of such classes, or the class of a constant with a body of an allowed enum.</li>
 * </ul>
 * The name is checked before the class is loaded, and the loaded class (loaded without initialisation) before
 * anything initialises it, so nothing else is loaded by name from a message or initialised. Classes are kept by
 * identity, so a class of another class loader with the same name is not allowed by this one.
 *
 * <p>Thread-safe; grows only. {@link #shared()} is the list every codec of the runtime uses (one per JVM: the nodes of
 * an in-process cluster run the same program).
 */
public final class TransferAllowList {
    private static final TransferAllowList SHARED = new TransferAllowList();

    private final Set<Class<?>> allowed = ConcurrentHashMap.newKeySet();
    private final Set<String> names = ConcurrentHashMap.newKeySet();
    /** Classes and methods whose signatures were walked already (signatures are walked once). */
    private final Set<Object> walked = ConcurrentHashMap.newKeySet();

    /** The JVM's list, used by every codec of the runtime. */
    public static TransferAllowList shared() {
        return SHARED;
    }

    /** A new list holding {@code types} and their transferable components (for tools and tests). */
    public static TransferAllowList of(Class<?>... types) {
        TransferAllowList list = new TransferAllowList();
        for (Class<?> type : types) {
            list.allow(type);
        }
        return list;
    }

    /**
     * Forgets every class of {@code loader} (a departed client's name space on a standing cluster's server), so the
     * loader can be collected; names that a class of another loader still holds stay allowed.
     */
    public void forget(ClassLoader loader) {
        java.util.List<Class<?>> gone = allowed.stream().filter(c -> c.getClassLoader() == loader).toList();
        gone.forEach(allowed::remove);
        walked.removeIf(o -> o instanceof Class<?> c ? c.getClassLoader() == loader
            : o instanceof java.lang.reflect.Method m && m.getDeclaringClass().getClassLoader() == loader);
        for (Class<?> c : gone) {
            if (allowed.stream().noneMatch(a -> a.getName().equals(c.getName()))) {
                names.remove(c.getName());
            }
        }
    }

    /** Allows {@code type} and its transferable components (record components, fields, type arguments, ...). */
    public void allow(Type type) {
        ArrayDeque<Type> queue = new ArrayDeque<>();
        queue.add(Objects.requireNonNull(type, "type"));
        drain(queue);
    }

    /**
     * Allows every type in the signature (parameters, result, with type arguments) of every public method of
     * {@code type} and its supertypes, with their components; for a class, also the type arguments it gives its
     * generic supertypes ({@code class Impl implements Worker<Point>} allows {@code Point}).
     */
    public void allowSignatures(Class<?> type) {
        if (walked.contains(type)) {
            return; // marked only once its walk is done: another thread meanwhile walks it too, which is harmless
        }
        ArrayDeque<Type> queue = new ArrayDeque<>();
        for (Method method : type.getMethods()) {
            if (method.getDeclaringClass() != Object.class) {
                addSignature(method, queue);
            }
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            queue.add(c.getGenericSuperclass() == null ? Object.class : c.getGenericSuperclass());
            queue.addAll(java.util.List.of(c.getGenericInterfaces()));
        }
        drain(queue);
        walked.add(type);
    }

    /** Allows the types in one method's signature, with their components. */
    public void allowSignature(Method method) {
        if (walked.contains(method)) {
            return;
        }
        ArrayDeque<Type> queue = new ArrayDeque<>();
        addSignature(method, queue);
        drain(queue);
        walked.add(method);
    }

    private static void addSignature(Method method, ArrayDeque<Type> queue) {
        queue.add(method.getGenericReturnType());
        queue.addAll(java.util.List.of(method.getGenericParameterTypes()));
    }

    private void drain(ArrayDeque<Type> queue) {
        Set<Type> seen = new java.util.HashSet<>();
        while (!queue.isEmpty()) {
            Type type = queue.poll();
            if (!seen.add(type)) {
                continue;
            }
            switch (type) {
                case Class<?> c -> addClass(c, queue);
                case ParameterizedType p -> {
                    queue.add(p.getRawType());
                    queue.addAll(java.util.List.of(p.getActualTypeArguments()));
                }
                case GenericArrayType g -> queue.add(g.getGenericComponentType());
                case WildcardType w -> {
                    queue.addAll(java.util.List.of(w.getUpperBounds()));
                    queue.addAll(java.util.List.of(w.getLowerBounds()));
                }
                case TypeVariable<?> v -> queue.addAll(java.util.List.of(v.getBounds()));
                default -> { }
            }
        }
    }

    private void addClass(Class<?> c, ArrayDeque<Type> queue) {
        if (c.isArray()) {
            queue.add(c.getComponentType());
            return;
        }
        if (c.isPrimitive() || c == Object.class || !allowed.add(c)) {
            return;
        }
        names.add(c.getName());
        if (c.isRecord()) {
            for (RecordComponent component : c.getRecordComponents()) {
                queue.add(component.getGenericType());
            }
        } else if (c.isAnnotationPresent(Transferable.class)) {
            for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                for (Field field : k.getDeclaredFields()) {
                    int modifiers = field.getModifiers();
                    if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers)) {
                        queue.add(field.getGenericType());
                    }
                }
            }
        }
        if (c.isSealed()) {
            queue.addAll(java.util.List.of(c.getPermittedSubclasses()));
        }
    }

    /**
     * Whether a class of this name may be loaded for a message: an allowed class has that name, or it is a JDK class
     * ({@code java.*}: loading it runs nothing; {@link #permits} decides after), or an array of those or of primitives.
     */
    public boolean permitsName(String name) {
        String element = name;
        if (element.startsWith("[")) {
            element = element.substring(element.lastIndexOf('[') + 1);
            if (element.length() == 1) {
                return true; // a primitive array
            }
            if (!element.startsWith("L") || !element.endsWith(";")) {
                return false;
            }
            element = element.substring(1, element.length() - 1);
        }
        return names.contains(element) || element.startsWith("java.") || names.contains(outerName(element));
    }

    /** {@code a.Color} for {@code a.Color$1} (a constant's body of an enum). */
    private static String outerName(String name) {
        int dollar = name.lastIndexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }

    /** Whether a loaded (not initialised) class may be decoded. */
    boolean permits(Class<?> type) {
        if (type.isArray()) {
            Class<?> component = type.getComponentType();
            return component.isPrimitive() || permits(component);
        }
        if (allowed.contains(type) || TypeInfo.isBuiltIn(type)) {
            return true;
        }
        if (type.getClassLoader() == null && type.isInterface()) {
            return true; // a JDK interface: only ever an array's element type
        }
        Class<?> superclass = type.getSuperclass();
        return superclass != null && superclass.isEnum() && allowed.contains(superclass);
    }

    @Override
    public String toString() {
        return "TransferAllowList[" + allowed.size() + " classes]";
    }
}
