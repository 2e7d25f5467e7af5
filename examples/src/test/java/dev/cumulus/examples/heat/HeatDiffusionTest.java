package dev.cumulus.examples.heat;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(120)
class HeatDiffusionTest {
    @Test
    void fourWorkersExchangingEdgesEqualSequentialJacobiBitForBit() {
        AtomicReference<HeatDiffusion.Result> result = new AtomicReference<>();
        LocalCluster.run(4, cluster -> {
            HeatDiffusion.Result r = HeatDiffusion.run(cluster, 37, 60);
            if (r != null) {
                result.set(r);
            }
        });
        assertEquals(4, result.get().workers());
        assertTrue(result.get().verified(), result.get().difference().toString());
    }

    @Test
    void oneWorkerAloneIsTheSequentialSolver() {
        AtomicReference<HeatDiffusion.Result> result = new AtomicReference<>();
        LocalCluster.run(1, cluster -> result.set(HeatDiffusion.run(cluster, 9, 25)));
        assertTrue(result.get().verified());
        assertEquals(1, result.get().workers());
    }

    @Test
    void theComparisonNoticesOneWrongCell() {
        double[][] expected = HeatGrid.jacobi(HeatGrid.initial(5, 5), 3);
        double[][] actual = HeatGrid.copy(expected);
        actual[3][2] = Math.nextUp(actual[3][2]);
        HeatGrid.Difference d = HeatGrid.compare(actual, expected);
        assertFalse(d.exact());
        assertEquals(1, d.cells());
    }

    @Test
    void heatFlowsInFromTheEdges() {
        double[][] g = HeatGrid.jacobi(HeatGrid.initial(8, 8), 200);
        assertTrue(g[1][4] > g[8][4], "the hot top edge warms the rows next to it more than the cold bottom one");
        assertEquals(HeatGrid.TOP, g[0][4]);
    }
}
