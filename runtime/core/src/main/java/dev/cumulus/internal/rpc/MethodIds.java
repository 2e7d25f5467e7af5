package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stable ids for interface methods: the hash of name and descriptor, the same in every JVM (String.hashCode is
 * specified). Both ends derive the table from the interface itself, so no table is exchanged.
 */
final class MethodIds {
    private MethodIds() {
    }

    /**
     * Ids computed so far, per declaring class (kept with the class, so a user's class loader is not pinned): every
     * call needs its method's id, and computing one builds a descriptor string.
     */
    private static final ClassValue<Map<Method, Integer>> IDS = new ClassValue<>() {
        @Override
        protected Map<Method, Integer> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    static int idOf(Method m) {
        Map<Method, Integer> ids = IDS.get(m.getDeclaringClass());
        Integer id = ids.get(m);
        return id != null ? id : ids.computeIfAbsent(m, MethodIds::compute);
    }

    private static int compute(Method m) {
        return (m.getName() + MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString())
            .hashCode();
    }

    /** Every abstract (remotely callable) method of {@code iface} and its super-interfaces, by id. */
    static Map<Integer, Method> table(Class<?> iface) {
        Map<Integer, Method> table = new HashMap<>();
        for (Method m : iface.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.isDefault()) {
                continue;
            }
            m.setAccessible(true);
            Method clash = table.putIfAbsent(idOf(m), m);
            if (clash != null && !sameSignature(clash, m)) {
                throw new CumulusException("interface " + iface.getName() + ": methods " + clash + " and " + m
                    + " have the same id; rename one of them");
            }
        }
        return table;
    }

    private static boolean sameSignature(Method a, Method b) {
        return a.getName().equals(b.getName()) && a.getReturnType() == b.getReturnType()
            && Arrays.equals(a.getParameterTypes(), b.getParameterTypes());
    }
}
