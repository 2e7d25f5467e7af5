package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The objects this node serves, by object id. Any thread. */
final class ExportTable {
    /** Ids below this are the system services every node exports at start. */
    static final long FIRST_USER_ID = 16;

    record Exported(long objectId, Object target, Class<?> iface, String name, Map<Integer, Method> methods) {
    }

    private final Map<Long, Exported> byId = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(FIRST_USER_ID);

    Exported add(Object target, Class<?> iface, String name) {
        return add(nextId.getAndIncrement(), target, iface, name);
    }

    Exported add(long objectId, Object target, Class<?> iface, String name) {
        if (!iface.isInterface()) {
            throw new CumulusException(iface.getName() + " is not an interface; remote objects are used through an "
                + "interface they implement");
        }
        if (!iface.isInstance(target)) {
            throw new CumulusException(target.getClass().getName() + " does not implement " + iface.getName());
        }
        Exported e = new Exported(objectId, target, iface, name, MethodIds.table(iface));
        byId.put(objectId, e);
        return e;
    }

    Exported get(long objectId) {
        return byId.get(objectId);
    }
}
