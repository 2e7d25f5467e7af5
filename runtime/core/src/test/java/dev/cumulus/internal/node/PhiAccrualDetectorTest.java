package dev.cumulus.internal.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The phi accrual detector, fed inter-arrival times on a stepped clock. */
@Timeout(10)
class PhiAccrualDetectorTest {
    private static final long MS = 1_000_000L;
    private static final long INTERVAL = 200 * MS;
    private static final long FLOOR = 1_000 * MS;
    private static final long CEILING = 2_000 * MS;

    private static PhiAccrualDetector detector() {
        return new PhiAccrualDetector(8, INTERVAL, INTERVAL / 2, FLOOR, CEILING, 0);
    }

    /** Feeds {@code n} proofs {@code gap} apart after {@code from}; returns the time of the last. */
    private static long beats(PhiAccrualDetector d, long from, int n, long gap) {
        long t = from;
        for (int i = 0; i < n; i++) {
            t += gap;
            d.proof(t);
        }
        return t;
    }

    @Test
    void clockLikeBeatsAreSuspectedAtTheFloorAndNotBefore() {
        PhiAccrualDetector d = detector();
        long last = beats(d, 0, 50, INTERVAL);
        assertTrue(d.phi(last + FLOOR - MS) > 8, "phi is far past the threshold before the floor");
        assertFalse(d.suspects(last + FLOOR - MS), "but the floor holds");
        assertTrue(d.suspects(last + FLOOR));
        assertEquals(FLOOR, d.silenceNs(last + FLOOR));
    }

    @Test
    void irregularBeatsGetMoreTimeUpToTheCeiling() {
        PhiAccrualDetector d = detector();
        long t = 0;
        for (int i = 0; i < 40; i++) { // a loaded host: beats 100 ms and 1.4 s apart, by turns
            t = beats(d, t, 1, i % 2 == 0 ? 100 * MS : 1_400 * MS);
        }
        assertFalse(d.suspects(t + FLOOR), "a silence this history has seen often is not suspected at the floor");
        assertFalse(d.suspects(t + 1_500 * MS));
        assertTrue(d.suspects(t + CEILING), "the ceiling holds whatever the history");
        assertTrue(d.phi(t + CEILING) < 8, "the ceiling, not phi, suspected it");
    }

    @Test
    void aThreefoldSlowdownOfAHealthyNodeIsNeverSuspected() {
        PhiAccrualDetector d = detector();
        long t = beats(d, 0, 64, INTERVAL);
        for (int i = 0; i < 200; i++) {
            long gap = 3 * INTERVAL + (i % 3 - 1) * 100 * MS; // 3x slower, with +-100 ms of jitter
            assertFalse(d.suspects(t + gap - 1), "beat " + i);
            t += gap;
            d.proof(t);
        }
    }

    @Test
    void phiGrowsWithSilenceAndStaysFinite() {
        PhiAccrualDetector d = detector();
        long last = beats(d, 0, 10, INTERVAL);
        double previous = -1;
        for (long silence = 0; silence <= 10_000 * MS; silence += 50 * MS) {
            double phi = d.phi(last + silence);
            assertTrue(phi >= previous, "phi at " + silence / MS + " ms");
            assertTrue(Double.isFinite(phi));
            previous = phi;
        }
        assertTrue(Double.isFinite(d.phi(last + Long.MAX_VALUE / 2)));
        assertTrue(d.phi(last) < 1, "no silence, no suspicion");
    }

    @Test
    void theWindowForgetsOldHistory() {
        PhiAccrualDetector d = detector();
        long t = 0;
        for (int i = 0; i < PhiAccrualDetector.WINDOW; i++) {
            t = beats(d, t, 1, 1_400 * MS);
        }
        assertFalse(d.suspects(t + 1_500 * MS), "long gaps are the norm");
        t = beats(d, t, PhiAccrualDetector.WINDOW, INTERVAL);
        assertEquals(INTERVAL, d.meanNs(), 1, "only the last " + PhiAccrualDetector.WINDOW + " samples count");
        assertTrue(d.suspects(t + FLOOR), "regular again: suspected at the floor");
    }

    @Test
    void aTimeFromBeforeTheLastProofIsIgnored() {
        PhiAccrualDetector d = detector();
        d.proof(500 * MS);
        d.proof(400 * MS);
        assertEquals(500 * MS, d.lastProofNs());
    }

    @Test
    void nonsenseParametersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PhiAccrualDetector(8, INTERVAL, 1, CEILING, FLOOR, 0));
        assertThrows(IllegalArgumentException.class, () -> new PhiAccrualDetector(0, INTERVAL, 1, FLOOR, CEILING, 0));
        assertThrows(IllegalArgumentException.class, () -> new PhiAccrualDetector(8, 0, 1, FLOOR, CEILING, 0));
    }
}
