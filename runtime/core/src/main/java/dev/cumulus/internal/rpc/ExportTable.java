package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The objects this node serves, by object id. Any thread. Ids are small and dense (system services below
 * {@link #FIRST_USER_ID}, then one per export), so every incoming call finds its object with an array index: the table
 * grows by doubling on export (rare) and is read without a lock (every call).
 */
final class ExportTable {
    /** Ids below this are the system services every node exports at start. */
    static final long FIRST_USER_ID = 16;

    /** One served object and its remotely callable methods. */
    record Exported(long objectId, Object target, Class<?> iface, String name, MethodTable methods) {
    }

    /** Method ids to methods: a linear scan of an int array, faster than hashing for an interface's few methods. */
    static final class MethodTable {
        private final int[] ids;
        private final Method[] methods;
        private final InlineRecord[] records;
        private final Class<?>[][] parameterTypes;
        private final boolean[] defersReply;
        private final Supplier<String>[] resultLabels;

        /** @param objectName the name the object is served under, for error messages */
        @SuppressWarnings("unchecked")
        MethodTable(Map<Integer, Method> byId, String objectName) {
            ids = new int[byId.size()];
            methods = new Method[byId.size()];
            records = new InlineRecord[byId.size()];
            parameterTypes = new Class<?>[byId.size()][];
            defersReply = new boolean[byId.size()];
            resultLabels = new Supplier[byId.size()];
            int i = 0;
            for (Map.Entry<Integer, Method> e : byId.entrySet()) {
                Method m = e.getValue();
                ids[i] = e.getKey();
                methods[i] = m;
                parameterTypes[i] = m.getParameterTypes();
                defersReply[i] = m.isAnnotationPresent(DefersReply.class);
                String label = "result of " + RpcEngine.describe(objectName, m);
                resultLabels[i] = () -> label;
                records[i++] = new InlineRecord();
            }
        }

        /** Whether the method at {@code index} may send its reply later ({@link DefersReply}). */
        boolean defersReply(int index) {
            return defersReply[index];
        }

        /** "result of object.method()": what a refused result is called in the error the caller gets. */
        Supplier<String> resultLabel(int index) {
            return resultLabels[index];
        }

        /** The index of the method with id {@code id}, or -1. */
        int indexOf(int id) {
            int[] ids = this.ids;
            for (int i = 0; i < ids.length; i++) {
                if (ids[i] == id) {
                    return i;
                }
            }
            return -1;
        }

        Method method(int index) {
            return methods[index];
        }

        /** The declared parameter types of the method at {@code index} (shared: do not modify). */
        Class<?>[] parameterTypes(int index) {
            return parameterTypes[index];
        }

        /** How the method at {@code index} fared when run inline. */
        InlineRecord record(int index) {
            return records[index];
        }

        /** The method with id {@code id}, or {@code null}. */
        Method get(int id) {
            int index = indexOf(id);
            return index < 0 ? null : methods[index];
        }
    }

    private volatile Exported[] byId = new Exported[(int) FIRST_USER_ID * 2];
    private long nextId = FIRST_USER_ID;

    synchronized Exported add(Object target, Class<?> iface, String name) {
        return add(nextId++, target, iface, name);
    }

    synchronized Exported add(long objectId, Object target, Class<?> iface, String name) {
        if (!iface.isInterface()) {
            throw new CumulusException(iface.getName() + " is not an interface; remote objects are used through an "
                + "interface they implement");
        }
        if (!iface.isInstance(target)) {
            throw new CumulusException(target.getClass().getName() + " does not implement " + iface.getName());
        }
        if (objectId < 0 || objectId >= Integer.MAX_VALUE - 8) {
            throw new CumulusException("object id " + objectId + " is out of range; a node serves fewer objects");
        }
        Exported e = new Exported(objectId, target, iface, name, new MethodTable(MethodIds.table(iface), name));
        Exported[] table = byId;
        if (objectId >= table.length) {
            table = Arrays.copyOf(table, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(objectId + 1, 2L * table.length)));
        }
        table[(int) objectId] = e;
        byId = table; // the volatile write publishes the new entry to readers of the table
        return e;
    }

    /** The object served under {@code objectId}, or {@code null}. */
    Exported get(long objectId) {
        Exported[] table = byId;
        return objectId >= 0 && objectId < table.length ? table[(int) objectId] : null;
    }
}
