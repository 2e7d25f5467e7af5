package dev.cumulus.internal.node;

import dev.cumulus.SpinModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model-checks docs/design/doorbell.pml with spin: the polling role and the doorbell hand-off between a node's main
 * thread, callers that poll for their replies, and senders never leave a message for an unbounded sleep's timeout —
 * also when a caller waiting for asynchronous answers keeps the bell of a napping main thread. With one caller the
 * search is exhaustive; with two it is a bitstate search (the full space needs gigabytes). A synchronous call's
 * replier may first send an awaited message (a replicated write's SUBMIT to the static sequencer), unrung while the
 * caller's promise runs. The mutants that keep the bell whatever the main thread's sleep, or leave the awaited message
 * unrung after the promise, must fail.
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
    void oneAsyncCallerThatKeepsTheBellExhaustively(@TempDir Path dir) throws Exception {
        String out = SpinModel.check(dir, "doorbell.pml", List.of("-DNC=1", "-DKIND0=ASYNC"),
            List.of("-DSAFETY", "-DCOLLAPSE"), List.of("./pan", "-m100000"));
        assertTrue(out.contains("invalid end states\t+"), "deadlock (invalid end state) checking must be on:\n" + out);
        assertFalse(out.contains("max search depth too small"), "the search must be exhaustive:\n" + out);
    }

    @Test
    void keepingTheBellOfAnUnboundedSleepIsCaught(@TempDir Path dir) throws Exception {
        String out = SpinModel.verify(dir, "doorbell.pml", List.of("-DNC=1", "-DKIND0=ASYNC", "-DKEEP_ANY_SLEEP"),
            List.of("-DSAFETY", "-DCOLLAPSE"), List.of("./pan", "-m100000"));
        assertTrue(out.contains("assertion violated"), "the mutant passed the check:\n" + out);
        assertFalse(out.contains("errors: 0"), out);
    }

    @Test
    void anAwaitedMessageUnrungAfterThePromiseIsCaught(@TempDir Path dir) throws Exception {
        String out = SpinModel.verify(dir, "doorbell.pml", List.of("-DNC=1", "-DAWAITED_NEVER_RINGS"),
            List.of("-DSAFETY", "-DCOLLAPSE"), List.of("./pan", "-m100000"));
        assertFalse(out.contains("errors: 0"), "the mutant passed the check:\n" + out);
    }

    @Test
    void twoCallersByBitstateSearch(@TempDir Path dir) throws Exception {
        SpinModel.check(dir, "doorbell.pml", List.of("-DNC=2"), List.of("-DSAFETY", "-DBITSTATE"),
            List.of("./pan", "-w26", "-m100000"));
    }

    @Test
    void anAsyncAndASynchronousCallerByBitstateSearch(@TempDir Path dir) throws Exception {
        SpinModel.check(dir, "doorbell.pml", List.of("-DNC=2", "-DKIND0=ASYNC", "-DKIND1=REPLY"),
            List.of("-DSAFETY", "-DBITSTATE"), List.of("./pan", "-w26", "-m100000"));
    }
}
