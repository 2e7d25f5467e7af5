package dev.cumulus.internal.migration;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlacementPolicyTest {
    @Test
    void aNodeThatMakesMostCallsTwoWindowsInARowGetsTheObject() {
        PlacementPolicy policy = new PlacementPolicy();
        assertEquals(-1, policy.window(new long[] {10, 0, 90}, 0).node(), "one window is not enough");
        PlacementPolicy.Decision second = policy.window(new long[] {10, 0, 90}, 0);
        assertEquals(2, second.node());
        assertTrue(second.reason().contains("node 2 made 90 % of its 100 calls"), second.reason());
        assertEquals(-1, policy.window(new long[] {10, 0, 90}, 0).node(), "the count starts again after a move");
    }

    @Test
    void fewCallsAnEvenSplitOrTheHomeNodeLeadingDecideNothing() {
        PlacementPolicy policy = new PlacementPolicy();
        for (int i = 0; i < 5; i++) {
            assertEquals(-1, policy.window(new long[] {0, 0, PlacementPolicy.MIN_CALLS - 1}, 0).node(), "too few");
            assertEquals(-1, policy.window(new long[] {0, 50, 50}, 0).node(), "no node has 60 %");
            assertEquals(-1, policy.window(new long[] {95, 5, 0}, 0).node(), "it is where its calls come from");
        }
    }

    @Test
    void aLeaderThatChangesStartsTheCountAgain() {
        PlacementPolicy policy = new PlacementPolicy();
        assertEquals(-1, policy.window(new long[] {0, 80, 20}, 0).node());
        assertEquals(-1, policy.window(new long[] {0, 20, 80}, 0).node(), "node 2 leads once: no move");
        assertEquals(2, policy.window(new long[] {0, 20, 80}, 0).node());
    }
}
