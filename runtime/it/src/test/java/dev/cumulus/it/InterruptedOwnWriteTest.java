package dev.cumulus.it;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Review of d8f7fb7: a thread with its interrupt flag set ships a write that waits ({@link Turnstile#pass}). The write
 * must take the same steps on every replica: an interrupt of the caller is no event of the total order. When the
 * shipping thread applies its own write (runOwn), the write's wait() throws InterruptedException on that replica
 * only.
 */
@Timeout(60)
class InterruptedOwnWriteTest {
    private static final int ROUNDS = 30;

    /** Node 1 opens only once node 0's pass has arrived (and waits) on its own replica. */
    private static void openAfterArrival(Turnstile gate, int round) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (gate.arrived() <= round) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("node 0's pass of round " + round + " never arrived at node 1");
            }
            Thread.onSpinWait();
        }
        gate.open();
    }

    @Test
    void anInterruptedWriterStillAppliesItsWaitingWriteAsEveryReplicaDoes() {
        List<String> problems = new CopyOnWriteArrayList<>();
        boolean[] open = new boolean[2];
        LocalCluster.run(2, cluster -> {
            Turnstile gate = cluster.replicated("gate", Turnstile::new);
            cluster.barrier();
            for (int round = 0; round < ROUNDS && problems.isEmpty(); round++) {
                if (cluster.nodeId() == 0) {
                    Thread.currentThread().interrupt(); // e.g. a consumer being cancelled
                    try {
                        gate.pass();
                        if (!Thread.interrupted()) {
                            problems.add("round " + round + ": the interrupt was lost");
                        }
                    } catch (InterruptedException e) {
                        problems.add("round " + round + ": pass() threw InterruptedException on node 0 only");
                    }
                } else {
                    openAfterArrival(gate, round);
                }
                cluster.barrier();
            }
            open[cluster.nodeId()] = gate.isOpen();
        });
        assertEquals(List.of(), problems);
        assertEquals(open[1], open[0], "the replicas diverged");
    }

    /** After such a round node 0's scheduler hands its runner role to the dead wait: later writes never apply. */
    @Test
    void writesAfterAnInterruptedOwnWriteStillApply() {
        int[] passed = new int[1];
        LocalCluster.run(2, cluster -> {
            Turnstile gate = cluster.replicated("gate", Turnstile::new);
            Minimum min = cluster.replicated("min", Minimum::new);
            cluster.barrier();
            for (int round = 0; round < ROUNDS; round++) {
                if (cluster.nodeId() == 0) {
                    Thread.currentThread().interrupt();
                    try {
                        gate.pass();
                    } catch (InterruptedException e) {
                        // the bug; the next writes show what it leaves behind
                    }
                    Thread.interrupted();
                } else {
                    openAfterArrival(gate, round);
                }
                cluster.barrier();
                min.set(1000 - round); // applied on both replicas before the next barrier
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    passed[0]++;
                }
            }
        });
        assertTrue(passed[0] == ROUNDS);
    }
}
