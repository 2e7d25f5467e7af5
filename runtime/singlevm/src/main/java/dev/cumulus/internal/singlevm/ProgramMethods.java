package dev.cumulus.internal.singlevm;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a call of an instance method runs the program's own code: the first class up from the receiver's class that
 * declares the method is a program class (woven), not a JDK one, or no class declares it and the default method that
 * runs is a program interface's. {@link JdkArrayHooks} asks before it gives a JDK
 * method that writes into an array a private clone: a program class may override that method ({@code read} of a
 * program {@code InputStream}), and then its own code gets the program's array. Cached per class and method.
 */
final class ProgramMethods {
    private static final ClassValue<Map<String, Boolean>> DECLARED = new ClassValue<>() {
        @Override
        protected Map<String, Boolean> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private ProgramMethods() {
    }

    /**
     * True if {@code type}'s method {@code method} (name and descriptor, {@code read([BII)I}) is the program's code: the
     * first class up from {@code type} that declares it is a program class, or, when no class declares it, the most
     * specific interface default is a program interface's (as the JVM selects the method a call runs).
     */
    static boolean declares(Class<?> type, String method) {
        if (!ClassLayout.isProgramClass(type)) {
            return false;
        }
        return DECLARED.get(type).computeIfAbsent(method, m -> find(type, m));
    }

    private static boolean find(Class<?> type, String method) {
        for (Class<?> k = type; k != null; k = k.getSuperclass()) {
            if (declared(k, method) != null) {
                return ClassLayout.isProgramClass(k);
            }
        }
        List<Class<?>> defaults = new ArrayList<>();
        for (Class<?> i : interfaces(type, new LinkedHashSet<>())) {
            Method m = declared(i, method);
            if (m != null && m.isDefault()) {
                defaults.add(i);
            }
        }
        defaults.removeIf(i -> defaults.stream().anyMatch(other -> other != i && i.isAssignableFrom(other)));
        return defaults.size() == 1 && !isJdk(defaults.get(0));
    }

    /** {@code type}'s instance method {@code method}, or {@code null}. */
    private static Method declared(Class<?> type, String method) {
        for (Method m : type.getDeclaredMethods()) {
            if (!Modifier.isStatic(m.getModifiers()) && method.equals(m.getName()
                    + MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString())) {
                return m;
            }
        }
        return null;
    }

    /** Every interface {@code type} implements, directly or through its superclasses and superinterfaces. */
    private static Set<Class<?>> interfaces(Class<?> type, Set<Class<?>> into) {
        for (Class<?> k = type; k != null; k = k.getSuperclass()) {
            for (Class<?> i : k.getInterfaces()) {
                if (into.add(i)) {
                    interfaces(i, into);
                }
            }
        }
        return into;
    }

    private static boolean isJdk(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }
}
