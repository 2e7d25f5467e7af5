package dev.cumulus.internal.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static dev.cumulus.internal.node.BarrierCoordinator.OPEN;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class BarrierCoordinatorTest {
    @Test
    void releasesOnceWhenTheLastNodeArrivesAndKeepsEpochsApart() {
        BarrierCoordinator c = new BarrierCoordinator(3);
        assertEquals(OPEN, c.onEnter(0, 1, 5));
        assertEquals(OPEN, c.onEnter(2, 1, 9));
        assertEquals(OPEN, c.onEnter(1, 2, 100), "a fast node already in the next epoch does not count for this one");
        assertEquals(OPEN, c.onEnter(2, 1, 9), "entering twice does not count twice");
        assertEquals(9, c.onEnter(1, 1, 7), "the release carries the highest watermark");
        assertEquals(1, c.openEpochs());
        assertEquals(OPEN, c.onEnter(0, 2, -1));
        assertEquals(100, c.onEnter(2, 2, -1));
        assertEquals(0, c.openEpochs());
    }
}
