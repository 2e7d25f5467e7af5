package dev.cumulus.internal.singlevm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Copy states by epoch: a copy filled before any thread's acquire on the node is stale for every thread of the node
 * (they may be ordered after that acquire by synchronization the runtime does not see); a never-filled copy is stale
 * for everyone.
 */
@Timeout(60)
class EpochsTest {
    @Test
    void aCopyFilledBeforeMyAcquireIsStaleForMeAndFreshOnesAreNot() {
        Epochs.advance();
        int filled = Epochs.filledIn(Epochs.current());
        assertTrue(Epochs.validHere(filled));
        Epochs.advance();
        assertFalse(Epochs.validHere(filled), "filled before this thread's acquire");
        assertTrue(Epochs.validHere(Epochs.filledIn(Epochs.current())));
        assertFalse(Epochs.validHere(Epochs.NEVER_FILLED));
        assertTrue(Epochs.validHere(Epochs.ALWAYS_VALID));
        assertTrue(Epochs.validHere(0), "a master");
    }

    @Test
    void anotherThreadsAcquireMakesMyCopiesStaleForMeToo() throws Exception {
        Epochs.advance();
        int mine = Epochs.filledIn(Epochs.current());
        AtomicBoolean staleForOther = new AtomicBoolean();
        Thread other = Thread.ofPlatform().start(() -> {
            Epochs.advance();
            staleForOther.set(!Epochs.validHere(mine));
        });
        other.join(); // as a JDK executor's Future.get would: an edge the runtime does not see
        assertTrue(staleForOther.get(), "the acquiring thread must not read a copy filled before its acquire");
        assertFalse(Epochs.validHere(mine), "this thread may be ordered after the other's acquire");
    }
}
