package dev.cumulus.internal.singlevm;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * An exit that carries its write-backs (docs/design/SINGLEVM.md, "Exits that carry their write-backs"): a thread of
 * node 1 writes an array homed on node 0 under that array's monitor; when its exit returns, the write is in the
 * master (the home stored it before it released) and the copy's entry is clean.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ExitCarriesWritesTest {
    @Test
    void theExitTakesTheWritesHomedAtTheMonitorsHomeWithIt() {
        LocalCluster.run(2, cluster -> {
            ObjectSpace space = new ObjectSpace(Heaps.of(cluster), ExitCarriesWritesTest.class.getClassLoader());
            space.bind();
            try {
                long[] master = new long[8];
                long id = Heaps.share(cluster, 0, 0, () -> space.idOf(master));
                if (cluster.nodeId() == 1) {
                    long[] copy = (long[]) space.resolve(id, long[].class.getName() + "/8");
                    Copy c = space.arrayCopy(copy);
                    space.monitorEnter(copy, id);
                    SingleVmHooks.storeLong(copy, 6, 11);
                    space.heap().monitorExit(id);
                    c.lock.lock();
                    try {
                        assertFalse(c.anyDirty(), "the exit's reply acknowledged the carried write");
                    } finally {
                        c.lock.unlock();
                    }
                }
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    assertEquals(11, master[6], "the home stored the write before it released the monitor");
                }
            } finally {
                space.close();
            }
        });
    }
}
