package dev.cumulus.internal.node;

import dev.cumulus.internal.rpc.RpcEngine;
import dev.cumulus.internal.transport.BriefWait;
import dev.cumulus.internal.transport.Cpus;
import dev.cumulus.internal.transport.IdleStrategies;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * Runs the node's duty cycle (transport polling, heartbeats, ordered broadcast) on whichever thread holds the
 * <em>polling role</em>, so that a message is handled by a thread that is already awake instead of being handed
 * from thread to thread. On a box with fewer cores than busy threads every hand-off to a parked thread costs a
 * wake-up (tens of µs here); the role removes the two on a remote call's critical path:
 *
 * <ul>
 *   <li><b>The main thread</b> ({@code cumulus-node-N}) polls with the node's idle strategy. When a poll brings
 *       an incoming remote call, it runs the call itself right after the poll ({@link #runInline}) instead of
 *       waking a virtual thread, and replies from there. Several calls in one poll run one after another; if one
 *       runs long, the standby hands those not started yet to their executor (virtual threads).</li>
 *   <li><b>The standby thread</b> ({@code cumulus-node-N-standby}) watches the main thread while calls come in
 *       (a timed park every {@link #WATCH_NS}) and polls in its place once it has seen one call run for
 *       {@link #TAKEOVER_NS} (the number of the call the main thread runs, not a start time: a call reads no clock),
 *       so a call that blocks or runs long (Babylon's edge exchange) holds the node up for at most about twice that
 *       long: calls arriving meanwhile go to virtual threads. After {@link #DEEP_SLEEP_NS}
 *       without calls it parks until the next one, so an idle node costs nothing and a busy one pays no wake-up
 *       per call. (The RPC layer also stops running a method inline once it has been slow.)</li>
 *   <li><b>A caller waiting for a reply</b> polls for it itself for a short while ({@link #pollWhileWaiting}, a
 *       {@link BriefWait}: spin, then yield between polls, 50 µs in all); then it parks as before and the main
 *       thread wakes it. While it polls it publishes its CPU, and an idle main thread spinning on that CPU — this
 *       node's or another's on the host — moves to another core ({@link #WAITER_CHECK_SPINS}).</li>
 * </ul>
 * At most one thread runs the duty cycle at a time (a compare-and-set on the role); the role's release and
 * acquisition order everything the agent touches, as the single agent thread did. The agent's callbacks never block,
 * whichever thread runs them. The main thread runs calls inline; a user's thread only runs <em>brief</em> system
 * calls (they never block: a shared array's coherence messages), so a miss's reply needs no hand-off either.
 */
final class DutyCycle implements AutoCloseable {
    /**
     * A call the standby sees the main thread run at two looks this far apart (so it ran at least this long; no clock
     * is read per call) is slow: the standby polls in its place, and the call's method is told ({@link
     * RpcEngine.TimedCall#ranSlowly}).
     */
    static final long TAKEOVER_NS = TimeUnit.MICROSECONDS.toNanos(100);
    /** How often the standby looks at the main thread while calls come in ({@code -Dcumulus.standbyWatchNs}). */
    static final long WATCH_NS = Long.getLong("cumulus.standbyWatchNs", TimeUnit.MICROSECONDS.toNanos(100));
    /** After this long without an inline call the standby parks until the next one. */
    static final long DEEP_SLEEP_NS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long CLOSE_WAIT_MS = 5_000;

    private record Call(Runnable body, Executor otherwise) {
    }

    /** A way for the main thread to sleep until a message comes (the host's doorbells), instead of timed parks. */
    interface Sleeper {
        /** Senders will ring from now on; the caller looks for work once more before it sleeps. */
        void announceSleep();

        void sleep(long timeoutNs);

        void awake();

        /** Another thread polls now: senders need not ring until it hands back with {@link #announceSleep}. */
        void takeOver();

        /** A thread of this node waits for a message, last seen on {@code cpu}. */
        void waiting(int cpu);

        /** The thread that published {@code cpu} stops waiting (the slot is cleared unless another wrote it). */
        void notWaiting(int cpu);

        /** True when a thread of some node on this host waits for a message and last ran on {@code cpu}. */
        boolean waiterOn(int cpu);
    }

    /**
     * With a sleeper: an idle main thread spins this many polls (~50 µs), then yields until {@link #AWAKE_NS} have
     * passed — when this host has a core for every node. A node answering one call after another then never reaches
     * the yield phase, and a yield, which lets another thread in, costs several µs (2-process RPC p50: 1.6–2.2 µs
     * with 200 spins, 3.9–16 µs with 10).
     */
    static final int SPINS = 200;
    /**
     * With a sleeper, on a host with more nodes than cores: spins before yielding. A spinning node there holds a core
     * that a node with work needs, for the whole spin (4-process RPC on 2 cores: p50 53–56 µs with 200 spins,
     * 17–19 µs with 10, level with raw Aeron's 17–30 µs).
     */
    static final int CROWDED_SPINS = 10;
    /**
     * An idle main thread looks every this many spins (a power of two), and with {@link #makeWayYielding} before every
     * yield once it spun its spins, whether a thread waiting for a message — a caller polling for its reply, in this node or another node
     * process of the host — last ran on its CPU. If so it moves itself to another CPU ({@link Cpus#leave}; at most once
     * per {@link #MOVE_EVERY_NS}), else yields. Without it, when the scheduler puts a waiting caller on the core of the
     * node that just replied to it, the caller runs only after that node's whole spin phase, and the two stay
     * together: 2-process shared-array misses were ~46 µs in whole rounds instead of ~5 µs. With more nodes than
     * cores ({@link #CROWDED_SPINS}, fewer than 16) only the look before a yield could run ({@link #makeWayYielding},
     * off by default); without it, a caller and the node it called may sit on one core for up to hundreds of ms (perf
     * sched), handing it to each other with yields while the other core idles: 4-process RPC p50 8.7 µs instead of
     * ~1 µs ({@code -Dcumulus.makeWay=false} turns both looks off, to compare).
     */
    static final int WAITER_CHECK_SPINS = 16;
    static final long MOVE_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Whether the look for a waiter also runs before every yield ({@code -Dcumulus.makeWayYielding=true}; off by
     * default). On a crowded host (10 spins) it is the only look. Measured alternating on 4 processes and 2 cores:
     * RPC p50 12.3–17.1 → 6.1–11.5 µs and replicated write completion 28–42 → 11–22 µs with it, but the PastSet ring of 4
     * 15–40 % slower per hop (third nodes' threads move off every caller's core, not only the node it called), which
     * put it behind Hazelcast there. Not volatile: read by the main thread only, set before nodes start.
     */
    static boolean makeWayYielding = Boolean.getBoolean("cumulus.makeWayYielding");
    static final boolean MAKE_WAY = !"false".equals(System.getProperty("cumulus.makeWay"));
    /**
     * With a sleeper: how long an idle main thread stays awake (spinning, then yielding the core) before it sleeps.
     * Longer than a round trip that paid one wake-up, so one late message does not put every node to sleep for good
     * ({@code -Dcumulus.awakeNs}).
     */
    static final long AWAKE_NS = Long.getLong("cumulus.awakeNs", TimeUnit.MICROSECONDS.toNanos(200));
    /** With a sleeper: the longest sleep, so timers (heartbeats, failure detection) still run. */
    static final long SLEEP_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Agent agent;
    private final Runnable afterWait;
    /** The main thread slept or parked since its last duty cycle ({@link #afterWait} is due; main thread only). */
    private boolean mainWaited;
    private final ErrorHandler errors;
    private final String idleSpec;
    private final long callerPollNs;
    private final Sleeper sleeper;
    private final int idleSpins;
    private final AtomicBoolean role = new AtomicBoolean();
    /** Cycles run so far, by any thread (under the role). */
    private int cycles;
    private IntSupplier quickCycle;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread main;
    private final Thread standby;
    private volatile boolean running = true;
    private static final java.lang.invoke.VarHandle BUSY_CALL = field("busyCall", long.class);
    private static final java.lang.invoke.VarHandle INLINE_CALLS = field("inlineCalls", long.class);
    private static final java.lang.invoke.VarHandle RUNNING_CALL = field("runningCall", long.class);
    /**
     * The inline call the main thread runs now, 0 when it runs none (nor while it polls inside one): the number of the
     * call in {@link #inlineCalls}, or the number of the first call of the batch it belongs to. The standby watches it
     * instead of a start time, so a call costs no clock read.
     */
    private volatile long busyCall;
    /**
     * The number of the inline call the main thread runs now (in {@link #inlineCalls}), 0 when it runs none or polls
     * inside one: {@link #busyCall} watches a batch as one for taking over, this watches each call's own run.
     */
    private volatile long runningCall;
    /**
     * The call the standby found running for {@link #TAKEOVER_NS} or longer (a {@link #runningCall} value), and since
     * when it saw it running ({@link #slowSinceNs}): that call's run was slow.
     */
    private volatile long slowCall;
    private volatile long slowSinceNs;
    /** Inline calls started so far: the standby sees calls coming in even when each is over before it looks. */
    private volatile long inlineCalls;
    /** True while the main thread sleeps on the doorbell: a caller that polled for it hands the bell back. */
    private volatile boolean mainAsleep;
    /**
     * Set when the main thread's last look before a sleep found the polling role taken: a message that came before
     * its announcement, unrung, may be unseen; the caller that stops next looks once more ({@link #pollAsUser}).
     */
    private volatile boolean lookMissed;
    /** Set by {@link #stayAwake}: the main thread stays up for its awake time instead of sleeping on. */
    private volatile boolean stayAwake;
    /**
     * True while the main thread, inside a call it runs, polls for what that call waits for
     * ({@link #pollWhileWaiting}): it then takes brief calls only (main thread only).
     */
    private volatile boolean mainInCallPolls;
    /** Whether the main thread polls while a call it runs waits ({@code -Dcumulus.mainPollsInCall}, default on). */
    static final boolean MAIN_POLLS_IN_CALL = !"false".equals(System.getProperty("cumulus.mainPollsInCall"));
    /**
     * Whether a caller waiting for a remote call's reply may apply the replicated writes its poll delivered
     * ({@code -Dcumulus.callersApplyWrites}, default on; the cloud runtime adds its own conditions).
     */
    static final boolean CALLERS_APPLY_WRITES = !"false".equals(System.getProperty("cumulus.callersApplyWrites"));
    /** How many polls that found work a waiting caller runs between two looks at its wait's budget. */
    static final int POLLS_PER_CHECK = 8;
    /** Callers polling for their replies right now ({@link #pollWhileWaiting}). */
    private final AtomicInteger pollingCallers = new AtomicInteger();
    /** True while the standby is parked without a timeout: the next inline call unparks it. */
    private volatile boolean standbyAsleep;
    /** The calls the main thread's current poll brought (main thread only). */
    private final List<Call> polled = new ArrayList<>();
    /**
     * Calls of one poll that brought several, not started yet: the main thread runs them one after another (each
     * would otherwise cost a virtual thread's start and wake-up: asynchronous calls per second nearly halved); a
     * standby that takes over from a main thread stuck in one of them hands the rest to their executors, so a call
     * that waits for a later call of the same poll (Babylon's edge exchange) still gets it.
     */
    private final ConcurrentLinkedQueue<Call> batch = new ConcurrentLinkedQueue<>();
    /** Where the current poll collects the calls its thread will run: set and read by the role holder only. */
    private List<Call> collecting;

    /**
     * @param callerPollNs how long a waiting caller polls for its reply; 0 to park at once (e.g. with a
     *                     {@code sleep} idle strategy, where CPU use matters more than latency)
     */
    DutyCycle(Agent agent, ErrorHandler errors, String idleSpec, long callerPollNs, String threadName) {
        this(agent, errors, idleSpec, callerPollNs, threadName, null);
    }

    /**
     * @param sleeper how the idle main thread sleeps until a message comes, or null for the idle strategy's timed
     *                parks; used with the default {@code backoff} strategy only
     */
    DutyCycle(Agent agent, ErrorHandler errors, String idleSpec, long callerPollNs, String threadName,
              Sleeper sleeper) {
        this(agent, errors, idleSpec, callerPollNs, threadName, sleeper, SPINS, () -> { });
    }

    /**
     * @param idleSpins with a sleeper, how many polls an idle main thread spins before it yields
     * @param afterWait run under the role before the first duty cycle of a thread that has slept or parked since its
     *                  last one (the agent reads the clock afresh then: it reuses a cycle's time for the next few)
     */
    DutyCycle(Agent agent, ErrorHandler errors, String idleSpec, long callerPollNs, String threadName,
              Sleeper sleeper, int idleSpins, Runnable afterWait) {
        this.idleSpins = idleSpins;
        this.afterWait = afterWait;
        this.agent = agent;
        this.errors = errors;
        this.idleSpec = idleSpec;
        this.callerPollNs = callerPollNs;
        this.sleeper = IdleStrategies.DEFAULT.equals(idleSpec == null ? IdleStrategies.DEFAULT : idleSpec.trim())
            ? sleeper : null;
        this.main = daemon(threadName, this::mainLoop);
        this.standby = daemon(threadName + "-standby", this::standbyLoop);
    }

    /**
     * How many polls an idle main thread spins before it yields, for {@code nodesOnHost} nodes on a host with
     * {@code cores} cores: {@link #SPINS} when every node has a core, else {@link #CROWDED_SPINS};
     * {@code -Dcumulus.idleSpins} overrides.
     */
    static int idleSpinsFor(int nodesOnHost, int cores) {
        Integer forced = Integer.getInteger("cumulus.idleSpins");
        if (forced != null && forced >= 0) {
            return forced;
        }
        return nodesOnHost > cores ? CROWDED_SPINS : SPINS;
    }

    /** The caller poll budget for an idle strategy: none for {@code sleep:}, else {@link BriefWait#BUDGET_NS}. */
    static long callerPollNsFor(String idleSpec) {
        if (idleSpec != null && idleSpec.trim().toLowerCase().startsWith("sleep")) {
            return 0;
        }
        return BriefWait.BUDGET_NS;
    }

    private static java.lang.invoke.VarHandle field(String name, Class<?> type) {
        try {
            return java.lang.invoke.MethodHandles.lookup().findVarHandle(DutyCycle.class, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    void start() {
        main.start();
        standby.start();
    }

    /**
     * Runs one duty cycle if no other thread does; returns the work done, or -1 when another thread holds the role.
     */
    int pollOnce() {
        return pollOnce(null);
    }

    /** {@link #pollOnce()}, collecting into {@code into} the calls {@link #runInline} lets this thread run. */
    private int pollOnce(List<Call> into) {
        return pollOnce(into, false);
    }

    /**
     * Sets the quick cycle: a poll of the stream that remote calls and their replies come on, and nothing else. While a
     * thread spins hot — the main thread in its spin phase, a caller in the first {@link LongWait#LATE_AFTER_CHECKS}
     * looks of its wait for a remote call's reply — all but one of every {@link #FULL_CYCLE_EVERY} of its cycles are
     * quick, so it looks at that stream every few tens of ns instead of once per full duty cycle (every stream,
     * queues, timers, the ordered broadcast's agent); everything else waits a few hundred ns more. Every other cycle is
     * full. A reply found by a quick cycle may come before the replicated writes it depends on were polled: its caller
     * then polls for them ({@link #pollUntilApplied}) instead of blocking on the watermark. Call before {@link #start}.
     */
    void quickCycle(IntSupplier quick) {
        this.quickCycle = quick;
    }

    /** See {@link #quickCycle}: a power of two. */
    static final int FULL_CYCLE_EVERY = 8;

    /** {@link #pollOnce(List)}; {@code waited}: this thread slept or parked since its last cycle. A full cycle. */
    private int pollOnce(List<Call> into, boolean waited) {
        return pollOnce(into, waited, false);
    }

    /**
     * {@link #pollOnce(List, boolean)}; {@code hot}: the thread spins hot, so the cycle may be a quick one
     * ({@link #quickCycle}); else it is full (a last look before this node sleeps must see every stream).
     */
    private int pollOnce(List<Call> into, boolean waited, boolean hot) {
        if (role.getPlain() || !role.compareAndSet(false, true)) {
            return -1;
        }
        try {
            if (!running) {
                return 0;
            }
            collecting = into;
            IntSupplier quick = quickCycle;
            if (quick != null && hot && !waited && (++cycles & (FULL_CYCLE_EVERY - 1)) != 0) {
                return quick.getAsInt();
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
            role.setRelease(false);
        }
    }

    /**
     * Called during a duty cycle with an incoming call: true when the polling thread takes it, false when the
     * caller must hand it to {@code otherwise} itself (the standby, or the node is closing). The main thread takes
     * every call and runs the calls of one poll one after another right after it; when they run longer than
     * {@link #TAKEOVER_NS} in all, the standby hands those not started yet to {@code otherwise}. A caller polling for
     * its reply takes only {@code brief} calls (they never block and return within microseconds, like a shared
     * array's coherence message) and runs them right after its poll.
     */
    boolean runInline(Runnable call, Executor otherwise, boolean brief) {
        return collect(call, otherwise, brief || (Thread.currentThread() == main && !mainInCallPolls));
    }

    /**
     * For work that may take the main thread for a while (a delivered replicated write): the main thread takes it,
     * but only while the standby watches anyway (calls came in the last {@link #DEEP_SLEEP_NS}): waking it up for this
     * alone would add a thread that wakes every {@link #WATCH_NS} to every node of a crowded host. Other threads never
     * take it, nor does the main thread while a call it runs waits: that call may hold monitors (a replica's, the
     * user's), and a delivered write that waits would keep them held while later writes need them.
     */
    boolean runInlineIfWatched(Runnable call, Executor otherwise) {
        return !standbyAsleep && collect(call, otherwise, Thread.currentThread() == main && !mainInCallPolls);
    }

    /**
     * For a delivered replicated write when the polling thread is a user's thread waiting for a remote call's reply
     * ({@link #pollWhileAwaitingReply}): it takes {@code task} and runs it right after its poll; false when the
     * polling thread is any other (the caller must see to the task itself).
     */
    boolean runAfterReplyWaitersPoll(Runnable task, Executor otherwise) {
        return collecting instanceof ReplyWaiterCalls && collect(task, otherwise, true);
    }

    /** Adds the call to what the current poll's thread runs after it, when {@code mayRun} and a poll collects. */
    private boolean collect(Runnable call, Executor otherwise, boolean mayRun) {
        List<Call> into = collecting;
        if (into == null || !running || !mayRun) {
            return false;
        }
        into.add(new Call(call, otherwise));
        return true;
    }

    /** A caller's poll: runs the brief calls it brought on this thread; returns the work done, or -1. */
    private int callerPoll(List<Call> mine) {
        return callerPoll(mine, false);
    }

    /** {@link #callerPoll(List)}; {@code hot}: the caller spins hot, so the cycle may be quick. */
    private int callerPoll(List<Call> mine, boolean hot) {
        int work = pollOnce(mine, false, hot);
        if (!mine.isEmpty()) {
            Call[] calls = mine.toArray(new Call[0]);
            mine.clear();
            for (Call c : calls) {
                try {
                    c.body().run();
                } catch (Throwable t) {
                    errors.onError(t);
                }
            }
        }
        return work;
    }

    /**
     * A caller waiting for {@code reply} polls for it itself for up to the caller poll budget, so the reply needs no
     * wake-up; returns when the reply is there, the budget is spent, or this is the standby (or the main thread
     * outside a call: it polls anyway).
     */
    void pollWhileWaiting(CompletableFuture<?> reply) {
        if (pollsHere()) {
            pollAsCaller(reply, false, null);
        }
    }

    /**
     * How long the current thread polls for a remote call's reply ({@link #pollWhileAwaitingReply}) before it blocks:
     * the caller poll budget, or 0 where it does not poll.
     */
    long replyPollNs() {
        return pollsHere() ? callerPollNs : 0;
    }

    /**
     * {@link #pollWhileWaiting} for a remote call's reply; {@code late} runs once if the reply has not come after
     * {@link LongWait#LATE_AFTER_CHECKS} looks. Such a caller also takes work handed to
     * {@link #runAfterReplyWaitersPoll} (a user's thread that waits for its reply holds no replica monitor a write
     * needs, unless its code took one itself: see {@code docs/design/THREADING.md}). Returns the last clock reading
     * of the wait ({@code nanoTime}), or 0 when this thread does not poll.
     */
    long pollWhileAwaitingReply(CompletableFuture<?> reply, Runnable late) {
        return pollsHere() ? pollAsCaller(reply, CALLERS_APPLY_WRITES, late) : 0;
    }

    /**
     * Whether the current thread polls while it waits: not with no caller poll budget, not the standby, and the main
     * thread only inside a call it runs (outside one it polls anyway), once.
     */
    private boolean pollsHere() {
        Thread self = Thread.currentThread();
        if (callerPollNs <= 0 || self == standby) {
            return false;
        }
        return self != main || (MAIN_POLLS_IN_CALL && busyCall != 0 && !mainInCallPolls);
    }

    /**
     * A caller whose reply carries replicated writes this node has not applied yet ({@code applied} still false)
     * polls for them itself — full cycles, applying the writes its polls deliver — for up to the caller poll budget,
     * instead of blocking at once while a delivery thread is woken for them.
     */
    void pollUntilApplied(java.util.function.BooleanSupplier applied) {
        if (pollsHere()) {
            pollAsCaller(applied, CALLERS_APPLY_WRITES, null);
        }
    }

    private long pollAsCaller(CompletableFuture<?> reply, boolean forReply, Runnable late) {
        return pollAsCaller(reply::isDone, forReply, late);
    }

    private long pollAsCaller(java.util.function.BooleanSupplier reply, boolean forReply, Runnable late) {
        if (Thread.currentThread() != main) {
            return pollAsUser(reply, forReply, late);
        }
        // a call the main thread runs waits for something the duty cycle brings (a nested call's reply, its own
        // replicated write, a miss's grant): it polls for it like any caller, taking brief calls only — otherwise
        // nothing would poll until the standby took over (100 µs or more). While it polls the node is served: the
        // standby need not take over (it keeps watching the call: if the wait outlasts the poll, it takes over as soon
        // as it looks), and the time does not make the call look slow (the call's own run is watched afresh after it)
        long call = runningCall;
        mainInCallPolls = true;
        RUNNING_CALL.setRelease(this, 0L);
        try {
            return pollAsUser(reply, false, late);
        } finally {
            mainInCallPolls = false;
            RUNNING_CALL.setRelease(this, call);
            if (standbyAsleep) { // as runCall does: the standby must look while the call goes on waiting
                standbyAsleep = false;
                LockSupport.unpark(standby);
            }
        }
    }

    /**
     * A caller stopped polling before the promise its call made ended (a thread that does not poll, a node closing):
     * its reply may come unrung, so the main thread stays up — spinning, then yielding — for its awake time
     * ({@link #AWAKE_NS}, longer than any promise) instead of sleeping. The caller rings this node's bell after it.
     * Any thread.
     */
    void stayAwake() {
        stayAwake = true;
    }

    /** What a caller waiting for a remote call's reply collects: it also runs {@link #runAfterReplyWaitersPoll} work. */
    private static final class ReplyWaiterCalls extends ArrayList<Call> {
        ReplyWaiterCalls() {
            super(1);
        }
    }

    /**
     * Polls for {@code reply} as a user's thread. A wait for a remote call's reply ({@code late} not null) leaves the
     * doorbell alone at first: the reply needs no ring (the caller promised to poll), most come within a µs, and
     * a write to the bell line that a sender reads costs a transfer of the line each way. Only once the wait is late
     * does it run {@code late} and take the bell over, so that senders stop waking the main thread while it polls; it
     * hands the bell back as it stops. Any other wait takes the bell over at once. Either way, the main thread sleeps
     * while callers poll ({@link DoorbellIdle#sleepOnBell}), and a caller that stops looks once more when the main
     * thread could not look before it slept ({@link #lookMissed}).
     */
    private long pollAsUser(java.util.function.BooleanSupplier reply, boolean forReply, Runnable late) {
        pollingCallers.incrementAndGet(); // the idle main thread sleeps instead of competing for the core
        LongWait watch = new LongWait(sleeper, late);
        if (late == null) {
            watch.takeOver();
        }
        List<Call> mine = forReply ? new ReplyWaiterCalls() : new ArrayList<>(1);
        long lastClockNs = 0;
        try {
            // the clock read here is off the round trip: the request is on its way
            lastClockNs = BriefWait.until(() -> {
                // keep polling while there is work (several messages may have come at once), but only a few polls
                // per look: the wait's budget is counted between looks, and a burst of brief calls (a stream of
                // shared-array requests) would otherwise keep this thread serving the node far past it
                int work = 0;
                for (int polls = 0; polls < POLLS_PER_CHECK; polls++) {
                    int done = callerPoll(mine, watch.hot());
                    if (done <= 0 || reply.getAsBoolean()) {
                        break;
                    }
                    work += done;
                }
                if (reply.getAsBoolean() || !running) {
                    return BriefWait.DONE;
                }
                watch.checked();
                return work;
            }, callerPollNs, System.nanoTime());
        } finally {
            // first stop counting, then look at the main thread (it writes mainAsleep and lookMissed before it counts
            // us): either it sees no polling caller and stays up, or we see what it wrote and look for it
            pollingCallers.decrementAndGet();
            watch.clear();
            boolean handBack = watch.tookOver() && mainAsleep;
            if (handBack) {
                sleeper.announceSleep(); // hand the bell back, then look once more for what came unrung
            }
            lastLooks(mine, handBack || !reply.getAsBoolean());
        }
        return lastClockNs;
    }

    /**
     * The looks a caller takes as it stops polling: when {@code needed} (it handed the bell back, or its wait ended by
     * its budget — that clock reading came after the promise a call made, so a reply sent within the promise is in
     * the log by now), and whenever the main thread could not look before it slept ({@link #lookMissed}). A look of
     * its own may be what made the main thread's fail, so it looks again while lookMissed was set meanwhile (a few
     * times at most); when the role is taken it leaves lookMissed set for the thread holding it.
     */
    private void lastLooks(List<Call> mine, boolean needed) {
        boolean look = needed || lookMissed;
        for (int looks = 0; look && running && looks < MAX_LAST_LOOKS; looks++) {
            lookMissed = false;
            if (callerPoll(mine) < 0) {
                lookMissed = true; // another thread holds the role: it, or the last caller to stop, looks
                return;
            }
            look = lookMissed;
        }
    }

    private static final int MAX_LAST_LOOKS = 8;

    /**
     * What a wait does once it has gone on for {@link #LATE_AFTER_CHECKS} looks (a µs or more): runs its {@code late}
     * task (the caller rings the doorbell of the node it called), then publishes the CPU the waiter runs on whenever
     * it changes ({@link Sleeper#waiting}). A reply that comes sooner costs no look at the CPU (~30 ns each) and no
     * write to a shared line, and a spinning thread that shares the waiter's core only looks every
     * {@link #WAITER_CHECK_SPINS} spins anyway.
     */
    private static final class LongWait {
        static final int LATE_AFTER_CHECKS = 32;
        private final Sleeper sleeper;
        private final Runnable late;
        private int checks;
        private int last = -2;
        private boolean tookOver;

        LongWait(Sleeper sleeper, Runnable late) {
            this.sleeper = sleeper;
            this.late = late;
        }

        /** While this thread polls, senders need not wake the main thread. */
        void takeOver() {
            if (sleeper != null && !tookOver) {
                tookOver = true;
                sleeper.takeOver();
            }
        }

        boolean tookOver() {
            return tookOver;
        }

        /** A wait for a remote call's reply still in its first {@link #LATE_AFTER_CHECKS} looks: it spins hot. */
        boolean hot() {
            return late != null && checks < LATE_AFTER_CHECKS;
        }



        void checked() {
            if (checks < LATE_AFTER_CHECKS) {
                if (++checks == LATE_AFTER_CHECKS) {
                    if (late != null) {
                        late.run();
                    }
                    takeOver();
                }
                return;
            }
            if (sleeper == null) {
                return;
            }
            int now = Cpus.current();
            if (now != last && now >= 0) {
                last = now;
                sleeper.waiting(now);
            }
        }

        void clear() {
            if (last >= 0) {
                sleeper.notWaiting(last);
            }
        }
    }

    private void mainLoop() {
        DoorbellIdle doorbell = sleeper != null ? new DoorbellIdle(sleeper) : null;
        IdleStrategy idle = doorbell != null ? doorbell : IdleStrategies.parse(idleSpec);
        boolean idleMayWait = !(idle instanceof BusySpinIdleStrategy);
        while (running) {
            int work = pollOnce(polled, mainWaited, doorbell != null && doorbell.spinning());
            if (work >= 0) {
                mainWaited = false;
            }
            if (polled.isEmpty()) {
                if (doorbell != null && (work < 0 || pollingCallers.get() > 0)) {
                    doorbell.othersPoll();
                } else {
                    idle.idle(Math.max(work, 0));
                    mainWaited |= doorbell == null && idleMayWait && work <= 0; // its strategy may have parked
                }
                continue;
            }
            if (polled.size() == 1) {
                Call call = polled.getFirst();
                polled.clear();
                runCall(call.body(), 0);
            } else {
                batch.addAll(polled);
                polled.clear();
                // the standby watches the batch as one call: short calls that add up hold the duty cycle too
                long batchCall = inlineCalls + 1;
                Call next;
                while (running && (next = batch.poll()) != null) { // a standby that takes over hands the rest on
                    runCall(next.body(), batchCall);
                }
            }
            idle.reset();
        }
        batch.addAll(polled); // closing: the executor runs them or drops them
        polled.clear();
        handOnBatch();
    }

    /**
     * Hands the calls of the main thread's current batch that have not started to their executors (virtual threads):
     * the standby does it when it takes over from a main thread stuck in a call of the batch.
     */
    private void handOnBatch() {
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

    /**
     * The default back-off with a doorbell instead of timed parks: spin, yield until {@link #AWAKE_NS} passed since the
     * last work, then announce the sleep, look for
     * work once more (a message sent before the announcement is found here; one sent after it rings), and sleep until
     * rung or {@link #SLEEP_NS}.
     */
    private final class DoorbellIdle implements IdleStrategy {
        private final Sleeper bell;
        private int idleCycles;
        private long idleSinceNs;
        private long lastMoveNs = System.nanoTime() - MOVE_EVERY_NS;

        DoorbellIdle(Sleeper bell) {
            this.bell = bell;
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
                if (MAKE_WAY && (idleCycles & (WAITER_CHECK_SPINS - 1)) == 0) {
                    makeWayForWaiter();
                } else {
                    Thread.onSpinWait();
                }
            } else if (System.nanoTime() - idleSinceNs < AWAKE_NS) {
                if (!MAKE_WAY || !makeWayYielding || !makeWayForWaiter()) {
                    Thread.yield();
                }
            } else {
                sleepOnBell(false);
            }
        }

        /** A waiting caller polls (or holds the polling role right now): sleep rather than compete for the core. */
        void othersPoll() {
            sleepOnBell(true);
        }

        /**
         * Announces the sleep (senders ring from now on), looks once more with a full cycle, and sleeps on the bell
         * until rung or {@link #SLEEP_NS} — unless that look found work, or ({@code whileCallersPoll}) no caller polls
         * any more. When the look found the role taken (a caller polls), it sets {@link #lookMissed} first, and sleeps
         * only while callers still poll: the last one to stop looks for what came before the announcement.
         */
        private void sleepOnBell(boolean whileCallersPoll) {
            if (stayAwakeAsked()) {
                return;
            }
            mainAsleep = true; // before the look and the count: a caller that stops from now on sees it
            bell.announceSleep();
            int work = pollOnce(polled, mainWaited);
            boolean sleep;
            if (work < 0) {
                lookMissed = true;
                sleep = pollingCallers.get() > 0;
            } else {
                sleep = work == 0 && polled.isEmpty() && (!whileCallersPoll || pollingCallers.get() > 0);
            }
            if (sleep) {
                bell.sleep(SLEEP_NS);
            } else if (work > 0 || !polled.isEmpty()) {
                idleCycles = 0;
            }
            mainWaited = true; // also when that look found the role taken: the next one reads the clock
            mainAsleep = false;
            bell.awake();
            if (whileCallersPoll) {
                idleCycles = 0;
            }
            stayAwakeAsked();
        }

        /** When {@link #stayAwake} was asked for: starts the awake time afresh and returns true. */
        private boolean stayAwakeAsked() {
            if (!stayAwake) {
                return false;
            }
            stayAwake = false;
            idleCycles = 0;
            return true;
        }

        /**
         * See {@link #WAITER_CHECK_SPINS}: when a waiter last ran on this thread's CPU, moves away (or yields, when it
         * moved less than {@link #MOVE_EVERY_NS} ago) and returns true; else returns false and does nothing.
         */
        private boolean makeWayForWaiter() {
            int cpu = Cpus.current();
            if (!bell.waiterOn(cpu)) {
                return false;
            }
            long now = System.nanoTime();
            if (now - lastMoveNs > MOVE_EVERY_NS && Cpus.leave(cpu)) {
                lastMoveNs = now;
            } else {
                Thread.yield();
            }
            return true;
        }

        @Override
        public void reset() {
            idleCycles = 0;
        }

        /** In the spin phase (its next idle cycle spins): the main thread spins hot. */
        boolean spinning() {
            return idleCycles < idleSpins;
        }
    }

    /**
     * Runs an incoming call on the main thread. {@code batchCall} is the number of the first call of its batch (0: a
     * call of its own): the standby watches the batch as one ({@link #busyCall}). No clock is read: the standby tells
     * a slow run ({@link #slowCall}), and a quick one is all a {@link RpcEngine.TimedCall} needs to hear of otherwise.
     */
    private void runCall(Runnable call, long batchCall) {
        long number = inlineCalls + 1;
        // only this thread writes these; a release store is a plain store on x86, a volatile one adds a fence
        INLINE_CALLS.setRelease(this, number);
        RUNNING_CALL.setRelease(this, number);
        long busy = batchCall != 0 ? batchCall : number;
        busyCall = busy; // volatile: before the look at standbyAsleep (the standby looks at them the other way round)
        if (standbyAsleep) {
            standbyAsleep = false;
            LockSupport.unpark(standby);
        }
        try {
            call.run();
        } catch (Throwable t) {
            errors.onError(t);
        } finally {
            RUNNING_CALL.setRelease(this, 0L);
            BUSY_CALL.setRelease(this, 0L); // a standby that still sees the call only takes over for one look
            Thread.interrupted(); // a call's interrupt must not turn the idle strategy's parks into spins
        }
        if (call instanceof RpcEngine.TimedCall timed) {
            if (slowCall == number) {
                long now = System.nanoTime();
                timed.ranSlowly(now, now - slowSinceNs);
            } else {
                timed.ranQuickly();
            }
        }
    }

    /**
     * Whether the standby runs under {@code SCHED_BATCH} ({@code -Dcumulus.standbyBatch}, default on): it wakes
     * 10,000 times a second while calls come in, and on a host with fewer free cores than busy threads each of those
     * wake-ups preempted a thread a round trip waits for.
     */
    static final boolean STANDBY_BATCH = !"false".equals(System.getProperty("cumulus.standbyBatch"));

    private void standbyLoop() {
        if (STANDBY_BATCH) {
            Cpus.batchPolicy(); // best effort: without it the standby just preempts as before
        }
        IdleStrategy idle = IdleStrategies.parse(idleSpec);
        boolean standbyWaited = true;
        long seenCalls = inlineCalls;
        long lastCallSeen = System.nanoTime();
        long watched = 0; // the busy call (or batch) seen at the last look, and since when
        long watchedSince = 0;
        long watchedRun = 0; // the running call seen at the last look, and since when
        long watchedRunSince = 0;
        while (running) {
            long now = System.nanoTime();
            long busy = busyCall;
            long run = runningCall;
            long calls = inlineCalls;
            if (calls != seenCalls || busy != 0) {
                seenCalls = calls;
                lastCallSeen = now;
            }
            if (run != watchedRun) {
                watchedRun = run;
                watchedRunSince = now;
            } else if (run != 0 && now - watchedRunSince >= TAKEOVER_NS && slowCall != run) {
                slowSinceNs = watchedRunSince; // this call's own run is slow (seen at looks TAKEOVER_NS apart)
                slowCall = run;
            }
            if (busy != watched) {
                watched = busy;
                watchedSince = now;
            } else if (busy != 0 && !mainInCallPolls && now - watchedSince >= TAKEOVER_NS) {
                // the main thread is stuck in a call or a batch (seen at looks TAKEOVER_NS apart; not while it polls
                // inside the call): start the calls queued behind it elsewhere, and poll in its place (the first poll
                // after a park reads the clock)
                handOnBatch();
                int work = pollOnce(null, standbyWaited);
                if (work >= 0) {
                    standbyWaited = false;
                }
                idle.idle(Math.max(work, 0));
                standbyWaited |= work <= 0;
                continue;
            }
            standbyWaited = true;
            idle.reset();
            if (busy == 0 && now - lastCallSeen > DEEP_SLEEP_NS) {
                standbyAsleep = true;
                if (busyCall == 0 && running) {
                    LockSupport.park(this);
                }
                standbyAsleep = false;
                lastCallSeen = System.nanoTime();
            } else {
                LockSupport.parkNanos(this, WATCH_NS);
            }
        }
    }

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
        if (busyCall != 0) {
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
