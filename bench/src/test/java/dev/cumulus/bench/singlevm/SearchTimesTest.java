package dev.cumulus.bench.singlevm;

import dev.cumulus.CumulusException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run's search times: the first search apart, the steady state the median of the others; none may be missing. And
 * what a search state cost per node, from the example's {@code --stats} lines.
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
    void stateCostsSumEachNodesSearchersFromTheGivenSearchOn() {
        List<String> lines = List.of("[0] stats search 1 searcher-0: 1000 states, 999 us of CPU",
            "[0] stats search 2 searcher-0: 1000 states, 30 us of CPU",
            "[1] stats search 2 searcher-1: 500 states, 25 us of CPU",
            "[0] stats search 3 searcher-2: 3000 states, 90 us of CPU",
            "[0] search 2/3: best cost 134 with 64 threads in 4203 ms", "[1] some other line");
        StateCosts c = StateCosts.parse(lines, 2);
        assertEquals(30.0, c.nsPerState(0), 1e-9); // (30 + 90) us / 4000 states, search 1 left out
        assertEquals(50.0, c.nsPerState(1), 1e-9);
        assertEquals(4000.0 / 4500, c.stateShare(0), 1e-9);
        assertEquals(1000.0 * 145 / 4500, c.nsPerState(), 1e-9);
    }

    @Test
    void plainJavasLinesAreNodeZerosAndAMissingNodeHasNoCost() {
        StateCosts c = StateCosts.parse(List.of("stats search 2 searcher-3: 200 states, 5 us of CPU"), 2);
        assertEquals(25.0, c.nsPerState(0), 1e-9);
        assertTrue(Double.isNaN(c.nsPerState(1)));
        assertEquals(0.0, c.stateShare(1), 1e-9);
        assertTrue(Double.isNaN(StateCosts.parse(List.of(), 2).nsPerState()));
    }
}
