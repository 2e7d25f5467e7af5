package dev.cumulus.internal.cloud;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.LongConsumer;

/**
 * Runs a node's delivered writes one at a time, in sequence order, and gives {@code wait}/{@code notify} in cloud
 * classes Java's meaning with a wake-up order that is the same on every replica (Manta §3.4, after the Weaver idea).
 *
 * <p>One thread at a time is the <em>runner</em>: it takes the next step and runs it itself, inline. When a write
 * waits, its thread starts a new runner and waits (releasing the object's monitor); when a {@code notify} queues it
 * again and its turn comes, the runner of that moment hands the role back to it and ends, and the woken write goes
 * on and, when it returns, keeps running steps. Woken writes come first, in the order they were woken; otherwise the
 * next delivered write, in sequence order. Nothing depends on timing, so every replica takes the same steps. A write
 * that never waits costs no thread switch at all.
 *
 * <p>Threads: {@link #deliver} from the agent thread; the runner (a platform thread at first, virtual threads after
 * a wait). The wait sets and the resume queue are touched only by the runner; each hand-over (thread start, monitor
 * notify) orders the memory effects.
 */
final class DeliveryScheduler {
    /** A delivered step. */
    interface Step {
        long seq();

        /** True for steps that never run user code (they cannot wait). */
        boolean inline();

        void run();
    }

    private static final Step STOP = new Step() {
        @Override
        public long seq() {
            return -1;
        }

        @Override
        public boolean inline() {
            return true;
        }

        @Override
        public void run() {
        }
    };

    private final LinkedBlockingQueue<Step> incoming = new LinkedBlockingQueue<>();
    private final ArrayDeque<Execution> resumable = new ArrayDeque<>();
    private final Map<Object, ArrayDeque<Execution>> waitSets = new IdentityHashMap<>();
    private final String name;
    private final LongConsumer onApplied;
    private final ThreadLocal<Execution> current = new ThreadLocal<>();
    private volatile boolean stopped;

    /** One delivered write while it runs or waits. */
    private static final class Execution {
        final Step step;
        Object waitingOn;
        boolean applied;
        volatile boolean resumed;

        Execution(Step step) {
            this.step = step;
        }
    }

    DeliveryScheduler(String name, LongConsumer onApplied) {
        this.name = name;
        this.onApplied = onApplied;
    }

    void start() {
        Thread.ofPlatform().daemon().name(name).start(this::runLoop);
    }

    /** Hands a delivered step over, in sequence order (agent thread). */
    void deliver(Step step) {
        incoming.add(step);
    }

    /** True on the thread of a delivered write while it runs. */
    boolean inExecution() {
        return current.get() != null;
    }

    private void runLoop() {
        try {
            loop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The runner's work; returns when this thread hands the runner role to a woken write (or on stop). */
    private void loop() throws InterruptedException {
        while (!stopped) {
            Execution waiter = resumable.poll();
            if (waiter != null) {
                resume(waiter);
                return;
            }
            Step step = incoming.take();
            if (step == STOP) {
                return;
            }
            if (step.inline()) {
                step.run();
                onApplied.accept(step.seq());
                continue;
            }
            Execution e = new Execution(step);
            current.set(e);
            try {
                step.run();
            } finally {
                current.remove();
            }
            markApplied(e);
            // If the step waited on the way, this thread was handed the runner role back when it resumed.
        }
    }

    private void markApplied(Execution e) {
        if (!e.applied) {
            e.applied = true;
            onApplied.accept(e.step.seq());
        }
    }

    private static void resume(Execution waiter) {
        Object monitor = waiter.waitingOn;
        waiter.waitingOn = null;
        synchronized (monitor) {
            waiter.resumed = true;
            monitor.notifyAll();
        }
    }

    /**
     * {@code monitor.wait()} inside a delivered write: joins the monitor's wait set, starts a new runner, and waits
     * (releasing the monitor) until a {@link #notify} on this replica queues it and its turn comes. It then is the
     * runner again.
     */
    void await(Object monitor) throws InterruptedException {
        Execution e = current.get();
        if (!Thread.holdsLock(monitor)) {
            throw new IllegalMonitorStateException("wait() on a cloud object without holding its monitor");
        }
        e.resumed = false;
        e.waitingOn = monitor;
        waitSets.computeIfAbsent(monitor, m -> new ArrayDeque<>()).add(e);
        markApplied(e);
        Thread.ofVirtual().name(name + "-runner").start(this::runLoop);
        while (!e.resumed) {
            monitor.wait();
        }
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
        incoming.add(STOP);
    }
}
