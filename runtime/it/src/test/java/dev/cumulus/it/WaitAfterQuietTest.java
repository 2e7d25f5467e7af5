package dev.cumulus.it;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Node 0 takes from an empty {@link Bin} (its write waits on every replica); node 1 puts only after a quiet spell,
 * when the runner the wait started has given its role up. The put must still be applied and release the take
 * (found in review: the put's drain was handed to the blocked delivery thread, and both nodes hung).
 */
@Timeout(60)
class WaitAfterQuietTest {
    @Test
    void aPutAfterAQuietSpellReleasesAWaitingGet() {
        List<Integer> got = new CopyOnWriteArrayList<>();
        LocalCluster.run(2, cluster -> {
            Bin bin = cluster.replicated("bin", Bin::new);
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                got.add(bin.get());
            } else {
                Thread.sleep(300); // the quiet spell is the scenario, not a wait for a condition
                bin.put(42);
            }
            cluster.barrier();
        });
        assertEquals(List.of(42), got);
    }
}
