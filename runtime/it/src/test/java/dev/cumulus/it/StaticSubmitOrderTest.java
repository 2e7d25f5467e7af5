package dev.cumulus.it;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * With a static sequencer a writing thread offers its write's SUBMIT to the sequencer itself, and one too large for a
 * single transport message goes through the duty cycle's queue (chunked): a thread that mixes both still has its writes
 * applied in its order on every replica, with another thread of the node writing meanwhile.
 */
@Timeout(120)
class StaticSubmitOrderTest {
    private static final int WRITES = 40;
    /** More than one Aeron message of the ORDER stream holds, so it is chunked from the queue. */
    private static final String LARGE = "x".repeat(1_500_000);

    @Test
    void aThreadsWritesKeepTheirOrderAcrossOfferedAndQueuedSubmissions() {
        System.setProperty("cumulus.sequencer", "static");
        try {
            long[][] seen = new long[2][];
            LocalCluster.run(2, cluster -> {
                SubmitOrder order = cluster.replicated("submit-order", SubmitOrder::new);
                cluster.barrier();
                if (cluster.nodeId() == 1) { // not the sequencer: its writes travel as SUBMITs
                    Thread[] writers = new Thread[2];
                    for (int w = 0; w < writers.length; w++) {
                        int writer = w;
                        writers[w] = Thread.ofPlatform().start(() -> {
                            for (int n = 1; n <= WRITES; n++) {
                                order.add(writer, n, n % 10 == writer * 5 ? LARGE : "");
                            }
                        });
                    }
                    for (Thread t : writers) {
                        t.join();
                    }
                }
                cluster.barrier();
                seen[cluster.nodeId()] = new long[] {order.last(0), order.last(1), order.outOfOrder(), order.bytes()};
            });
            long large = (long) LARGE.length() * 2 * (WRITES / 10);
            for (int node = 0; node < 2; node++) {
                assertEquals(WRITES, seen[node][0], "node " + node + ": writer 0's last write");
                assertEquals(WRITES, seen[node][1], "node " + node + ": writer 1's last write");
                assertEquals(0, seen[node][2], "node " + node + ": writes applied out of their writer's order");
                assertEquals(large, seen[node][3], "node " + node + ": padding bytes applied");
            }
        } finally {
            System.clearProperty("cumulus.sequencer");
        }
    }
}
