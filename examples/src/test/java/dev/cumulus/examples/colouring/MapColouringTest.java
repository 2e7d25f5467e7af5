package dev.cumulus.examples.colouring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The map colouring as plain Java (it is an ordinary threaded program; SingleVmSystemTest in runtime/cli runs it with
 * cumulus run --single-vm): the parallel search agrees with the sequential one, and the check catches a bad colouring.
 */
@Timeout(60)
class MapColouringTest {
    @Test
    void parallelSearchFindsTheSequentialOptimum() throws Exception {
        MapColouring.main(new String[] {"8", "3", "2", "3", "5", "8"}); // throws if the two searches disagree
    }

    @Test
    void theMapIsSymmetricAndTheOptimumIsKnown() {
        int[][] adj = EasternStates.neighbours();
        assertEquals(29, adj.length);
        for (int s = 0; s < adj.length; s++) {
            for (int t : adj[s]) {
                boolean back = false;
                for (int u : adj[t]) {
                    back |= u == s;
                }
                assertEquals(true, back, EasternStates.NAMES[s] + " borders " + EasternStates.NAMES[t]);
            }
        }
        assertEquals(95, Search.sequential(adj, new int[] {2, 3, 5, 8}));
    }

    @Test
    void aColouringWithEqualNeighboursIsRejected() {
        int[][] adj = EasternStates.neighbours();
        int[] same = new int[adj.length];
        assertThrows(IllegalStateException.class, () -> MapColouring.check(adj, new int[] {2, 3, 5, 8}, same,
            2 * adj.length));
    }
}
