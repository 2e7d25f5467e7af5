package dev.cumulus.internal.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class BarrierCoordinatorTest {
    @Test
    void releasesOnceWhenTheLastNodeArrivesAndKeepsEpochsApart() {
        BarrierCoordinator c = new BarrierCoordinator(3);
        assertFalse(c.onEnter(0, 1));
        assertFalse(c.onEnter(2, 1));
        assertFalse(c.onEnter(1, 2), "a fast node already in the next epoch does not count for this one");
        assertFalse(c.onEnter(2, 1), "entering twice does not count twice");
        assertTrue(c.onEnter(1, 1));
        assertEquals(1, c.openEpochs());
        assertFalse(c.onEnter(0, 2));
        assertTrue(c.onEnter(2, 2));
        assertEquals(0, c.openEpochs());
    }
}
