package dev.cumulus.internal.singlevm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Copy states by epoch: a copy filled before a thread's acquire is stale for that thread; a thread that did not
 * acquire may go on reading what was filled since its own last acquire; a never-filled copy is stale for everyone.
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
    void anotherThreadsAcquireLeavesMyCopiesReadableForMeButNotForIt() throws Exception {
        Epochs.advance();
        int mine = Epochs.filledIn(Epochs.current());
        AtomicBoolean staleForOther = new AtomicBoolean();
        Thread other = Thread.ofPlatform().start(() -> {
            Epochs.advance();
            staleForOther.set(!Epochs.validHere(mine));
        });
        other.join();
        assertTrue(staleForOther.get(), "the acquiring thread must not read a copy filled before its acquire");
        assertTrue(Epochs.validHere(mine), "filled since this thread's own last acquire");
        Epochs.advance();
        assertFalse(Epochs.validHere(mine));
    }
}
