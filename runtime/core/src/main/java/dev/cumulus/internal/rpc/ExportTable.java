package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;
import dev.cumulus.SafeMode;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The objects this node serves, by object id, and the forwarding addresses of those that migrated away. Any thread.
 *
 * <p>An object id is unique in the cluster and stays with the object wherever it moves: its home node (where it was
 * exported) in the high 32 bits, a number that node counts up in the low bits (system services, the same ids on every
 * node, below {@link #FIRST_USER_ID}). An object at home finds its entry with an array index (the table grows by
 * doubling on export, rare, and is read without a lock: every call); an object that migrated here from elsewhere is in
 * a map of guests. An entry whose gate says the object moved ({@link ObjectGate#movedTo}) is the forwarding address
 * left behind.
 */
public final class ExportTable {
    /** Ids below this are the system services every node exports at start. */
    public static final long FIRST_USER_ID = 16;

    /**
     * One served object and its remotely callable methods; {@code gate} where its calls enter (null for system
     * objects, which never move), {@code safeMode} its call queue when its class is {@code @SafeMode}, else null;
     * {@code target} is null once the entry is only a forwarding address ({@link #keepForwardingOnly}); {@code rule}
     * who may reach an object a client of a standing cluster owns, null for the cluster's own objects.
     */
    public record Exported(long objectId, Object target, Class<?> iface, String name, MethodTable methods,
                           ObjectGate gate, ObjectMover.SafeModeQueue safeMode, AccessRule rule) {
        /**
         * The object moved to {@code node} for good: the gate forwards from now on. Returns the calls that waited for
         * the move here, in the order they came (a safe-mode object's: those held at the gate, then those still in
         * its queue).
         */
        public List<ObjectGate.Held> forward(int node) {
            return safeMode == null ? gate.forward(node) : safeMode.forward(() -> gate.forward(node));
        }

        /**
         * The gate opens: {@code open} opens it and returns the calls it held, which run here in that order, ahead of
         * the calls that came meanwhile (a safe-mode object's run one at a time in its queue). Returns how many.
         */
        public int open(Supplier<List<ObjectGate.Held>> open) {
            if (safeMode != null) {
                return safeMode.reopen(open);
            }
            List<ObjectGate.Held> held = open.get();
            held.forEach(ObjectGate.Held::runHere);
            return held.size();
        }
    }

    /** Method ids to methods: a linear scan of an int array, faster than hashing for an interface's few methods. */
    public static final class MethodTable {
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
        public int indexOf(int id) {
            int[] ids = this.ids;
            for (int i = 0; i < ids.length; i++) {
                if (ids[i] == id) {
                    return i;
                }
            }
            return -1;
        }

        public Method method(int index) {
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
    }

    private final int self;
    /** The node's mover: it makes the call queues of {@code @SafeMode} objects. */
    private final Supplier<ObjectMover> mover;
    private volatile Exported[] byId = new Exported[(int) FIRST_USER_ID * 2];
    private final Map<Long, Exported> guests = new ConcurrentHashMap<>();
    private long nextNumber = FIRST_USER_ID;

    ExportTable(int self, Supplier<ObjectMover> mover) {
        this.self = self;
        this.mover = mover;
    }

    /** The id of the {@code number}th object exported on {@code home}. */
    static long objectId(int home, long number) {
        return ((long) home << 32) | number;
    }

    /** The node where the object with {@code objectId} was exported (system objects: every node). */
    static int homeOf(long objectId) {
        return (int) (objectId >>> 32);
    }

    /** Serves a user object under a new id. */
    synchronized Exported add(Object target, Class<?> iface, String name, AccessRule rule) {
        if (nextNumber >= Integer.MAX_VALUE - 8) {
            throw new CumulusException("node " + self + " has exported " + nextNumber + " objects, the most it can");
        }
        return put(entry(objectId(self, nextNumber++), target, iface, name, 0, false, rule));
    }

    /** Serves a system object under its fixed id (below {@link #FIRST_USER_ID}): it never moves. */
    synchronized void addSystem(long objectId, Object target, Class<?> iface, String name) {
        check(target, iface);
        put(new Exported(objectId, target, iface, name, new MethodTable(MethodIds.table(iface), name), null, null,
            null));
    }

    /**
     * Serves an object that migrated here under the id it has everywhere (replaces a forwarding address); it has moved
     * {@code moves} times since it was exported. Its gate starts closed: calls wait there until the calls handed over
     * with it ran ({@link ObjectGate#reopen}).
     */
    public synchronized Exported addMigrated(long objectId, Object target, Class<?> iface, String name, int moves,
                                      AccessRule rule) {
        return put(entry(objectId, target, iface, name, moves, true, rule));
    }

    private Exported entry(long objectId, Object target, Class<?> iface, String name, int moves, boolean arriving,
                           AccessRule rule) {
        check(target, iface);
        ObjectGate gate = new ObjectGate(moves, arriving);
        ObjectMover.SafeModeQueue safeMode = target.getClass().isAnnotationPresent(SafeMode.class)
            ? mover.get().safeModeQueue(target, name, gate) : null;
        return new Exported(objectId, target, iface, name, new MethodTable(MethodIds.table(iface), name), gate,
            safeMode, rule);
    }

    private static void check(Object target, Class<?> iface) {
        if (!iface.isInterface()) {
            throw new CumulusException(iface.getName() + " is not an interface; remote objects are used through an "
                + "interface they implement");
        }
        if (!iface.isInstance(target)) {
            throw new CumulusException(target.getClass().getName() + " does not implement " + iface.getName());
        }
    }

    private Exported put(Exported e) {
        long id = e.objectId();
        if (!isLocal(id)) {
            guests.put(id, e);
            return e;
        }
        int index = (int) id;
        Exported[] table = byId;
        if (index >= table.length) {
            table = Arrays.copyOf(table, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(index + 1L, 2L * table.length)));
        }
        table[index] = e;
        byId = table; // the volatile write publishes the new entry to readers of the table
        return e;
    }

    /**
     * The object of {@code moved} left this node for good (its gate forwards every call): its entry becomes a
     * forwarding address that no longer holds the object, so this node lets its old copy go.
     */
    public synchronized void keepForwardingOnly(Exported moved) {
        if (get(moved.objectId()) == moved) {
            put(new Exported(moved.objectId(), null, moved.iface(), moved.name(), moved.methods(), moved.gate(), null,
                moved.rule()));
        }
    }

    /**
     * Stops serving the user object {@code objectId} (its owner, a client of a standing cluster, is gone): calls to it
     * find no object from now on, and this node lets it go.
     */
    synchronized void remove(long objectId) {
        if (objectId < FIRST_USER_ID) {
            return;
        }
        if (!isLocal(objectId)) {
            guests.remove(objectId);
            return;
        }
        Exported[] table = byId;
        long index = objectId & 0xFFFF_FFFFL;
        if (index < table.length) {
            table[(int) index] = null;
            byId = table;
        }
    }

    /** Whether {@code objectId} is a system object or was exported on this node (its entry is in the array). */
    private boolean isLocal(long objectId) {
        return objectId >= 0 && (objectId < FIRST_USER_ID || homeOf(objectId) == self);
    }

    /** The entry for {@code objectId} (a served object or a forwarding address), or {@code null}. */
    public Exported get(long objectId) {
        if (!isLocal(objectId)) {
            return guests.isEmpty() ? null : guests.get(objectId);
        }
        Exported[] table = byId;
        long index = objectId & 0xFFFF_FFFFL;
        return index < table.length ? table[(int) index] : null;
    }
}
