package dev.cumulus.examples.colouring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void searchesRunsTheWholeSearchThatManyTimesEachFindingTheOptimum() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            MapColouring.main(new String[] {"--searches", "3", "8", "3", "2", "3", "5", "8"});
        } finally {
            System.setOut(saved);
        }
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        for (int i = 1; i <= 3; i++) {
            String prefix = "search " + i + "/3: best cost 95 with 8 threads in ";
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(prefix)), "no '" + prefix + "' in " + lines);
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("best cost 95 (sequential search: 95) with 8 threads")),
            String.valueOf(lines));
    }

    @Test
    void statsPrintEverySearchersStatesAndCpuTimeOncePerSearch() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            MapColouring.main(new String[] {"--searches", "2", "--stats", "8", "3", "2", "3", "5", "8"});
        } finally {
            System.setOut(saved);
        }
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        for (int i = 1; i <= 2; i++) {
            for (int t = 0; t < 8; t++) {
                String prefix = "stats search " + i + " searcher-" + t + ": ";
                List<String> stats = lines.stream().filter(l -> l.startsWith(prefix)).toList();
                assertEquals(1, stats.size(), prefix + " in " + lines);
                assertTrue(stats.getFirst().matches(".*: \\d+ states, \\d+ us of CPU"), stats.getFirst());
            }
        }
        long states = lines.stream().filter(l -> l.startsWith("stats search 1 "))
            .mapToLong(l -> Long.parseLong(l.replaceAll(".*: (\\d+) states.*", "$1"))).sum();
        assertTrue(states > 0, "the searchers of search 1 expanded no state: " + lines);
    }

    @Test
    void aSearchCountBelowOneIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> MapColouring.main(new String[] {"--searches", "0"}));
        assertTrue(e.getMessage().contains("--searches"), e.getMessage());
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
