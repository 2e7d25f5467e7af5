package dev.cumulus.it;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Review of d8f7fb7: the monitors the shipping thread holds must not change what its write does. Node 0's user code
 * holds the replica's monitor when it calls a write that notifies without synchronizing; on a thread of the scheduler
 * the write throws IllegalMonitorStateException (before its increment) on every replica, but applied by the shipping
 * thread itself (runOwn) it succeeds on node 0 only.
 */
@Timeout(60)
class HeldMonitorOwnWriteTest {
    @Test
    void aWriteDoesTheSameOnEveryReplicaWhateverMonitorsItsCallerHolds() {
        int rounds = 200;
        int[] pokes = new int[2];
        LocalCluster.run(2, cluster -> {
            Poker poker = cluster.replicated("poker", Poker::new);
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                for (int i = 0; i < rounds; i++) {
                    synchronized (poker) { // plain user code may lock a replica
                        try {
                            poker.poke();
                        } catch (IllegalMonitorStateException expected) {
                            // what every replica's write throws
                        }
                    }
                }
            }
            cluster.barrier();
            pokes[cluster.nodeId()] = poker.pokes();
        });
        assertEquals(pokes[1], pokes[0], "node 0's replica counted pokes that node 1's did not");
    }
}
