package dev.cumulus.internal.cloud;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.Predicate;

/**
 * Runs a node's delivered writes one at a time, in sequence order, and gives {@code wait}/{@code notify} in cloud
 * classes Java's meaning with a wake-up order that is the same on every replica (Manta §3.4, after the Weaver idea).
 *
 * <p>One thread at a time holds the <em>runner role</em> and runs the next step inline: usually the main thread right
 * after the poll that delivered it ({@link #drain}), so a write costs no thread switch; else the scheduler's own
 * thread ({@link #wake}). A write that waits starts a new runner and waits; when a {@code notify} queues it and its
 * turn comes, the runner hands the role back to it and ends. Woken writes go first, in the order woken, then
 * delivered writes in sequence order. Nothing depends on timing, so every replica takes the same steps.
 *
 * <p>Threads: {@link #deliver} from the polling thread; {@link #drain} from any thread (one runs, the others
 * return). Only the role's holder touches the wait sets and the resume queue; taking the role (a CAS) and each
 * hand-over (thread start, monitor notify) order the memory effects.
 */
final class DeliveryScheduler {
    /** A delivered step. */
    interface Step {
        long seq();

        /** True for steps that never run user code (they cannot wait). */
        boolean inline();

        /** The object whose monitor the step's code may take (a replica's root), or null; read by any thread. */
        default Object monitor() {
            return null;
        }

        void run();
    }

    private final ConcurrentLinkedQueue<Step> incoming = new ConcurrentLinkedQueue<>();
    /** The runner role. */
    private final AtomicBoolean runner = new AtomicBoolean();
    /** True from a {@link #deliver} that asked for a drain until a drain starts. */
    private final AtomicBoolean drainAsked = new AtomicBoolean();
    private final Thread thread;
    private final Runnable onWait;
    /** True while the scheduler's own thread is parked between drains (it may instead be blocked in a wait). */
    private volatile boolean threadIdle;
    private final ArrayDeque<Execution> resumable = new ArrayDeque<>();
    private final Map<Object, ArrayDeque<Execution>> waitSets = new IdentityHashMap<>();
    private final String name;
    private final LongConsumer onApplied;
    private final ThreadLocal<Execution> current = new ThreadLocal<>();
    private volatile boolean stopped;
    /** The monitor a woken write needs back, from its resumption until it has it; else null. One at a time. */
    private volatile Object resumingOn;
    /** The write that runs now (one at a time: the runner role), or null. */
    private volatile Execution running;

    /** One delivered write while it runs or waits. */
    private static final class Execution {
        final Step step;
        /** The thread that runs the write now (it changes when the write waits and is woken). */
        volatile Thread thread;
        Object waitingOn;
        boolean applied;
        volatile boolean resumed;
        /** The thread was interrupted while the write waited: the flag is set again when the write is over. */
        boolean interrupted;
        /** The highest sequence number whose applied mark waits for this woken write ({@link #markApplied}). */
        long carried = NO_MARK;

        Execution(Step step) {
            this.step = step;
        }
    }

    DeliveryScheduler(String name, LongConsumer onApplied) {
        this(name, onApplied, () -> { });
    }

    /** @param onWait told (on the waiting thread) whenever a delivered write waits */
    DeliveryScheduler(String name, LongConsumer onApplied, Runnable onWait) {
        this.name = name;
        this.onApplied = onApplied;
        this.onWait = onWait;
        this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this::idleLoop);
    }

    void start() {
        thread.start();
    }

    /** The scheduler's thread between drains: parked, and marked idle so {@link #wake} knows it can take a drain. */
    private void idleLoop() {
        while (!stopped) {
            threadIdle = true;
            LockSupport.park(this);
            threadIdle = false;
            try {
                drain();
            } catch (RuntimeException e) {
                // writes report their own failures; anything else is reported here, and the thread keeps serving
                Thread t = Thread.currentThread();
                t.getUncaughtExceptionHandler().uncaughtException(t, e);
            }
        }
    }

    /**
     * Queues a delivered step (polling thread). True when the caller must see to a {@link #drain}: after its poll, or
     * by {@link #wake}; false when one is on its way.
     */
    boolean deliver(Step step) {
        incoming.add(step);
        return drainAsked.compareAndSet(false, true);
    }

    /**
     * Has a scheduler thread {@link #drain}: its own thread when idle, else (it may be blocked in a waiting write) a
     * new virtual thread. An extra drain is harmless: the runner role lets one run.
     */
    void wake() {
        if (threadIdle) {
            LockSupport.unpark(thread);
        } else {
            Thread.ofVirtual().name(name + "-runner").start(this::drain);
        }
    }

    /** True on the thread of a delivered write while it runs. */
    boolean inExecution() {
        return current.get() != null;
    }

    /**
     * Runs the queued steps on this thread unless another thread holds the runner role; returns when none is left,
     * or when this thread handed the role to a woken write.
     */
    void drain() {
        drainAsked.set(false); // a step queued from now on asks again, or is found below
        while (!stopped && !incoming.isEmpty() && runner.compareAndSet(false, true)) {
            boolean handedOn = false;
            try {
                handedOn = !runSteps();
            } finally {
                if (!handedOn) {
                    runner.set(false); // also when a step failed: the next drain goes on after it
                }
            }
            if (handedOn) {
                return;
            }
        }
    }

    /**
     * Runs {@code step} here if it is next in line and no other thread holds the runner role; true when it ran. For
     * the thread that shipped the write: it runs its own write as plain Java would. Steps queued behind it go to a
     * drain, never to this thread, which may hold its caller's monitors. If the write waits, this thread waits in it
     * and holds the role again when it resumes.
     */
    boolean runOwn(Step step) {
        return runHereWhile(next -> next == step, 1) == 1;
    }

    /**
     * Runs queued steps here, in order, while {@code mayRunHere} accepts the next, at most {@code max}; the rest go to
     * a drain. For a thread that polled them while waiting for a reply.
     */
    void drainWhile(Predicate<Step> mayRunHere, int max) {
        if (runHereWhile(mayRunHere, max) == 0 && !incoming.isEmpty()) {
            wake(); // the next step is not for this thread
        }
    }

    /**
     * Like {@link #drainWhile}; returns how many ran, or -1 when another thread holds the role. Waiters a step notified
     * resume on a new runner that takes the role from here.
     */
    private int runHereWhile(Predicate<Step> mayRunHere, int max) {
        drainAsked.set(false); // as drain(): a step queued from now on asks again, or is found below
        if (stopped || !runner.compareAndSet(false, true)) {
            return -1;
        }
        int ran = 0;
        boolean keepRole = false;
        try {
            while (ran < max && !stopped && resumable.isEmpty()) {
                Step step = incoming.peek();
                if (step == null || !mayRunHere.test(step)) {
                    break;
                }
                incoming.poll();
                runHere(step);
                ran++;
            }
            keepRole = !resumable.isEmpty();
        } finally {
            if (!keepRole) {
                runner.set(false);
            }
        }
        if (keepRole) {
            Thread.ofVirtual().name(name + "-runner").start(this::runAfterWait);
        } else if (ran > 0 && !incoming.isEmpty()) {
            wake(); // steps delivered while this thread held the role found it taken
        }
        return ran;
    }

    /** Runs one step on this thread, which holds the runner role and is not a scheduler thread. */
    private void runHere(Step step) {
        if (step.inline()) {
            step.run();
            onApplied.accept(step.seq());
            return;
        }
        Execution e = new Execution(step);
        // an interrupt of this thread is no event of the total order: the write takes the steps it takes on every
        // replica (whose threads nobody interrupted), and the thread finds its flag set afterwards
        boolean interrupted = Thread.interrupted();
        current.set(e);
        runs(e);
        try {
            step.run();
        } finally {
            ended(e);
            current.remove();
            if (interrupted || e.interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        markApplied(e);
    }

    /** The first runner after a write waited: it holds the role already. */
    private void runAfterWait() {
        boolean handedOn = false;
        try {
            handedOn = !runSteps();
        } finally {
            if (!handedOn) {
                runner.set(false);
            }
        }
        if (!handedOn) {
            drain(); // steps queued while we gave the role up
        }
    }

    /** {@code e} runs on the current thread (it started, or was woken and has its monitor back). */
    private void runs(Execution e) {
        e.thread = Thread.currentThread();
        running = e;
    }

    /** {@code e} no longer runs here: it ended, or waits. */
    private void ended(Execution e) {
        if (running == e) {
            running = null;
        }
    }

    /**
     * A monitor the current thread holds that the write in progress here needs to go on, else null: a woken write's
     * monitor, or the replica of a running write whose thread is BLOCKED. Until it is let go no later write counts as
     * applied here, so this thread must not wait for one. A thread blocked on another monitor looks the same for a
     * moment: callers ask twice, apart.
     */
    Object monitorHeldFromAWrite() {
        Object monitor = resumingOn;
        if (monitor != null && Thread.holdsLock(monitor)) {
            return monitor;
        }
        Execution e = running;
        if (e == null) {
            return null;
        }
        Object root = e.step.monitor();
        Thread t = e.thread;
        return root != null && t != null && t != Thread.currentThread() && Thread.holdsLock(root)
            && t.getState() == Thread.State.BLOCKED ? root : null;
    }

    /** True while some thread holds the runner role (tests). */
    boolean runnerHeld() {
        return runner.get();
    }

    /** With the runner role: runs steps until none is queued (true), or hands the role to a woken write (false). */
    private boolean runSteps() {
        while (!stopped) {
            Execution waiter = resumable.poll();
            if (waiter != null) {
                resume(waiter);
                return false;
            }
            Step step = incoming.poll();
            if (step == null) {
                return true;
            }
            if (step.inline()) {
                step.run();
                onApplied.accept(step.seq());
                continue;
            }
            Execution e = new Execution(step);
            current.set(e);
            runs(e);
            try {
                step.run();
            } finally {
                ended(e);
                current.remove();
            }
            markApplied(e);
            // a step that waited resumed with the runner role
        }
        return false;
    }

    private static final long NO_MARK = Long.MIN_VALUE;

    /**
     * Marks {@code e}'s write applied as it ends or starts to wait. While woken writes wait for their turn, the mark
     * goes to the last of them instead: a barrier or a call's causality must not pass a write whose woken writes have
     * not gone on, or a read after it could see an in-between state on this replica only. Role holder only.
     */
    private void markApplied(Execution e) {
        long seq = e.applied ? e.carried : Math.max(e.step.seq(), e.carried);
        e.applied = true;
        e.carried = NO_MARK;
        if (seq == NO_MARK) {
            return;
        }
        Execution last = resumable.peekLast();
        if (last != null) {
            last.carried = Math.max(last.carried, seq); // read by its thread after the monitor hand-over (resume)
        } else {
            onApplied.accept(seq);
        }
    }

    private void resume(Execution waiter) {
        Object monitor = waiter.waitingOn;
        waiter.waitingOn = null;
        resumingOn = monitor; // before we may block on it: a thread that holds it can see that it holds the writes up
        synchronized (monitor) {
            waiter.resumed = true;
            monitor.notifyAll();
        }
    }

    /**
     * {@code monitor.wait()} inside a delivered write: joins the monitor's wait set, starts a new runner, and waits
     * until a {@link #notify} queues it and its turn comes; it then is the runner again. An interrupt does not end the
     * wait (it would on one replica only).
     */
    void await(Object monitor) throws InterruptedException {
        Execution e = current.get();
        if (!Thread.holdsLock(monitor)) {
            throw new IllegalMonitorStateException("wait() on a cloud object without holding its monitor");
        }
        e.resumed = false;
        e.waitingOn = monitor;
        ended(e);
        waitSets.computeIfAbsent(monitor, m -> new ArrayDeque<>()).add(e);
        markApplied(e);
        onWait.run();
        Thread.ofVirtual().name(name + "-runner").start(this::runAfterWait);
        while (!e.resumed) {
            try {
                monitor.wait();
            } catch (InterruptedException interrupt) {
                // the wait ends on a notify on every replica alike; the flag comes back when the write is over
                e.interrupted = true;
            }
        }
        if (resumingOn == monitor) {
            resumingOn = null; // it has the monitor back
        }
        runs(e);
    }

    /** {@code notify}/{@code notifyAll} inside a delivered write: waiters resume next, in the order they waited. */
    void notify(Object monitor, boolean all) {
        ArrayDeque<Execution> waiters = waitSets.get(monitor);
        if (waiters != null) {
            do {
                Execution w = waiters.poll();
                if (w == null) {
                    break;
                }
                resumable.add(w);
            } while (all);
            if (waiters.isEmpty()) {
                waitSets.remove(monitor);
            }
        }
        monitor.notifyAll(); // local readers waiting in read methods see the change
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }
}
