package dev.cumulus.it;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Review of session 11's fix: a barrier after a write that woke a waiting one passes on no node before the woken
 * write went on — also on the node that sent the waking write (its own write counts for what its barrier entry and
 * calls carry at once, but as applied only once the write it woke went on).
 */
@Timeout(60)
class WokenWriteBarrierTest {
    /** Starts {@link Turnstile#passThenWork} on a thread of its own (this node's write). */
    static Thread startPass(Turnstile gate, long work) {
        return Thread.ofPlatform().start(() -> {
            try {
                gate.passThenWork(work);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Waits for {@code passer} to end; nothing for null. */
    static void join(Thread passer) {
        if (passer == null) {
            return;
        }
        try {
            passer.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits until {@code count} passes arrived at this node's replica of {@code gate}. */
    static void awaitArrivals(Turnstile gate, int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (gate.arrived() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("pass " + count + " never arrived");
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void aBarrierAfterAnOwnNotifyingWriteWaitsForTheWokenWrite() {
        boolean[] open = new boolean[2];
        LocalCluster.run(2, cluster -> {
            Turnstile gate = cluster.replicated("gate", Turnstile::new);
            cluster.barrier();
            // long enough that a barrier passing early reads the gate still open
            Thread passer = cluster.nodeId() != 0 ? null : startPass(gate, 200_000_000L);
            awaitArrivals(gate, 1);
            if (cluster.nodeId() == 1) {
                gate.open();
            }
            cluster.barrier();
            open[cluster.nodeId()] = gate.isOpen();
            cluster.barrier();
            join(passer);
        });
        assertEquals(open[0], open[1], "the replicas diverged after a barrier");
        assertFalse(open[1], "the woken pass had not closed the gate when the barrier let node 1 through");
    }
}
