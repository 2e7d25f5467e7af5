package dev.cumulus.internal.singlevm;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The objects homed on this node (created here, and on node 0 the statics of every class), by id. Objects are never
 * freed: the shared heap has no distributed garbage collector.
 */
final class HomeStore {
    private final int self;
    private final AtomicLong lastSequence = new AtomicLong();
    private final ConcurrentHashMap<Long, HomeObject> objects = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Long> statics = new ConcurrentHashMap<>();

    HomeStore(int self) {
        this.self = self;
    }

    /** A new object of {@code length} slots homed here; {@code finals} marks its final slots (may be null). */
    HomeObject allocate(int length, long[] finals) {
        if (length < 0) {
            throw new NegativeArraySizeException("a shared object cannot have " + length + " slots");
        }
        long id = ObjectIds.of(self, lastSequence.incrementAndGet());
        HomeObject o = new HomeObject(id, length, finals);
        objects.put(id, o);
        return o;
    }

    /** The object {@code id}, homed here; fails with what went wrong when this node holds no such object. */
    HomeObject object(long id) {
        HomeObject o = objects.get(id);
        if (o == null && ObjectIds.home(id) == self && ObjectIds.namedElsewhere(id)) {
            // published to this node by another: its monitor is made here on first use, like any object's
            return objects.computeIfAbsent(id, k -> new HomeObject(k, 0, null));
        }
        if (o == null) {
            if (id == ObjectIds.NULL) {
                throw new NullPointerException("a shared reference is null");
            }
            throw new IllegalStateException("node " + self + " holds no shared object " + ObjectIds.describe(id)
                + (ObjectIds.home(id) != self ? " (its home is node " + ObjectIds.home(id) + ")" : ""));
        }
        return o;
    }

    /** The statics object of {@code className} (node 0 only), made with {@code slots} slots on first request. */
    long statics(String className, int slots) {
        if (self != 0) {
            throw new IllegalStateException("statics live on node 0, not on node " + self);
        }
        long id = statics.computeIfAbsent(className, c -> allocate(slots, null).id);
        int length = object(id).length();
        if (length != slots) {
            throw new IllegalStateException("the statics of " + className + " have " + length + " slots, not " + slots
                + ": do all nodes run the same classes?");
        }
        return id;
    }

    /** The monitor of object {@code id} homed here if it was ever used, else null. */
    HomeMonitor monitorIfUsed(long id) {
        HomeObject o = objects.get(id);
        return o == null ? null : o.monitorIfUsed();
    }

    /** The monitors of objects homed here that were ever used, by object id (for thread dumps). */
    java.util.Map<Long, HomeMonitor> usedMonitors() {
        java.util.Map<Long, HomeMonitor> out = new java.util.TreeMap<>();
        objects.forEach((id, o) -> {
            HomeMonitor m = o.monitorIfUsed();
            if (m != null) {
                out.put(id, m);
            }
        });
        return out;
    }

    /** Applies a write-back run ({@code id, count, (slot, value) x count}...). */
    void writeBack(long[] updates) {
        int i = 0;
        while (i < updates.length) {
            HomeObject o = object(updates[i]);
            int count = (int) updates[i + 1];
            i += 2;
            for (int k = 0; k < count; k++, i += 2) {
                o.put((int) updates[i], updates[i + 1]);
            }
        }
    }
}
