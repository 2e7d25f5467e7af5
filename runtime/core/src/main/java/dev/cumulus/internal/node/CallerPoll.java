package dev.cumulus.internal.node;

import dev.cumulus.internal.sched.Scheduler.Awaited;
import dev.cumulus.internal.transport.Cpus;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One wait of a thread that polls for what it waits for (a reply, a delivered write, a grant) before it blocks: it
 * spins for {@link #SPIN_NS}, then yields the core between looks, until what it waits for is there or its deadline
 * passed. It runs the brief calls its polls bring right after them (and, waiting for a reply, the writes the scheduler
 * hands it). The node's main thread sleeps on its doorbell meanwhile.
 *
 * <p>The doorbell hand-off: a wait for a reply leaves the bell alone at first (most replies come within a µs, and a
 * write to the bell's line, which senders read, moves the line between cores); after {@link #LATE_AFTER_LOOKS} looks
 * it runs its {@code late} task and takes the bell over, so senders stop ringing the sleeping main thread. Any other
 * wait takes it over at once, a wait for an asynchronous answer too (those answers ring: their calls promised no
 * polling), though it spins hot at first like a reply's. As it stops it hands the bell back (when the main thread
 * sleeps) and looks once more when it has to: see {@link #lastLooks}.
 *
 * <p>A wait for an asynchronous answer with more of them due ({@link Awaited#ASYNC_REPLY_MORE_DUE}: its thread started
 * later calls, so it will poll again soon) asks the main thread to nap ({@link DutyCycle#napWanted}) and, when its
 * answer came, keeps the bell of a napping main thread instead of handing it back ({@link Doorbell#keep}): the answers
 * that come before it polls again ring nobody. A thread that stops polling for good meanwhile (it computes, or blocks
 * past its budget) costs a message at most the nap's bound; a wait that ended by its deadline hands back as any other.
 */
final class CallerPoll {
    /** How long a wait spins before it starts yielding. */
    static final long SPIN_NS = TimeUnit.MICROSECONDS.toNanos(3);
    /** Looks after which a reply is late. */
    static final int LATE_AFTER_LOOKS = 32;
    /** While spinning, idle looks between two clock reads (a power of two). */
    static final int IDLE_LOOKS_PER_CLOCK_READ = 8;
    /** Polls that found work between two looks at the deadline. */
    static final int POLLS_PER_LOOK = 8;
    private static final int MAX_LAST_LOOKS = 8;

    /** What a caller waiting for a reply collects: it also runs {@code WRITES_FOR_WAITING_CALLER} work. */
    static final class ReplyWaiterCalls extends ArrayList<DutyCycle.Call> {
        ReplyWaiterCalls() {
            super(1);
        }
    }

    private final DutyCycle cycle;
    private final Doorbell bell;
    private final Runnable late;
    /** The first looks spin hot (a reply, or an asynchronous answer, usually comes within a µs). */
    private final boolean hotFirst;
    /** The bell is taken over at the first look: what it waits for rings (an asynchronous answer), or is no reply. */
    private final boolean bellAtOnce;
    private final List<DutyCycle.Call> mine;
    /** More asynchronous answers are due: a napping main thread's bell is kept when this wait ends done. */
    private final boolean keepsBell;
    private int looks;
    private boolean tookOver;
    /** The CPU this waiter last published ({@link Doorbell#waiting}), -2 for none. */
    private int publishedCpu = -2;

    CallerPoll(DutyCycle cycle, Doorbell bell, Awaited awaited, Runnable late) {
        this.cycle = cycle;
        this.bell = bell;
        this.late = late;
        this.keepsBell = awaited == Awaited.ASYNC_REPLY_MORE_DUE;
        boolean async = keepsBell || awaited == Awaited.ASYNC_REPLY;
        this.hotFirst = late != null || async;
        this.bellAtOnce = late == null || async;
        this.mine = awaited == Awaited.OTHER ? new ArrayList<>(1) : new ReplyWaiterCalls();
    }

    /** Polls until {@code done}, or until the clock passed {@code untilNs} and one more look found nothing. */
    void pollUntil(BooleanSupplier done, long untilNs) {
        cycle.pollingCallers.incrementAndGet(); // the idle main thread sleeps instead of competing for the core
        if (keepsBell && bell != null && !cycle.napWanted) { // a read first: the main thread reads the line too
            cycle.napWanted = true;
        }
        if (bellAtOnce) {
            takeOver();
        }
        try {
            long startNs = System.nanoTime(); // off the round trip: the request is on its way
            boolean spinning = true;
            int idleLooks = 0;
            while (true) {
                int work = 0;
                for (int polls = 0; polls < POLLS_PER_LOOK; polls++) { // several messages may have come at once
                    int done1 = poll(hot());
                    if (done1 <= 0 || done.getAsBoolean()) {
                        break;
                    }
                    work += done1;
                }
                if (done.getAsBoolean() || !cycle.running()) {
                    return;
                }
                looked();
                if (work > 0 || !spinning || (++idleLooks & (IDLE_LOOKS_PER_CLOCK_READ - 1)) == 0) {
                    long now = System.nanoTime();
                    if (now - untilNs > 0) {
                        return;
                    }
                    spinning = now - startNs <= SPIN_NS;
                }
                if (spinning) {
                    Thread.onSpinWait();
                } else {
                    if (!hotFirst) {
                        publishCpu(); // it yields before it is late: a main thread spinning on its core makes way
                    }
                    Thread.yield();
                }
            }
        } finally {
            // first stop counting, then look at the main thread (it writes mainAsleep and lookMissed before it counts
            // us): either it sees no polling caller and stays up, or we see what it wrote and look for it
            cycle.pollingCallers.decrementAndGet();
            if (publishedCpu >= 0) {
                bell.notWaiting(publishedCpu);
            }
            boolean answered = done.getAsBoolean();
            boolean blocksNext = keepsBell && !answered;
            if (blocksNext) {
                cycle.napWanted = false; // it blocks next, polling no more: no nap on its account
            }
            // keeping a napping main thread's bell: answers before the next poll ring nobody, the nap bounds the rest;
            // a wait that blocks next takes a kept bell back even from an awake main thread (whose next nap it is)
            boolean handBack = tookOver && (cycle.mainAsleep || blocksNext && bell.kept())
                && !(keepsBell && answered && bell.keep());
            if (handBack) {
                bell.announceSleep(false); // hand the bell back, then look once more for what came unrung
            }
            lastLooks(handBack || !answered);
        }
    }

    /** A wait for a reply in its first looks spins hot: quick cycles. */
    private boolean hot() {
        return hotFirst && looks < LATE_AFTER_LOOKS;
    }

    /**
     * After {@link #LATE_AFTER_LOOKS} looks: runs {@code late}, takes the bell over, and from then on publishes the
     * CPU this waiter runs on whenever it changes, so a spinning main thread of the host on that CPU makes way
     * ({@link DoorbellIdle}). A reply that comes sooner costs no look at the CPU and no write to a shared line.
     */
    private void looked() {
        if (looks < LATE_AFTER_LOOKS) {
            if (++looks == LATE_AFTER_LOOKS) {
                if (late != null) {
                    late.run();
                }
                takeOver();
            }
            return;
        }
        publishCpu();
    }

    /**
     * Publishes the CPU this waiter runs on when it changed ({@link Doorbell#waiting}): from the late look on, and
     * before each yield of a wait that does not spin hot (a grant's): that wait yields after {@link #SPIN_NS}, long
     * before it is late, and would otherwise give its core to the main thread that sent what it waits for and now
     * spins on that core, and wait out that main thread's spin while the other core is free. A hot wait (a reply, an
     * asynchronous answer) publishes only once late: its yields are many and brief, and each published CPU makes a
     * main thread give way.
     */
    private void publishCpu() {
        if (bell != null) {
            int cpu = Cpus.current();
            if (cpu != publishedCpu && cpu >= 0) {
                publishedCpu = cpu;
                bell.waiting(cpu);
            }
        }
    }

    private void takeOver() {
        if (bell != null && !tookOver) {
            tookOver = true;
            bell.takeOver();
        }
    }

    /** One duty cycle, then the work it handed to this thread; returns the cycle's work, or -1 (role taken). */
    private int poll(boolean hot) {
        int work = cycle.pollOnce(mine, false, hot);
        cycle.runCollected(mine);
        return work;
    }

    /**
     * The looks a caller takes as it stops: when {@code needed} (it handed the bell back, or its wait ended by its
     * deadline — a reply sent before that deadline, unrung, is in the log by now), and whenever another thread's look
     * failed against this one's poll ({@link DutyCycle#lookMissed}). When its own look finds the role taken it leaves
     * lookMissed set for the thread holding it — whose next act after letting go is to read it — unless that thread
     * let go meanwhile: then it looks again. Out of looks with one still due, it wakes the main thread to take it
     * ({@code docs/design/doorbell.pml} checks this hand-off).
     */
    private void lastLooks(boolean needed) {
        boolean look = needed || cycle.lookMissed;
        int looks = 0;
        while (look && cycle.running() && looks < MAX_LAST_LOOKS) {
            looks++;
            cycle.lookMissed = false;
            int work = poll(false);
            if (work < 0) {
                cycle.lookMissed = true; // for the thread holding the role (volatile write, then read of the role)
                if (cycle.roleTaken()) {
                    return;
                }
                continue;
            }
            // a poll takes a bounded number of messages: one that found work may have left some; and the role's
            // release must be seen before lookMissed is read (a release store alone may pass the load)
            VarHandle.fullFence();
            look = cycle.lookMissed || work > 0;
        }
        if (look && bell != null && cycle.running()) {
            bell.wake();
        }
    }
}
