package dev.cumulus.internal.node;

import dev.cumulus.internal.transport.Cpus;
import org.agrona.concurrent.IdleStrategy;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The standby thread's loop: it watches the main thread while calls come in, delivered writes counting as calls (a
 * timed park every {@link DutyCycle#WATCH_NS}) and, once a call or a batch has run for {@link DutyCycle#TAKEOVER_NS},
 * hands the batch's calls not started yet to their executors and polls in the main thread's place until that call ends
 * (calls arriving meanwhile go to virtual threads). It marks such a call slow, so its method runs on virtual threads
 * for a while ({@code InlineRecord}). After {@link DutyCycle#DEEP_SLEEP_NS} without calls it parks until the next one.
 */
final class Standby {
    private final DutyCycle cycle;
    private final InlineCalls inline;
    /** How the standby idles while it polls in the main thread's place (the node's idle strategy). */
    private final IdleStrategy idle;

    Standby(DutyCycle cycle, IdleStrategy idle) {
        this.cycle = cycle;
        this.inline = cycle.inline;
        this.idle = idle;
    }

    /**
     * A caller's last look may have failed against this poll while the main thread sleeps: as the main thread does
     * after its own last look, the standby then looks again (setting the flag again when that look fails too).
     */
    private void lookAgainIfMissed() {
        for (int looks = 0; looks < 8; looks++) {
            VarHandle.fullFence(); // the role's release is seen before lookMissed is read
            if (!cycle.lookMissed) {
                return;
            }
            cycle.lookMissed = false;
            if (cycle.pollOnce(null, false, false) < 0) {
                cycle.lookMissed = true; // for the thread holding the role now
                return;
            }
        }
    }

    void run() {
        Cpus.batchPolicy(); // best effort: it wakes every WATCH_NS while calls come in; under SCHED_BATCH it does not preempt
        boolean waited = true;
        long seenCalls = inline.calls;
        long lastCallSeen = System.nanoTime();
        long watched = 0; // the busy call (or batch) seen at the last look, and since when
        long watchedSince = 0;
        long watchedRun = 0; // the running call seen at the last look, and since when
        long watchedRunSince = 0;
        while (cycle.running()) {
            inline.beforeLook.run();
            long now = System.nanoTime();
            long busy = inline.busyCall;
            long run = inline.runningCall;
            long calls = inline.calls;
            if (calls != seenCalls || busy != 0) {
                seenCalls = calls;
                lastCallSeen = now;
            }
            if (run != watchedRun) {
                watchedRun = run;
                watchedRunSince = now;
            } else if (run != 0 && now - watchedRunSince >= DutyCycle.TAKEOVER_NS && inline.slowCall != run) {
                inline.slowSinceNs = watchedRunSince;
                inline.slowCall = run;
            }
            if (busy != watched) {
                watched = busy;
                watchedSince = now;
            } else if (busy != 0 && !cycle.mainPollsInCall() && now - watchedSince >= DutyCycle.TAKEOVER_NS) {
                cycle.handOnBatch();
                int work = cycle.pollOnce(null, waited, false);
                if (work >= 0) {
                    waited = false;
                    lookAgainIfMissed();
                }
                idle.idle(Math.max(work, 0));
                waited |= work <= 0; // its strategy may have parked: the next cycle reads the clock
                continue;
            }
            waited = true;
            idle.reset();
            if (busy == 0 && now - lastCallSeen > DutyCycle.DEEP_SLEEP_NS) {
                inline.standbyAsleep = true;
                if (inline.busyCall == 0 && cycle.running()) {
                    LockSupport.park(this);
                }
                inline.standbyAsleep = false;
                lastCallSeen = System.nanoTime();
            } else {
                LockSupport.parkNanos(this, DutyCycle.WATCH_NS);
            }
        }
    }
}
