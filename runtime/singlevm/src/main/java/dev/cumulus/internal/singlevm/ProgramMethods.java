package dev.cumulus.internal.singlevm;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a call of an instance method runs the program's own code: the first class up from the receiver's class that
 * declares the method is a program class (woven), not a JDK one. {@link JdkArrayHooks} asks before it gives a JDK
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
     * True if {@code type}'s method {@code method} (name and descriptor, {@code read([BII)I}) is declared by a program
     * class: {@code type} or a program superclass below the first JDK class up its superclasses.
     */
    static boolean declares(Class<?> type, String method) {
        if (!ClassLayout.isProgramClass(type)) {
            return false;
        }
        return DECLARED.get(type).computeIfAbsent(method, m -> find(type, m));
    }

    private static boolean find(Class<?> type, String method) {
        for (Class<?> k = type; k != null && ClassLayout.isProgramClass(k); k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                if (!java.lang.reflect.Modifier.isStatic(m.getModifiers()) && method.equals(m.getName()
                        + MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString())) {
                    return true;
                }
            }
        }
        return false;
    }
}
