package dev.cumulus.examples.matmul;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(120)
class MasterWorkerTest {
    @Test
    void productOnThreeWorkersMatchesTheSequentialOne() {
        AtomicReference<MasterWorker.Result> result = new AtomicReference<>();
        LocalCluster.run(4, cluster -> {
            MasterWorker.Result r = MasterWorker.run(cluster, 97, 7);
            if (r != null) {
                result.set(r);
            }
        });
        assertEquals(3, result.get().workers());
        assertEquals(97, result.get().size());
        assertTrue(result.get().verified(), "max error " + result.get().maxError());
    }

    @Test
    void oneNodeWorksAlone() {
        AtomicReference<MasterWorker.Result> result = new AtomicReference<>();
        LocalCluster.run(1, cluster -> result.set(MasterWorker.run(cluster, 16, 1)));
        assertTrue(result.get().verified());
        assertEquals(1, result.get().workers());
    }
}
