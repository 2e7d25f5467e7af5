package dev.cumulus.internal.node;

import dev.cumulus.SpinModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model-checks docs/design/doorbell.pml with spin: the polling role and the doorbell hand-off between a node's main
 * thread, callers that poll for their replies, and senders never leave a message for the sleep's timeout. With one
 * caller the search is exhaustive; with two it is a bitstate search (the full space needs gigabytes).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DoorbellModelCheckTest {

    @Test
    void oneCallerExhaustively(@TempDir Path dir) throws Exception {
        String out = SpinModel.check(dir, "doorbell.pml", List.of("-DNC=1"), List.of("-DSAFETY", "-DCOLLAPSE"),
            List.of("./pan", "-m100000"));
        assertTrue(out.contains("invalid end states\t+"), "deadlock (invalid end state) checking must be on:\n" + out);
    }

    @Test
    void twoCallersByBitstateSearch(@TempDir Path dir) throws Exception {
        SpinModel.check(dir, "doorbell.pml", List.of("-DNC=2"), List.of("-DSAFETY", "-DBITSTATE"),
            List.of("./pan", "-w26", "-m100000"));
    }
}
