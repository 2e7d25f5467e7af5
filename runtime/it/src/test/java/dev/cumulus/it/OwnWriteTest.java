package dev.cumulus.it;

import dev.cumulus.LocalCluster;
import dev.cumulus.internal.cloud.CloudRuntime;
import dev.cumulus.internal.cluster.NodeCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A thread that ships a replicated write polls for it and applies it itself when its own poll delivers it and it is
 * next in line (no hand-off to the delivery thread and back), on the node that holds the sequencer; every replica
 * still applies every write, in one order.
 */
@Timeout(60)
class OwnWriteTest {
    @Test
    void theWritingThreadAppliesItsOwnWritesOnTheSequencersNode() {
        int writes = 300;
        AtomicInteger onWriter = new AtomicInteger();
        AtomicInteger appliedAtOne = new AtomicInteger();
        int[] minimum = new int[2];
        LocalCluster.run(2, cluster -> {
            Minimum min = cluster.replicated("min", Minimum::new);
            CloudRuntime clouds = ((NodeCluster) cluster).capability(CloudRuntime.class);
            Thread writer = Thread.currentThread();
            clouds.afterEveryWrite(cluster.nodeId() == 0
                ? () -> {
                    if (Thread.currentThread() == writer) {
                        onWriter.incrementAndGet();
                    }
                }
                : appliedAtOne::incrementAndGet);
            cluster.barrier();
            if (cluster.nodeId() == 0) { // node 0 holds the sequencer at start, and keeps it: only it writes
                for (int i = 0; i < writes; i++) {
                    min.set(100_000 - i);
                }
            }
            cluster.barrier();
            minimum[cluster.nodeId()] = min.get();
            clouds.afterEveryWrite(null);
        });
        assertEquals(100_000 - writes + 1, minimum[0]);
        assertEquals(minimum[0], minimum[1], "both replicas hold the same minimum");
        assertEquals(writes, appliedAtOne.get(), "the other replica applied every write");
        // the node's main thread may win the poll for some of them (on a loaded box most): that the writer applied its
        // own writes is the behaviour, not how many
        assertTrue(onWriter.get() > 0, "none of " + writes + " writes ran on the writing thread");
    }
}
