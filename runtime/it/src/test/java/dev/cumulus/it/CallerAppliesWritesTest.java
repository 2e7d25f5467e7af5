package dev.cumulus.it;

import dev.cumulus.LocalCluster;
import dev.cumulus.internal.cloud.CloudRuntime;
import dev.cumulus.internal.node.ClusterNode;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's thread waiting for a remote call's reply applies the replicated writes its own poll delivered (Manta's
 * Table 1 set-up: the call's handler writes, and the caller's replica gets the write before the reply), as long as no
 * cloud class in the JVM can wait; once one is woven, those writes go to the delivery thread again. Runs in a JVM of
 * its own (the module forks one per test class), the first test before any cloud class that waits is loaded.
 */
@Timeout(60)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CallerAppliesWritesTest {
    public interface Reporter {
        /** Invokes {@code Minimum.set(m)}, a synchronized write. */
        void report(int m);
    }

    static final class ReporterImpl implements Reporter {
        private final Minimum min;

        ReporterImpl(Minimum min) {
            this.min = min;
        }

        @Override
        public void report(int m) {
            min.set(m);
        }
    }

    /** Node 0 calls node 1's reporter {@code calls} times; returns how many of the writes node 0's caller applied. */
    private static int writesAppliedByTheCaller(int calls, boolean loadACloudThatWaits) {
        AtomicInteger onCaller = new AtomicInteger();
        AtomicInteger applied = new AtomicInteger();
        int[] minimum = new int[2];
        LocalCluster.run(2, cluster -> {
            Minimum min = cluster.replicated("min", Minimum::new);
            if (loadACloudThatWaits) {
                cluster.replicated("bin", Bin::new); // Bin.get/put call wait()
            }
            CloudRuntime clouds = ((ClusterNode) cluster).capability(CloudRuntime.class);
            Thread caller = Thread.currentThread();
            if (cluster.nodeId() == 1) {
                cluster.export(new ReporterImpl(min), Reporter.class, "reporter");
            } else {
                clouds.afterEveryWrite(() -> {
                    applied.incrementAndGet();
                    if (Thread.currentThread() == caller) {
                        onCaller.incrementAndGet();
                    }
                });
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                Reporter r = cluster.lookup("reporter", Reporter.class);
                for (int i = 0; i < calls; i++) {
                    r.report(100_000 - i);
                }
            }
            cluster.barrier();
            minimum[cluster.nodeId()] = min.get();
            clouds.afterEveryWrite(null);
        });
        assertEquals(100_000 - calls + 1, minimum[0]);
        assertEquals(minimum[0], minimum[1], "both replicas hold the same minimum");
        assertTrue(applied.get() >= calls, "node 0 applied every write (" + applied.get() + ")");
        return onCaller.get();
    }

    @Test
    @Order(1)
    void aCallerWaitingForItsReplyAppliesTheWriteItsPollDelivered() {
        int calls = 300;
        int onCaller = writesAppliedByTheCaller(calls, false);
        // the caller polls for its reply and finds the write first; the node's main thread may win a poll now and then
        assertTrue(onCaller >= calls / 10, onCaller + " of " + calls + " writes ran on the calling thread");
    }

    @Test
    @Order(2)
    void onceACloudClassThatWaitsIsLoadedCallersNoLongerApplyWrites() {
        int onCaller = writesAppliedByTheCaller(100, true);
        assertEquals(0, onCaller, "a caller applied writes though a cloud class that waits was woven");
    }
}
