package dev.cumulus.examples.asp;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class AspTest {
    private static final int SIZE = 60;
    private static final long SEED = 11;

    private static void check(Asp.Version version) {
        List<Asp.Result> results = new CopyOnWriteArrayList<>();
        LocalCluster.run(3, cluster -> results.add(version.run(cluster, SIZE, SEED)));
        assertEquals(3, results.size());
        int rows = 0;
        for (Asp.Result r : results) {
            assertTrue(r.verified(), "node " + r.node() + ": " + r.wrongRows() + " rows differ from Floyd-Warshall");
            rows += r.rows();
        }
        assertEquals(SIZE, rows, "the blocks cover the matrix");
    }

    @Test
    void naive() {
        check(NaiveAsp::run);
    }

    @Test
    void optimized() {
        check(OptimizedAsp::run);
    }

    @Test
    void replicated() {
        check(ReplicatedAsp::run);
    }

    @Test
    void ownerAndFirstRowAgree() {
        for (int nodes = 1; nodes <= 7; nodes++) {
            for (int n = nodes; n < 40; n++) {
                for (int k = 0; k < n; k++) {
                    int owner = AspProblem.owner(k, nodes, n);
                    assertTrue(AspProblem.firstRow(owner, nodes, n) <= k && k < AspProblem.firstRow(owner + 1, nodes, n),
                        "row " + k + " of " + n + " on " + nodes + " nodes");
                }
            }
        }
    }

    @Test
    void theGraphHasShortcutsFloydWarshallMustFind() {
        AspProblem problem = AspProblem.random(SIZE, SEED);
        int[][] direct = problem.rows(0, SIZE);
        int[][] shortest = problem.floydWarshall();
        int shorter = 0;
        for (int i = 0; i < SIZE; i++) {
            for (int j = 0; j < SIZE; j++) {
                assertTrue(shortest[i][j] <= direct[i][j]);
                shorter += shortest[i][j] < direct[i][j] ? 1 : 0;
            }
        }
        assertTrue(shorter > SIZE, "only " + shorter + " pairs got shorter");
    }
}
