package dev.cumulus.examples.leq;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class LeqTest {
    private static final int SIZE = 90;
    private static final long SEED = 5;

    private static void check(Leq.Version version) {
        List<Leq.Result> results = new CopyOnWriteArrayList<>();
        LocalCluster.run(3, cluster -> results.add(version.run(cluster, SIZE, SEED)));
        assertEquals(3, results.size());
        for (Leq.Result r : results) {
            assertEquals(r.sequentialSweeps(), r.sweeps(), "same number of sweeps as sequential Jacobi");
            assertTrue(r.residual() < LeqProblem.RESIDUAL_TOLERANCE, "residual " + r.residual());
            assertTrue(r.maxDifference() <= LeqProblem.MATCH_TOLERANCE, "differs by " + r.maxDifference());
            assertTrue(r.verified());
        }
    }

    @Test
    void naive() {
        check(NaiveLeq::run);
    }

    @Test
    void optimized() {
        check(OptimizedLeq::run);
    }

    @Test
    void replicated() {
        check(ReplicatedLeq::run);
    }

    @Test
    void sequentialJacobiConvergesToASolution() {
        LeqProblem problem = new LeqProblem(SIZE, SEED);
        LeqProblem.Solution s = problem.solveSequentially();
        assertTrue(s.sweeps() > 5 && s.sweeps() < LeqProblem.MAX_SWEEPS, s.sweeps() + " sweeps");
        assertTrue(problem.residual(s.x()) < LeqProblem.RESIDUAL_TOLERANCE);
    }
}
