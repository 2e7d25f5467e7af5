package dev.cumulus.internal.cloud;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.function.LongConsumer;

/**
 * Runs a node's delivered writes one at a time, in sequence order, and gives {@code wait}/{@code notify} in cloud
 * classes Java's meaning with a wake-up order that is the same on every replica (Manta §3.4, after the Weaver idea).
 *
 * <p>A baton passes between the scheduler thread and one execution at a time: each write runs on its own virtual
 * thread until it returns or waits; then the scheduler picks the next step. Woken waiters come first, in the order
 * they were woken; otherwise the next delivered write, in sequence order. Nothing depends on timing, so every
 * replica takes the same steps. A waiting execution releases the object's monitor (it really waits on it) until the
 * scheduler resumes it.
 *
 * <p>Threads: {@link #deliver} from the agent thread; the scheduler thread; executions (virtual threads). The wait
 * sets and the resume queue are touched only by whoever holds the baton.
 */
final class DeliveryScheduler {
    /** A delivered step: runs on an execution thread while it holds the baton. */
    interface Step {
        long seq();

        /** True for steps that run on the scheduler thread itself (no user code, never waits). */
        boolean inline();

        void run();
    }

    private final LinkedBlockingQueue<Step> incoming = new LinkedBlockingQueue<>();
    private final ArrayDeque<Execution> resumable = new ArrayDeque<>();
    private final Map<Object, ArrayDeque<Execution>> waitSets = new IdentityHashMap<>();
    private final Semaphore baton = new Semaphore(0);
    private final Thread thread;
    private final LongConsumer onApplied;
    private final ThreadLocal<Execution> current = new ThreadLocal<>();
    private volatile boolean stopped;

    /** One delivered write on its virtual thread. */
    final class Execution {
        private final Step step;
        private Object waitingOn;
        private volatile boolean resumed;

        Execution(Step step) {
            this.step = step;
        }

        private void run() {
            current.set(this);
            try {
                step.run();
            } finally {
                current.remove();
                baton.release();
            }
        }
    }

    DeliveryScheduler(String name, LongConsumer onApplied) {
        this.onApplied = onApplied;
        this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this::loop);
    }

    void start() {
        thread.start();
    }

    /** Hands a delivered step over, in sequence order (agent thread). */
    void deliver(Step step) {
        incoming.add(step);
    }

    /** True on the thread of a delivered write that holds the baton. */
    boolean inExecution() {
        return current.get() != null;
    }

    private void loop() {
        try {
            while (!stopped) {
                Execution waiter = resumable.poll();
                if (waiter != null) {
                    resume(waiter);
                    baton.acquire();
                    continue;
                }
                Step step = incoming.take();
                if (step.inline()) {
                    step.run();
                } else {
                    Execution e = new Execution(step);
                    Thread.ofVirtual().name("cumulus-write-" + step.seq()).start(e::run);
                    baton.acquire();
                }
                onApplied.accept(step.seq());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void resume(Execution waiter) {
        Object monitor = waiter.waitingOn;
        waiter.waitingOn = null;
        waiter.resumed = true;
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    /**
     * {@code monitor.wait()} inside a delivered write: joins the monitor's wait set, gives the baton back, and waits
     * (releasing the monitor) until a {@link #notify} on this replica resumes it.
     */
    void await(Object monitor) throws InterruptedException {
        Execution e = current.get();
        if (!Thread.holdsLock(monitor)) {
            throw new IllegalMonitorStateException("wait() on a cloud object without holding its monitor");
        }
        e.resumed = false;
        e.waitingOn = monitor;
        waitSets.computeIfAbsent(monitor, m -> new ArrayDeque<>()).add(e);
        baton.release();
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

    /** Writes waiting in {@code wait()} right now (diagnostics). */
    int waitingCount() {
        return waitSets.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    void stop() {
        stopped = true;
        thread.interrupt();
    }
}
