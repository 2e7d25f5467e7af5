package dev.cumulus.array;

import dev.cumulus.SpinModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model-checks docs/design/coherence.pml with spin (3 nodes, 2 partitions, one random access per node before a
 * barrier and a read of every partition after it): no two writable copies, no stale read, no deadlock.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CoherenceModelCheckTest {

    @Test
    void spinFindsNoErrorInTheCoherenceModel(@TempDir Path dir) throws Exception {
        String out = SpinModel.check(dir, "coherence.pml", List.of("-DOPS=1"), List.of("-DSAFETY", "-DCOLLAPSE"),
            List.of("./pan", "-m200000"));
        assertTrue(out.contains("invalid end states\t+"), "deadlock (invalid end state) checking must be on:\n" + out);
    }
}
