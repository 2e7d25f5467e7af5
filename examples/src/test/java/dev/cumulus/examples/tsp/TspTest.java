package dev.cumulus.examples.tsp;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class TspTest {
    private static final int CITIES = 10;
    private static final long SEED = 7;

    private static void check(Tsp.Version version) {
        int optimum = TspProblem.random(CITIES, SEED).solveSequentially();
        List<Tsp.Result> results = new CopyOnWriteArrayList<>();
        LocalCluster.run(3, cluster -> results.add(version.run(cluster, CITIES, SEED)));
        assertEquals(3, results.size());
        int jobs = 0;
        for (Tsp.Result r : results) {
            assertEquals(optimum, r.length(), "node's final minimum is the sequential optimum");
            assertTrue(r.verified());
            jobs += r.jobsDone();
        }
        assertEquals(TspProblem.random(CITIES, SEED).jobs().size(), jobs, "every job was done exactly once");
    }

    @Test
    void naive() {
        check(NaiveTsp::run);
    }

    @Test
    void optimized() {
        check(OptimizedTsp::run);
    }

    @Test
    void replicated() {
        check(ReplicatedTsp::run);
    }

    @Test
    void sequentialSolverFindsTheOptimumOfASmallInstanceByBruteForce() {
        TspProblem problem = TspProblem.random(7, 3);
        assertEquals(problem.bruteForce(), problem.solveSequentially());
    }
}
