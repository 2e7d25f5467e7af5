package dev.cumulus.internal.singlevm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model-checks docs/design/singlevm.pml with spin, exhaustively: lock, invalidate, write-back with acknowledgements
 * and fetch on 3 nodes keep message passing through a monitor and through a volatile, and lose no write at unlock.
 * The mutant that releases before the acknowledgements (singlevm-early-release.pml) must fail the same check, which
 * shows the check can fail. singlevm-publish.pml checks homing an object where it is first published, and its two
 * mutants (no twin; "known" locals kept across a monitorenter) must fail it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SingleVmModelCheckTest {
    private static final List<String> PAN = List.of("-m100000");

    @Test
    void oneRoundEachHoldsEveryAssertion(@TempDir Path dir) throws Exception {
        assertHolds(SpinRunner.verify(dir, List.of("singlevm.pml"), List.of("-DROUNDS=1"), PAN));
    }

    @Test
    void twoRoundsEachHoldEveryAssertion(@TempDir Path dir) throws Exception {
        assertHolds(SpinRunner.verify(dir, List.of("singlevm.pml"), List.of("-DROUNDS=2"), PAN));
    }

    @Test
    void releasingBeforeTheAcknowledgementsIsCaught(@TempDir Path dir) throws Exception {
        String out = SpinRunner.verify(dir, List.of("singlevm-early-release.pml", "singlevm.pml"),
            List.of("-DROUNDS=1"), PAN);
        assertTrue(out.contains("assertion violated"), "the mutant passed the check:\n" + out);
        assertFalse(out.contains("errors: 0"), out);
    }

    @Test
    void homingWherePublishedHoldsEveryAssertion(@TempDir Path dir) throws Exception {
        assertHolds(SpinRunner.verify(dir, List.of("singlevm-publish.pml"), List.of(), PAN));
    }

    @Test
    void aPublishedCopyWithoutItsTwinLosesTheWriteOfASiteThatTookItForAnOriginal(@TempDir Path dir)
            throws Exception {
        assertViolated(SpinRunner.verify(dir, List.of("singlevm-publish.pml"), List.of("-DNO_TWIN"), PAN));
    }

    @Test
    void keepingTheKnownLocalsAcrossAMonitorEnterReadsAStalePublishedCopy(@TempDir Path dir) throws Exception {
        assertViolated(SpinRunner.verify(dir, List.of("singlevm-publish.pml"), List.of("-DKEEP_KNOWN"), PAN));
    }

    private static void assertViolated(String out) {
        assertTrue(out.contains("assertion violated"), "the mutant passed the check:\n" + out);
        assertFalse(out.contains("errors: 0"), out);
    }

    private static void assertHolds(String out) {
        assertTrue(out.contains("errors: 0"), out);
        assertFalse(out.contains("pan:1:"), out);
        assertTrue(out.contains("assertion violations\t+"), "assertions must be checked:\n" + out);
        assertTrue(out.contains("invalid end states\t+"), "deadlock (invalid end state) checking must be on:\n" + out);
        assertFalse(out.contains("max search depth too small"), "the search must be exhaustive:\n" + out);
    }
}
