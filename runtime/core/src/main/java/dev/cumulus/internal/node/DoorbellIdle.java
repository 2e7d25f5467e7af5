package dev.cumulus.internal.node;

import dev.cumulus.internal.transport.Cpus;
import org.agrona.concurrent.IdleStrategy;

import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The main thread's idle strategy on a host with doorbells: spin {@link NodeSettings.Scheduling#idleSpins} polls,
 * yield until {@link NodeSettings.Scheduling#AWAKE_NS} passed since the last work, then announce the sleep, look for
 * work once more (a message sent before the announcement is found by that look; one sent after it rings), and sleep
 * until rung or {@link NodeSettings.Scheduling#SLEEP_NS}. While a caller polls for what it waits for, the main thread
 * sleeps the same way instead of competing for the core ({@link #othersPoll}). Main thread only.
 */
final class DoorbellIdle implements IdleStrategy {
    private final DutyCycle cycle;
    private final Doorbell bell;
    private final List<DutyCycle.Call> polled;
    private final int idleSpins;
    /** An idle main thread looks for a waiter on its CPU every this many spins (a power of two). */
    static final int WAITER_CHECK_SPINS = 16;
    static final long MOVE_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private long lastMoveNs = System.nanoTime() - MOVE_EVERY_NS;
    private int idleCycles;
    private long idleSinceNs;
    /** The main thread slept since its last duty cycle: the next one reads the clock afresh. */
    private boolean waited;

    DoorbellIdle(DutyCycle cycle, Doorbell bell, List<DutyCycle.Call> polled, NodeSettings.Scheduling settings) {
        this.cycle = cycle;
        this.bell = bell;
        this.polled = polled;
        this.idleSpins = settings.idleSpins();
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            idleCycles = 0;
            return;
        }
        idle();
    }

    @Override
    public void idle() {
        idleCycles++;
        if (idleCycles == 1) {
            idleSinceNs = System.nanoTime();
        }
        if (idleCycles <= idleSpins) {
            if ((idleCycles & (WAITER_CHECK_SPINS - 1)) == 0) {
                makeWayForWaiter();
            } else {
                Thread.onSpinWait();
            }
        } else if (System.nanoTime() - idleSinceNs < NodeSettings.Scheduling.AWAKE_NS) {
            Thread.yield();
        } else {
            sleepOnBell(false);
        }
    }

    /**
     * When a thread waiting for a message — a caller polling for its reply, of this node or another on the host —
     * last ran on this thread's CPU, moves away ({@link Cpus#leave}, at most once per {@link #MOVE_EVERY_NS}) or
     * yields: otherwise the waiter runs only after this whole spin phase, and the two stay together.
     */
    private void makeWayForWaiter() {
        int cpu = Cpus.current();
        if (!bell.waiterOn(cpu)) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastMoveNs > MOVE_EVERY_NS && Cpus.leave(cpu)) {
            lastMoveNs = now;
        } else {
            Thread.yield();
        }
    }

    @Override
    public void reset() {
        idleCycles = 0;
    }

    /** In the spin phase (its next idle cycle spins): the main thread spins hot. */
    boolean spinning() {
        return idleCycles < idleSpins;
    }

    /** Whether the main thread slept since its last duty cycle. */
    boolean waited() {
        return waited;
    }

    /** A duty cycle of the main thread ran. */
    void polled() {
        waited = false;
    }

    /** A caller polls (or holds the polling role right now): sleep rather than compete for the core. */
    void othersPoll() {
        sleepOnBell(true);
    }

    /**
     * Announces the sleep (senders ring from now on), looks once more with a full cycle, and sleeps on the bell until
     * rung or {@link NodeSettings.Scheduling#SLEEP_NS} — unless that look found work, or ({@code whileCallersPoll}) no
     * caller polls any more. When the look found the role taken (a caller polls), it sets {@link DutyCycle#lookMissed}
     * first and sleeps only while callers still poll: the last one to stop looks for what came before the
     * announcement. When a thread waiting for asynchronous answers asked for it since the last sleep
     * ({@link DutyCycle#napWanted}), the sleep is a nap of {@link NodeSettings.Scheduling#NAP_NS}: that thread may keep
     * the bell as it stops polling ({@link Doorbell#keep}). A nap when the bell is kept is on the bell as it is, with
     * no announcement (that thread waited again since the last sleep, so it is still polling); any other sleep's
     * announcement takes a kept bell back.
     */
    private void sleepOnBell(boolean whileCallersPoll) {
        boolean nap = cycle.napWanted;
        if (nap) {
            cycle.napWanted = false; // asked for again by the next such wait
        }
        // the thread that keeps the bell waited again since the last sleep: nap on the bell as it is (no rings), the
        // nap bounding what comes meanwhile; else announce, which takes a kept bell back
        boolean onKept = nap && bell.kept();
        cycle.mainAsleep = true; // before the look and the count: a caller that stops from now on sees it
        if (!onKept) {
            bell.announceSleep(nap);
        }
        int work = cycle.pollOnce(polled, waited, false);
        VarHandle.fullFence(); // the role's release is seen before lookMissed is read (CallerPoll.lastLooks)
        boolean sleep;
        if (work < 0) {
            cycle.lookMissed = true;
            sleep = cycle.pollingCallers.get() > 0;
        } else if (cycle.lookMissed) {
            cycle.lookMissed = false; // a caller's look failed against this one (role released, then this read)
            waited = false;
            sleep = false;
        } else {
            waited = false;
            sleep = work == 0 && polled.isEmpty() && (!whileCallersPoll || cycle.pollingCallers.get() > 0);
        }
        if (sleep) {
            if (onKept) {
                bell.napKept(NodeSettings.Scheduling.NAP_NS);
            } else {
                bell.sleep(nap, nap ? NodeSettings.Scheduling.NAP_NS : NodeSettings.Scheduling.SLEEP_NS);
            }
        } else if (work > 0 || !polled.isEmpty()) {
            idleCycles = 0;
        }
        waited = true; // also when that look found the role taken: the next one reads the clock
        cycle.mainAsleep = false;
        bell.awake();
        if (whileCallersPoll) {
            idleCycles = 0;
        }
    }
}
