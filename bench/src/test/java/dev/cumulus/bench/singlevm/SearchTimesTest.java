package dev.cumulus.bench.singlevm;

import dev.cumulus.CumulusException;
import dev.cumulus.bench.NodeCpuWatch;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run's search times: the first search apart, the steady state the median of the others; none may be missing. And
 * node 1's share of the searchers' CPU time in a 2-node run.
 */
class SearchTimesTest {
    @Test
    void theFirstSearchStandsApartAndTheRestGiveTheirMedian() {
        List<String> lines = List.of("search 1/4: best cost 134 with 64 threads in 5305 ms",
            "search 2/4: best cost 134 with 64 threads in 4203 ms", "some other output",
            "search 3/4: best cost 134 with 64 threads in 3849 ms",
            "search 4/4: best cost 134 with 64 threads in 4005 ms",
            "best cost 134 (sequential search: 134) with 64 threads in 4005 ms");
        assertEquals(new SingleVmBench.Searches(5305, 4005), SingleVmBench.parse(SingleVmMode.TWO_NODES, lines, 4, ""));
    }

    @Test
    void aMissingSearchIsAnErrorThatShowsTheRunsOutput() {
        List<String> lines = List.of("search 1/3: best cost 134 with 64 threads in 5305 ms",
            "search 3/3: best cost 134 with 64 threads in 3849 ms");
        CumulusException e = assertThrows(CumulusException.class,
            () -> SingleVmBench.parse(SingleVmMode.PLAIN, lines, 3, "the run's last lines"));
        assertTrue(e.getMessage().contains("printed 2 of its 3 search times")
            && e.getMessage().contains("the run's last lines"), e.getMessage());
    }

    @Test
    void nodeOnesShareCountsOnlyTheSearcherThreadsOfBothNodes() {
        NodeCpuWatch.NodeCpu cpu = new NodeCpuWatch.NodeCpu(10_000, 0, 0, Map.of(), Map.of(
            0, Map.of("searcher-", 3_000L, "main", 5_000L),
            1, Map.of("searcher-", 1_000L, "C2 CompilerThre", 9_000L)));
        assertEquals(0.25, SingleVmBench.nodeOneShare(cpu), 1e-9);
    }

    @Test
    void nodeOnesShareIsUnknownWithoutBothNodesTimes() {
        NodeCpuWatch.NodeCpu oneNode = new NodeCpuWatch.NodeCpu(10_000, 0, 0, Map.of(),
            Map.of(0, Map.of("searcher-", 3_000L)));
        assertTrue(Double.isNaN(SingleVmBench.nodeOneShare(oneNode)));
        NodeCpuWatch.NodeCpu none = new NodeCpuWatch.NodeCpu(-1, 0, -1, Map.of(), Map.of());
        assertTrue(Double.isNaN(SingleVmBench.nodeOneShare(none)));
    }
}
