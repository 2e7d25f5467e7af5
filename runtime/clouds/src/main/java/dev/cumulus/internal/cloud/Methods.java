package dev.cumulus.internal.cloud;

import dev.cumulus.CumulusException;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Finds methods of cloud classes by the key the agent weaves in: {@code name(descriptor)}. Cached. */
final class Methods {
    private static final ClassValue<Map<String, Method>> CACHE = new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private Methods() {
    }

    static String keyOf(Method m) {
        return m.getName() + MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString();
    }

    /** The method {@code key} names, as resolved on {@code type} (it may be declared in a superclass). */
    static Method find(Class<?> type, String key) {
        return CACHE.get(type).computeIfAbsent(key, k -> {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                for (Method m : c.getDeclaredMethods()) {
                    if (keyOf(m).equals(k)) {
                        m.setAccessible(true);
                        return m;
                    }
                }
            }
            throw new CumulusException(type.getName() + " has no method " + k
                + "; do all nodes run the same classes?");
        });
    }

    /** The method of exactly {@code type} with this name and descriptor, or {@code null}. */
    static Method findDeclared(Class<?> type, String name, String descriptor) {
        for (Method m : type.getDeclaredMethods()) {
            if (m.getName().equals(name)
                && MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString()
                .equals(descriptor)) {
                return m;
            }
        }
        return null;
    }
}
