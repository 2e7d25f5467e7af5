package dev.cumulus.internal.singlevm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An entry of a copy whose home holds a mutable JDK object (docs/design/SINGLEVM.md, "JDK objects"): the copy's fill
 * stores it as {@code null} and goes on, and only a read of that entry (a woven {@code aaload} that finds the
 * {@code null}, JDK code given the array) fails with the message a decode of it gives — the entry, the object's
 * class and the node that made it. A write of this node and a later fill that brings a usable value clear the mark;
 * a fill that brings a JDK object again sets it. Arrays homed on node 0, copies on node 1 (in-process nodes: the
 * error is only thrown, the JVM goes on).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ForeignEntryTest {
    private static final int LARGE = 3 * Copy.BLOCK;

    @Test
    void aFillStoresAForeignElementAsNullAndOnlyItsReadFails() {
        Heaps.onTwoNodes((space, cluster) -> {
            Object[] master = {"a", new ArrayList<String>(), "c", null};
            long id = Heaps.share(cluster, 0, 0, () -> space.idOf(master));
            if (cluster.nodeId() == 1) {
                Object[] copy = (Object[]) space.resolve(id, Object[].class.getName() + "/4");
                Copy c = space.arrayCopy(copy);
                assertDoesNotThrow(() -> space.fillRange(c, 0, 1), "the fill does not fail for element 1");
                assertEquals("a", copy[0]);
                assertNull(copy[1]);
                assertEquals("c", copy[2]);
                SingleVmHooks.nullElement(copy, 3, null); // a null that is the element's value
                SingleVmLimitError e = assertThrows(SingleVmLimitError.class,
                    () -> SingleVmHooks.nullElement(copy, 1, null));
                assertEquals("element 1 of shared [Ljava.lang.Object; " + ObjectIds.describe(id) + " refers to a "
                    + "java.util.ArrayList created on node 0, which node 1 cannot use: mutable JDK objects cannot be "
                    + "shared between nodes in the single-VM mode (use it only on the node that created it, or keep "
                    + "the data in the program's own classes or arrays)", e.getMessage());
                assertThrows(SingleVmLimitError.class, () -> JdkArrayHooks.readArray(copy), "the JDK reads it all");
                assertThrows(SingleVmLimitError.class, () -> SingleVmHooks.arraycopy(copy, 0, new Object[4], 0, 4));
                JdkArrayHooks.readArrayRange(copy, 2, 4); // a range without it
                SingleVmHooks.arraycopy(copy, 2, new Object[2], 0, 2);

                SingleVmHooks.storeRef(copy, 1, null, null); // this node's own value now
                SingleVmHooks.nullElement(copy, 1, null);
                JdkArrayHooks.readArray(copy);
            }
            cluster.barrier();
        });
    }

    @Test
    void aLaterFillClearsOrSetsTheMark() {
        Heaps.onTwoNodes((space, cluster) -> {
            Object[] master = {new HashMap<String, String>(), "b"};
            long id = Heaps.share(cluster, 0, 0, () -> space.idOf(master));
            Object[] copy = cluster.nodeId() == 1 ? (Object[]) space.resolve(id, Object[].class.getName() + "/2")
                : null;
            if (cluster.nodeId() == 1) {
                space.fillRange(space.arrayCopy(copy), 0, 2);
                assertThrows(SingleVmLimitError.class, () -> SingleVmHooks.nullElement(copy, 0, null));
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                master[0] = "usable";
                master[1] = new StringBuilder("b");
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                space.invalidate();
                space.fillRange(space.arrayCopy(copy), 0, 2);
                assertEquals("usable", copy[0]);
                assertNull(copy[1]);
                assertThrows(SingleVmLimitError.class, () -> SingleVmHooks.nullElement(copy, 1, null));
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                master[1] = null;
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                space.invalidate();
                space.fillRange(space.arrayCopy(copy), 0, 2);
                SingleVmHooks.nullElement(copy, 1, null); // the home's null, no JDK object any more
            }
            cluster.barrier();
        });
    }

    @Test
    void aBlockOfALargeArrayWithAForeignElementFillsAndOnlyThatElementFails() {
        Heaps.onTwoNodes((space, cluster) -> {
            Object[] master = new Object[LARGE];
            int foreign = Copy.BLOCK + 7;
            master[foreign] = new java.util.concurrent.atomic.AtomicLong();
            master[foreign + 1] = "next";
            long id = Heaps.share(cluster, 0, 0, () -> space.idOf(master));
            if (cluster.nodeId() == 1) {
                Object[] copy = (Object[]) space.resolve(id, Object[].class.getName() + "/" + LARGE);
                Copy c = space.arrayCopy(copy);
                space.fillRange(c, foreign, 2);
                assertEquals("next", copy[foreign + 1]);
                SingleVmLimitError e = assertThrows(SingleVmLimitError.class,
                    () -> SingleVmHooks.nullElement(copy, foreign, null));
                assertTrue(e.getMessage().startsWith("element " + foreign + " of shared [Ljava.lang.Object; "
                    + ObjectIds.describe(id) + " refers to a java.util.concurrent.atomic.AtomicLong created on node 0"),
                    e.getMessage());
                JdkArrayHooks.readArrayRange(copy, 0, Copy.BLOCK);
                assertThrows(SingleVmLimitError.class, () -> JdkArrayHooks.readArrayRange(copy, Copy.BLOCK, LARGE));
            }
            cluster.barrier();
        });
    }
}
