package dev.cumulus.it;

import dev.cumulus.CumulusException;
import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A thread that holds a replica's monitor at a barrier, while a write woken on its node needs that monitor back, would
 * wait for good (the barrier waits for the woken write): it gets an exception that says what to do instead, and once
 * it lets go the run goes on with the replicas alike. Whether the woken write or the thread gets the monitor first
 * is a race, so each round may end either way; without the check, a round the thread wins hangs.
 * ({@code DeliverySchedulerTest} checks the detection itself deterministically.)
 */
@Timeout(60)
class HeldMonitorBarrierTest {
    private static final int ROUNDS = 6;

    @Test
    void aBarrierInsideTheMonitorAWokenWriteNeedsFailsWithAMessageInsteadOfHanging() {
        List<String> messages = new CopyOnWriteArrayList<>();
        List<String> diverged = new CopyOnWriteArrayList<>();
        boolean[][] open = new boolean[2][ROUNDS];
        LocalCluster.run(2, cluster -> {
            Turnstile gate = cluster.replicated("gate", Turnstile::new);
            cluster.barrier();
            for (int round = 0; round < ROUNDS; round++) {
                Thread passer = cluster.nodeId() != 0 ? null : WokenWriteBarrierTest.startPass(gate, 0);
                WokenWriteBarrierTest.awaitArrivals(gate, round + 1);
                if (cluster.nodeId() == 1) {
                    synchronized (gate) {
                        // the write runs on a thread of the scheduler while this one waits for it in the monitor; the
                        // pass it wakes on this replica then needs the monitor back, which this thread may hold again
                        gate.open();
                        try {
                            cluster.barrier();
                        } catch (CumulusException e) {
                            messages.add(e.getMessage());
                        }
                    }
                } else {
                    cluster.barrier();
                }
                cluster.barrier(); // nobody holds the monitor now: the woken pass goes on
                open[cluster.nodeId()][round] = gate.isOpen();
                cluster.barrier();
                WokenWriteBarrierTest.join(passer);
            }
        });
        for (int round = 0; round < ROUNDS; round++) {
            if (open[0][round] || open[1][round]) {
                diverged.add("round " + round + ": open on node 0 " + open[0][round] + ", node 1 " + open[1][round]);
            }
        }
        assertEquals(List.of(), diverged, "after the barriers every replica's pass closed the gate");
        for (String m : messages) {
            assertTrue(m.contains("leave the synchronized block before the barrier"), m);
            assertTrue(m.contains(Turnstile.class.getName()), m);
        }
    }
}
