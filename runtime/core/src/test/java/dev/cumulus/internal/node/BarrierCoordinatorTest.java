package dev.cumulus.internal.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static dev.cumulus.internal.node.BarrierCoordinator.MISMATCH;
import static dev.cumulus.internal.node.BarrierCoordinator.OPEN;
import static dev.cumulus.internal.node.BarrierKind.BARRIER;
import static dev.cumulus.internal.node.BarrierKind.CLOSE;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class BarrierCoordinatorTest {
    @Test
    void releasesOnceWhenTheLastNodeArrivesAndKeepsEpochsApart() {
        BarrierCoordinator c = new BarrierCoordinator(3);
        assertEquals(OPEN, c.onEnter(0, 1, BARRIER, 5));
        assertEquals(OPEN, c.onEnter(2, 1, BARRIER, 9));
        assertEquals(OPEN, c.onEnter(1, 2, BARRIER, 100), "a fast node already in the next epoch does not count for this one");
        assertEquals(OPEN, c.onEnter(2, 1, BARRIER, 9), "entering twice does not count twice");
        assertEquals(9, c.onEnter(1, 1, BARRIER, 7), "the release carries the highest watermark");
        assertEquals(1, c.openEpochs());
        assertEquals(OPEN, c.onEnter(0, 2, BARRIER, -1));
        assertEquals(100, c.onEnter(2, 2, BARRIER, -1));
        assertEquals(0, c.openEpochs());
    }

    @Test
    void closesBarrierNeverPairsWithAProgramsBarrierAndTheMismatchNamesBothSides() {
        BarrierCoordinator c = new BarrierCoordinator(3);
        assertEquals(OPEN, c.onEnter(0, 2, BARRIER, 1));
        assertEquals(OPEN, c.onEnter(1, 2, BARRIER, 1));
        assertEquals(MISMATCH, c.onEnter(2, 2, CLOSE, 1), "node 2 left its program's barriers early");
        BarrierCoordinator.Mismatch m = c.mismatch();
        assertEquals(2, m.blamed());
        assertEquals(2, m.epoch());
        assertEquals(true, m.reason().contains("node 2 entered close()'s barrier while node 0 entered barrier()"),
            m.reason());
        assertEquals(OPEN, c.onEnter(2, 2, CLOSE, 1), "a broken barrier never releases, and is reported once");
    }

    @Test
    void theNodeInClosesBarrierIsBlamedWhicheverArrivesFirst() {
        BarrierCoordinator c = new BarrierCoordinator(2);
        assertEquals(OPEN, c.onEnter(1, 5, CLOSE, -1));
        assertEquals(MISMATCH, c.onEnter(0, 5, BARRIER, -1));
        assertEquals(1, c.mismatch().blamed());
        assertEquals(true, c.mismatch().reason().startsWith("barrier mismatch at barrier #5: node 1 entered close()'s "
            + "barrier while node 0 entered barrier()"), c.mismatch().reason());
    }
}
