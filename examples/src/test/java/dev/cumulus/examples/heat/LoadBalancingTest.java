package dev.cumulus.examples.heat;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's stepping with ghost rows, in one JVM and without the hog (a hog would confine the whole test JVM);
 * the run with the hog and a real migration is {@code MigrationExamplesSystemTest} in runtime/cli.
 */
@Timeout(120)
class LoadBalancingTest {
    @Test
    void stepsOfSeveralSweepsWithGhostRowsEqualSequentialJacobiBitForBit() {
        AtomicReference<LoadBalancing.Result> result = new AtomicReference<>();
        LocalCluster.run(3, cluster -> {
            LoadBalancing.Result r = LoadBalancing.run(cluster, new LoadBalancing.Options(40, 7, 4, -1, 0));
            if (r != null) {
                result.set(r);
            }
        });
        assertEquals(3, result.get().workers());
        assertEquals(28, result.get().sweeps());
        assertTrue(result.get().verified(), result.get().difference().toString());
    }

    @Test
    void blocksAsThinAsAStepStillVerify() {
        AtomicReference<LoadBalancing.Result> result = new AtomicReference<>();
        LocalCluster.run(2, cluster -> {
            LoadBalancing.Result r = LoadBalancing.run(cluster, new LoadBalancing.Options(6, 5, 3, -1, 0));
            if (r != null) {
                result.set(r);
            }
        });
        assertEquals(2, result.get().workers());
        assertTrue(result.get().verified(), result.get().difference().toString());
    }

    @Test
    void thePolicyNamesAWorkerSlowerThanTheOthersOnceAndMovesItToTheFastestOthersNode() {
        SlowWorkers policy = new SlowWorkers(3, 3);
        int[] nodes = {0, 1, 2};
        long ms = 1_000_000;
        for (int i = 0; i < SlowWorkers.WARMUP + SlowWorkers.WINDOW - 1; i++) {
            assertNull(policy.record(new long[] {10 * ms, 9 * ms, 40 * ms}, nodes));
        }
        SlowWorkers.Move m = policy.record(new long[] {10 * ms, 9 * ms, 40 * ms}, nodes);
        assertEquals(2, m.worker());
        assertEquals(2, m.fromNode());
        assertEquals(1, m.toNode());
        assertTrue(m.why().contains("4.2 x the median"), m.why());
        nodes[2] = 1;
        for (int i = 0; i < 2 * SlowWorkers.WINDOW; i++) {
            assertNull(policy.record(new long[] {10 * ms, 9 * ms, 40 * ms}, nodes), "a worker moves at most once");
        }
    }

    @Test
    void noWorkerMovesToTheNodeASlowOneLeftNorToANodeThatIsFull() {
        SlowWorkers policy = new SlowWorkers(3, 3);
        long ms = 1_000_000;
        SlowWorkers.Move first = null;
        for (int i = 0; first == null && i < 20; i++) {
            first = policy.record(new long[] {10 * ms, 9 * ms, 40 * ms}, new int[] {0, 1, 2});
        }
        assertEquals(1, first.toNode());
        for (int i = 0; i < 20; i++) {
            assertNull(policy.record(new long[] {40 * ms, 9 * ms, 9 * ms}, new int[] {0, 1, 1}),
                "node 2 was left as loaded and node 1 holds two of three workers: worker 0 has nowhere better to go");
        }
    }

    @Test
    void evenWorkersStayWhereTheyAre() {
        SlowWorkers policy = new SlowWorkers(3, 3);
        for (int i = 0; i < 20; i++) {
            assertNull(policy.record(new long[] {10_000_000, 12_000_000, 14_000_000}, new int[] {0, 1, 2}));
        }
    }
}
