package dev.cumulus.internal.singlevm;


import java.lang.reflect.Array;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The new home's side of "Homed where first published" (docs/design/SINGLEVM.md): a write-back from another node
 * carries, whole, the objects that node publishes here (offset {@link Publication#WHOLE}); before any entry of the
 * write-back is stored, this makes the master of each (an instance made without a constructor, or an array of the
 * image's length) and registers it under its id, so the write-back's references to it, and its own entries, resolve to
 * it. {@link ObjectSpace#serveWrites} then stores the images as any write-back's. The publishing side is
 * {@link Publisher}.
 *
 * <p>Threads and locks: runs on the thread that polled the write-back, serving it as a thread of this node; registers
 * each master under the registry lock (the monitor of the space's masters map, which also guards
 * {@code masterArrays}).
 */
final class PublicationReceiver {
    private final ObjectSpace space;
    private final int self;
    /** Also the registry lock. */
    private final ConcurrentHashMap<Long, Object> masters;
    private final Map<Object, Long> masterArrays;

    PublicationReceiver(ObjectSpace space, int self, ConcurrentHashMap<Long, Object> masters,
                        Map<Object, Long> masterArrays) {
        this.space = space;
        this.self = self;
        this.masters = masters;
        this.masterArrays = masterArrays;
    }

    /** Makes and registers the master of every object the write-back {@code ids, offsets, images} publishes here. */
    void keepPublished(long[] ids, int[] offsets, ObjectImage[] images) {
        for (int k = 0; k < ids.length; k++) {
            if (offsets[k] == Publication.WHOLE) {
                keep(ids[k], images[k]);
            }
        }
    }

    /** Object {@code id} was published here with its whole image: this node keeps its master from now on. */
    private void keep(long id, ObjectImage image) {
        Object master = newMaster(id, image.className(), image.length()); // may wait for its class's initialisation
        synchronized (masters) {
            if (masters.containsKey(id)) {
                throw new IllegalStateException("node " + self + " already keeps " + ObjectIds.describe(id)
                    + ", published to it again");
            }
            register(id, master);
        }
    }

    private Object newMaster(long id, String className, int length) {
        Class<?> type = space.loadClass(className);
        if (type.isArray()) {
            return Array.newInstance(type.getComponentType(), length);
        }
        Object m = space.instantiate(type, id, "the master, published to it, of");
        ClassLayout.of(type).id.setVolatile(m, id);
        return m;
    }

    /** Holds the registry lock. */
    private void register(long id, Object m) {
        masters.put(id, m);
        if (m.getClass().isArray()) {
            masterArrays.put(m, id);
        }
    }
}
