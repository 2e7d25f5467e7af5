package dev.cumulus.internal.rpc;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** When a method's calls stop running inline, with time stepped by hand. */
class InlineRecordTest {
    private static final long SLOW = TimeUnit.MICROSECONDS.toNanos(300);
    private static final long QUICK_GAP = TimeUnit.MICROSECONDS.toNanos(20);

    private static int skipped(InlineRecord r, int calls) {
        int n = 0;
        for (int i = 0; i < calls; i++) {
            n += r.skipThisCall() ? 1 : 0;
        }
        return n;
    }

    /** Two slow runs, the second started right after the first ended: the method's first counted slow run. */
    private static void twoSlowRunsInARow(InlineRecord r, long t) {
        r.slowRun(t, SLOW);
        r.slowRun(t + QUICK_GAP + SLOW, SLOW);
    }

    @Test
    void aLoneSlowRunOfAQuickMethodKeepsItInline() {
        InlineRecord r = new InlineRecord();
        long t = 1_000_000_000L;
        r.slowRun(t, SLOW); // preempted once
        assertEquals(0, skipped(r, 100));
        r.slowRun(t + TimeUnit.MILLISECONDS.toNanos(50), SLOW); // again, 50 ms later: still lone
        assertEquals(0, skipped(r, 100));
    }

    @Test
    void slowRunsOneAfterAnotherSendTheNextCallsToVirtualThreads() {
        InlineRecord r = new InlineRecord();
        twoSlowRunsInARow(r, 1_000_000_000L); // the next call, started right after the first ended, blocked too
        assertEquals(32, skipped(r, 100), "16 << 1 calls go to virtual threads after the first counted slow run");
    }

    @Test
    void aMethodWithSlowRunsOnRecordIsSentAwayAtItsNextSlowRun() {
        InlineRecord r = new InlineRecord();
        long t = 1_000_000_000L;
        twoSlowRunsInARow(r, t);
        skipped(r, 32);
        r.slowRun(t + TimeUnit.SECONDS.toNanos(1), SLOW); // much later, alone, but the record is not clean
        assertEquals(64, skipped(r, 100));
    }

    @Test
    void fastRunsForgiveTheRecordUntilALoneSlowRunIsIgnoredAgain() {
        InlineRecord r = new InlineRecord();
        long t = 1_000_000_000L;
        twoSlowRunsInARow(r, t);
        skipped(r, 32);
        for (int i = 0; i < 64; i++) {
            r.fastRun();
        }
        r.slowRun(t + TimeUnit.SECONDS.toNanos(1), SLOW);
        assertEquals(0, skipped(r, 100));
    }
}
