package dev.cumulus.internal.node;

import dev.cumulus.internal.sched.Scheduler;
import dev.cumulus.internal.sched.TimedCall;
import dev.cumulus.internal.transport.IdleStrategies;
import dev.cumulus.internal.transport.NodeTransport;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * The node's {@link Scheduler}: runs the duty cycle (transport polling, heartbeats, ordered broadcast) on whichever
 * thread holds the <em>polling role</em>, so that a message is handled by a thread that is already awake instead of
 * being handed from thread to thread (each hand-off to a parked thread costs a wake-up: tens of µs on a small box).
 *
 * <ul>
 *   <li><b>The main thread</b> ({@code cumulus-node-N}) polls, then runs the calls its poll brought right after it,
 *       one after another, and replies from there. Idle, it spins, yields, then sleeps on its doorbell
 *       ({@link DoorbellIdle}) or follows the node's idle strategy.</li>
 *   <li><b>The standby</b> ({@code cumulus-node-N-standby}) watches the main thread while calls come in and polls in
 *       its place once a call (or a poll's batch of calls) has run for {@link #TAKEOVER_NS}: calls that arrive
 *       meanwhile go to virtual threads, and the calls of the batch not started yet too. After
 *       {@link #DEEP_SLEEP_NS} without calls it parks until the next one.</li>
 *   <li><b>A thread waiting</b> for what a poll brings (a reply, a delivered write, a grant) polls for it itself for a
 *       while ({@link CallerPoll}), running brief calls only; the main thread sleeps on its doorbell meanwhile.</li>
 * </ul>
 * At most one thread runs the duty cycle at a time (a compare-and-set on the role); the role's release and
 * acquisition order everything the agent touches. The agent's callbacks never block, whichever thread runs them.
 */
public final class DutyCycle implements Scheduler, AutoCloseable {
    /** A call (or batch) the standby sees running at two looks this far apart is slow: it polls in its place. */
    static final long TAKEOVER_NS = TimeUnit.MICROSECONDS.toNanos(100);
    /** How often the standby looks at the main thread while calls come in. */
    static final long WATCH_NS = TimeUnit.MICROSECONDS.toNanos(100);
    /** After this long without an inline call the standby parks until the next one. */
    static final long DEEP_SLEEP_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** While a thread spins hot, all but one of this many cycles are quick ones ({@link #quickCycle}): a power of 2. */
    static final int FULL_CYCLE_EVERY = 8;
    private static final long CLOSE_WAIT_MS = 5_000;

    /**
     * A task a poll handed to the thread that polled, and where it goes when that thread cannot run it. A {@code quick}
     * one runs no program code and never blocks (an asynchronous answer's completion): the main thread runs it without
     * the standby's watch.
     */
    record Call(Runnable body, Executor otherwise, boolean quick) {
    }

    private final Agent agent;
    private final IntSupplier quickCycle;
    private final Runnable afterWait;
    private final ErrorHandler errors;
    private final NodeSettings.Scheduling settings;
    private final Doorbell bell;
    private final AtomicBoolean role = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread main;
    private final Thread standby;
    private volatile boolean running = true;
    /** Cycles run so far, by any thread (under the role). */
    private int cycles;
    /** Where the current poll collects the work its thread runs after it: set and read by the role holder only. */
    private List<Call> collecting;
    /**
     * The thread whose poll collects into {@link #collecting}: set by the role holder, read by any thread that offers
     * work, which only that thread may take (a thread sees its own writes, so only the collector reads itself here).
     */
    private Thread collector;
    /** The calls the main thread's current poll brought (main thread only). */
    private final List<Call> polled = new ArrayList<>();
    /** Calls of the main thread's batch not started yet: a standby that takes over hands them on. */
    private final ConcurrentLinkedQueue<Call> batch = new ConcurrentLinkedQueue<>();
    /** What the main thread runs, for the standby to watch. */
    final InlineCalls inline = new InlineCalls();
    /** Threads polling for what they wait for right now ({@link CallerPoll}). */
    final AtomicInteger pollingCallers = new AtomicInteger();
    /** True while the main thread sleeps on the doorbell: a caller that polled for it hands the bell back. */
    volatile boolean mainAsleep;
    /**
     * Set by a thread that waits for an asynchronous answer with more of them due ({@code Awaited.ASYNC_REPLY_MORE_DUE}),
     * read and cleared by the main thread as it goes to sleep: its next sleep is a nap, whose bell such a thread may keep
     * ({@link Doorbell#keep}).
     */
    volatile boolean napWanted;
    /**
     * Set when the main thread's last look before a sleep found the role taken: a message that came before its
     * announcement, unrung, may be unseen; the caller that stops next looks once more ({@link CallerPoll}).
     */
    volatile boolean lookMissed;
    /** True while the main thread, inside a call it runs, polls for what that call waits for: brief calls only. */
    private volatile boolean mainInCallPolls;

    /**
     * @param quickCycle a poll of the stream calls and replies come on, and nothing else (see {@link #pollOnce})
     * @param afterWait  run under the role before the first duty cycle of a thread that has slept or parked since
     *                   its last one (the agent reads the clock afresh then)
     * @param bell       how the idle main thread sleeps until a message comes, or null for the idle strategy's parks
     */
    DutyCycle(Agent agent, IntSupplier quickCycle, Runnable afterWait, ErrorHandler errors,
              NodeSettings.Scheduling settings, Doorbell bell, String threadName) {
        this.agent = agent;
        this.quickCycle = quickCycle;
        this.afterWait = afterWait;
        this.errors = errors;
        this.settings = settings;
        this.bell = settings.sleepsOnDoorbell() ? bell : null;
        this.main = daemon(threadName, this::mainLoop);
        this.standby = daemon(threadName + "-standby", new Standby(this, IdleStrategies.parse(settings.idleStrategy()))::run);
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * The duty cycle of a standing cluster's client (runtime/service): {@code agent}'s work, with the quick cycle a
     * poll of {@code transport}'s data stream ({@code fragmentLimit} fragments at most) and the transport's doorbell.
     * Call {@link #start()} next.
     */
    public static DutyCycle ofClient(Agent agent, NodeTransport transport, int fragmentLimit, ErrorHandler errors,
                                     NodeSettings.Scheduling settings, String threadName) {
        return new DutyCycle(agent, () -> transport.pollData(fragmentLimit), transport::conductorDue, errors, settings,
            TransportDoorbell.of(transport), threadName);
    }

    /** Starts the main thread and the standby. */
    public void start() {
        main.start();
        standby.start();
    }

    boolean running() {
        return running;
    }

    /**
     * Whether the duty cycle can still run: not closed or terminated, and its main thread lives (an error out of its
     * loop, e.g. an {@code OutOfMemoryError} while idle, ends it). The heartbeat thread stops when this turns false.
     */
    boolean alive() {
        return running && main.isAlive();
    }

    /** Whether some thread holds the polling role right now. */
    boolean roleTaken() {
        return role.get();
    }

    // ---------------------------------------------------------------- the duty cycle

    /**
     * Runs one duty cycle if no other thread does, collecting into {@code into} the work the poll hands to this
     * thread; returns the work done, or -1 when another thread holds the role. {@code waited}: this thread slept or
     * parked since its last cycle. {@code hot}: the thread spins for something that comes within a µs, so all but
     * one in {@link #FULL_CYCLE_EVERY} of its cycles poll only the stream calls and replies come on; else the cycle
     * is full (a last look before a sleep must see every stream).
     */
    int pollOnce(List<Call> into, boolean waited, boolean hot) {
        if (role.getPlain() || !role.compareAndSet(false, true)) {
            return -1;
        }
        try {
            if (!running) {
                return 0;
            }
            collecting = into;
            collector = Thread.currentThread();
            if (hot && !waited && (++cycles & (FULL_CYCLE_EVERY - 1)) != 0) {
                return quickCycle.getAsInt();
            }
            if (waited) {
                afterWait.run();
            }
            return agent.doWork();
        } catch (AgentTerminationException e) {
            running = false;
            return 0;
        } catch (Throwable t) {
            errors.onError(t);
            return 1;
        } finally {
            collecting = null;
            collector = null;
            role.setRelease(false);
        }
    }

    /** Runs the work a poll handed to this thread, in order; a failure goes to the error handler. */
    void runCollected(List<Call> calls) {
        if (calls.isEmpty()) {
            return;
        }
        Call[] all = calls.toArray(new Call[0]);
        calls.clear();
        for (Call c : all) {
            try {
                c.body().run();
            } catch (Throwable t) {
                errors.onError(t);
            }
        }
    }

    // ---------------------------------------------------------------- Scheduler

    /**
     * The main thread takes every call and delivered writes, never while a call it runs waits (that call may hold
     * monitors a write needs). It runs a drain of writes as it runs a call, under the standby's watch: an asleep
     * standby is woken for it (once; it then watches while writes or calls keep coming), so a write held up by a
     * monitor does not stop the node, and the write costs no wake-up of the delivery scheduler's thread, which on a
     * small box would take the core of the thread whose write this is (a static sequencer's node). A thread polling
     * for what it waits for takes brief calls, and a caller waiting for a reply delivered writes too. Every polling
     * thread but the standby completes the asynchronous answers without callbacks its poll brought. Work offered by a
     * thread outside its own poll (while another thread may poll) is never taken: it would join the other thread's
     * list, which that thread may have run already.
     */
    @Override
    public boolean runAfterPoll(Runnable task, Executor otherwise, Work work) {
        if (collector != Thread.currentThread()) {
            return false; // not offered during this thread's own poll: another thread's list is not this one's to fill
        }
        List<Call> into = collecting;
        if (into == null || !running) {
            return false;
        }
        boolean mainOutsideCall = Thread.currentThread() == main && !mainInCallPolls;
        boolean take = switch (work) {
            case BRIEF_CALL, ASYNC_ANSWER -> true;
            case CALL, DELIVERED_WRITES -> mainOutsideCall;
            case WRITES_FOR_WAITING_CALLER -> into instanceof CallerPoll.ReplyWaiterCalls;
        };
        if (take) {
            into.add(new Call(task, otherwise, work == Work.ASYNC_ANSWER));
        }
        return take;
    }

    @Override
    public long pollBudgetNs() {
        return pollsHere() ? settings.callerPollNs() : 0;
    }

    /**
     * Whether the current thread polls while it waits: not without a poll budget, not the standby, and the main
     * thread only inside a call it runs (outside one it polls anyway), once.
     */
    private boolean pollsHere() {
        Thread self = Thread.currentThread();
        if (settings.callerPollNs() <= 0 || self == standby) {
            return false;
        }
        return self != main || (inline.busyCall != 0 && !mainInCallPolls);
    }

    @Override
    public boolean pollUntil(BooleanSupplier done, long untilNs, Awaited awaited, Runnable late) {
        if (!pollsHere()) {
            return false;
        }
        if (Thread.currentThread() != main) {
            new CallerPoll(this, bell, awaited, late).pollUntil(done, untilNs);
            return true;
        }
        // a call the main thread runs waits for something the duty cycle brings (a nested call's reply, its own
        // write, a grant): it polls for it like any caller, brief calls only. Meanwhile the node is served, so the
        // standby need not take over, and the wait does not count as the call running slowly
        long call = inline.runningCall;
        mainInCallPolls = true;
        inline.running(0);
        try {
            new CallerPoll(this, bell, Awaited.OTHER, late).pollUntil(done, untilNs);
        } finally {
            mainInCallPolls = false;
            inline.running(call);
            inline.wakeStandby(standby); // the standby must look while the call goes on waiting
        }
        return true;
    }

    /**
     * A call the main thread runs is about to block for what the duty cycle brings: the standby takes over the
     * polling as for any busy call, but it does not mark the call slow for the wait. Sending the method's later calls
     * to virtual threads for a wait on a peer would cost each of them a hand-off (a static sequencer's writes: tens of
     * µs each, where the main thread's own poll usually gets them in a few).
     */
    @Override
    public Runnable mayBlock() {
        long call = inline.runningCall;
        if (Thread.currentThread() != main || call == 0 || mainInCallPolls) {
            return NOTHING;
        }
        inline.running(0);
        return () -> inline.running(call);
    }

    boolean mainPollsInCall() {
        return mainInCallPolls;
    }

    // ---------------------------------------------------------------- the main thread

    private void mainLoop() {
        DoorbellIdle doorbell = bell != null ? new DoorbellIdle(this, bell, polled, settings) : null;
        IdleStrategy idle = doorbell != null ? doorbell : IdleStrategies.parse(settings.idleStrategy());
        boolean idleMayWait = !(idle instanceof BusySpinIdleStrategy);
        boolean waited = false;
        while (running) {
            int work = pollOnce(polled, waited || (doorbell != null && doorbell.waited()),
                doorbell != null && doorbell.spinning());
            if (work >= 0) {
                waited = false;
                if (doorbell != null) {
                    doorbell.polled();
                }
            }
            if (polled.isEmpty()) {
                if (doorbell != null && (work < 0 || pollingCallers.get() > 0)) {
                    doorbell.othersPoll();
                } else {
                    idle.idle(Math.max(work, 0));
                    waited |= doorbell == null && idleMayWait && work <= 0; // its strategy may have parked
                }
                continue;
            }
            runPolled();
            idle.reset();
        }
        batch.addAll(polled); // closing: the executors run them or drop them
        polled.clear();
        handOnBatch();
    }

    /**
     * Runs what the main thread's poll brought: the quick tasks at once, then the calls, which the standby watches
     * (several calls of one poll as one).
     */
    private void runPolled() {
        if (polled.size() == 1) {
            Call call = polled.getFirst();
            polled.clear();
            if (call.quick()) {
                runQuick(call.body());
            } else {
                runCall(call.body(), 0);
            }
            return;
        }
        for (int i = 0; i < polled.size(); i++) {
            Call c = polled.get(i);
            if (c.quick()) {
                runQuick(c.body());
            } else {
                batch.add(c);
            }
        }
        polled.clear();
        if (batch.isEmpty()) {
            return;
        }
        long batchCall = inline.calls + 1;
        Call next;
        while (running && (next = batch.poll()) != null) { // a standby that takes over hands the rest on
            runCall(next.body(), batchCall);
        }
    }

    /**
     * Hands the calls of the main thread's batch that have not started to their executors (virtual threads): the
     * standby does it when it takes over from a main thread stuck in a call of the batch.
     */
    void handOnBatch() {
        Call c;
        while ((c = batch.poll()) != null) {
            try {
                c.otherwise().execute(c.body());
            } catch (RuntimeException e) {
                if (running) { // while closing a refusal is expected: the node's callers learn that it left
                    errors.onError(e);
                }
            }
        }
    }

    /** Runs a quick task on the main thread: no program code, nothing to watch. */
    private void runQuick(Runnable task) {
        try {
            task.run();
        } catch (Throwable t) {
            errors.onError(t);
        }
    }

    /**
     * Runs a call on the main thread under the standby's watch. {@code batchCall} is the number of the first call of
     * its batch (0: a call of its own). A {@link TimedCall} hears whether its run was slow; no clock is read for it.
     */
    private void runCall(Runnable call, long batchCall) {
        long number = inline.started(batchCall, standby);
        try {
            call.run();
        } catch (Throwable t) {
            errors.onError(t);
        } finally {
            inline.ended();
            Thread.interrupted(); // a call's interrupt must not turn the idle strategy's parks into spins
        }
        if (call instanceof TimedCall timed) {
            inline.tell(timed, number);
        }
    }

    // ---------------------------------------------------------------- closing

    /**
     * Stops both threads (interrupting a call the main thread still runs), then closes the agent under the role,
     * after any waiting caller has left it. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        running = false;
        LockSupport.unpark(standby);
        if (inline.busyCall != 0) {
            main.interrupt();
        }
        join(main);
        join(standby);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS);
        while (!role.compareAndSet(false, true)) {
            if (System.nanoTime() - deadline > 0) {
                break; // a caller is stuck in a duty cycle: close anyway rather than hang the node's exit
            }
            Thread.onSpinWait();
        }
        try {
            agent.onClose();
        } finally {
            role.set(false);
        }
    }

    private static void join(Thread t) {
        if (t == Thread.currentThread() || t.getState() == Thread.State.NEW) {
            return;
        }
        try {
            t.join(CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
