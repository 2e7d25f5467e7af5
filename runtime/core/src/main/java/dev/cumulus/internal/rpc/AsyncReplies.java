package dev.cumulus.internal.rpc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The answered asynchronous calls of a node, waiting for their futures to be completed off the polling thread. The
 * polling thread (or a thread that fails calls) pushes each answered call on a lock-free stack threaded through the
 * calls themselves ({@link PendingCall#nextDone}: nothing allocated per call); one drainer at a time takes
 * the whole stack, puts it back in arrival order and completes each call's future. A drainer is a virtual thread
 * started when the first answer finds no drainer running; it ends when it finds the stack empty. So a poll that
 * brings 32 replies costs one hand-off, not 32 threads, and the futures complete in the order their answers came.
 *
 * <p>An answer whose future has no callbacks needs no drainer: completing it runs no program code, so the thread that
 * polled it completes it right after its poll ({@link PendingCall#run}, offered as
 * {@code Scheduler.Work.ASYNC_ANSWER}) — the caller itself when it waits for a result ({@link #pollFor}), so a steady
 * stream of calls and results hands nothing to another thread. While a drainer runs, every answer goes through it,
 * in arrival order.
 *
 * <p>Threads: {@link #add} from any thread; {@link #drain} on the drainer only. A future's callbacks run on the
 * drainer (never on the polling thread); a thread that waits for an asynchronous result while it is the drainer
 * completes the answers behind it itself ({@link #helpWhile}), so a callback may wait for a later call's result.
 */
final class AsyncReplies implements Executor {
    /** How long a drainer waiting in {@link #helpWhile} parks at most before it looks at its result again. */
    private static final long HELP_PARK_NS = 1_000_000;
    private final AtomicReference<PendingCall> answered = new AtomicReference<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    /** Completes one answered call's future (drainer only). */
    private final Consumer<PendingCall> completer;
    /** Starts a drainer thread. */
    private final Consumer<Runnable> threads;
    /** Polls the node for a result the current thread is about to wait for ({@link #pollFor}). */
    private final Poller poller;
    private final Runnable drainer = this::drain;
    /** The thread that drains now, or null. */
    private volatile Thread drainingThread;
    /**
     * The answered calls the current drainer took but has not completed yet, oldest first. Drainers follow one
     * another through {@link #draining} (set false, then compare-and-set true), which orders their accesses.
     */
    private PendingCall taken;

    /** How a thread polls the node before it blocks for a result. */
    @FunctionalInterface
    interface Poller {
        /** Polls until {@code done}, or for the thread's poll budget or {@code atMostNs}, whichever is shorter. */
        void pollFor(BooleanSupplier done, long atMostNs);
    }

    /** @param poller polls the node for a result until it is done or the thread's poll budget is spent */
    AsyncReplies(Consumer<PendingCall> completer, Consumer<Runnable> threads, Poller poller) {
        this.completer = completer;
        this.threads = threads;
        this.poller = poller;
    }

    /**
     * Whether an answer must go through {@link #add}: a drainer runs (the answer queues behind the ones it has, and a
     * drainer waiting in {@link #helpWhile} hears of it). Else the polling thread may complete it itself.
     */
    boolean draining() {
        return draining.get();
    }

    /**
     * Completes an answered call's future on the current thread, which just polled its answer — unless a callback was
     * attached to it or a drainer started since the answer was polled: then it goes to the drainer after all.
     */
    void completeHere(PendingCall call, CompletableFuture<?> result) {
        if (result.getNumberOfDependents() != 0 || draining.get()) {
            add(call);
        } else {
            completer.accept(call);
        }
    }

    /** Where an answer the polling thread did not complete after all goes: {@link #add}. */
    @Override
    public void execute(Runnable answeredCall) {
        add((PendingCall) answeredCall);
    }

    /**
     * Before the current thread (not the drainer) blocks until {@code done}: polls the node for it while its poll
     * budget lasts (at most {@code atMostNs}), completing the answers its polls bring, so a result that comes
     * meanwhile needs no wake-up.
     */
    void pollFor(BooleanSupplier done, long atMostNs) {
        poller.pollFor(done, atMostNs);
    }

    /** Queues an answered call; starts a drainer unless one runs. Any thread. */
    void add(PendingCall call) {
        PendingCall head;
        do {
            head = answered.get();
            call.nextDone = head;
        } while (!answered.compareAndSet(head, call));
        if (head == null) {
            Thread running = drainingThread;
            if (running != null) {
                LockSupport.unpark(running); // it may wait in helpWhile
            }
            if (!draining.get() && draining.compareAndSet(false, true)) {
                threads.accept(drainer);
            }
        }
    }

    private void drain() {
        Thread self = Thread.currentThread();
        do {
            drainingThread = self;
            try {
                while (takeNext()) {
                    completeOne();
                }
            } finally {
                drainingThread = null;
                draining.set(false);
            }
            // an answer pushed after the last look, while draining was still true, started no drainer
        } while (answered.get() != null && draining.compareAndSet(false, true));
    }

    /** Whether a taken call is left to complete (taking the stack first when none is). Drainer only. */
    private boolean takeNext() {
        if (taken != null) {
            return true;
        }
        PendingCall newestFirst = answered.getAndSet(null);
        PendingCall oldestFirst = null;
        while (newestFirst != null) {
            PendingCall next = newestFirst.nextDone;
            newestFirst.nextDone = oldestFirst;
            oldestFirst = newestFirst;
            newestFirst = next;
        }
        taken = oldestFirst;
        return taken != null;
    }

    private void completeOne() {
        PendingCall call = taken;
        taken = call.nextDone;
        call.nextDone = null;
        completer.accept(call);
    }

    /** True when the current thread is the drainer. */
    boolean onDrainer() {
        return drainingThread == Thread.currentThread();
    }

    /**
     * Completes answered calls while {@code waiting} says the current thread, the drainer, still waits (a callback
     * that waits for another asynchronous result): the answer it waits for may be queued behind it. Parks while none
     * is queued; {@link #add} unparks it.
     */
    void helpWhile(BooleanSupplier waiting) {
        while (waiting.getAsBoolean()) {
            if (takeNext()) {
                completeOne();
            } else {
                // add() unparks it; a result completed elsewhere (a call that followed its object, on a thread of
                // its own) is seen within the bound
                LockSupport.parkNanos(this, HELP_PARK_NS);
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
        }
    }
}
