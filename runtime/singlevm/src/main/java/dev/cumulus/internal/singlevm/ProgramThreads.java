package dev.cumulus.internal.singlevm;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hyperion's load balancer for one node: a thread the program starts runs on the next node, round robin per creating
 * node (this node's first thread goes to the node after it). The thread's task — a program {@code Thread} subclass, or
 * the shared {@code Runnable} it was made with — is a shared object; the chosen node runs it on a thread of its own
 * with the same name. {@code Thread.start} is a release before and an acquire in the new thread; the thread's end is a
 * release, and {@code join}/{@code isAlive() == false} an acquire after. Node 0 counts the program's live threads so
 * the run ends when its main and every thread have ended — but daemon threads, which (as on one JVM) do not keep the
 * run alive: they run as daemon threads of their node and end with it.
 *
 * <p>The program's {@code Thread} object stays the thread's identity on its creating node: the running thread has its
 * name (and a {@code Thread} subclass's copy answers {@code getName()} with it); {@code t.interrupt()} interrupts the
 * running thread wherever it runs (waking {@code sleep}, {@code wait} and {@code join} there with an
 * {@code InterruptedException}; an interrupt that arrives before the thread runs is kept for it); an uncaught exception
 * goes back to the creator, which calls {@code t}'s uncaught-exception handler (its own, else its group's, which
 * prints it or calls the default handler) on a thread named like {@code t}, before {@code join} returns and before the
 * thread stops counting as live. Once the program went beyond a limit of the single-VM mode on this node
 * ({@link LimitStop}), the threads that end here tell nobody: the run ends instead.
 *
 * <p>Threads: the program's; {@link #run}, {@link #ended}, {@link #failed}, {@link #interrupt(long)} and
 * {@link #localState} run on the polling thread (all brief).
 */
final class ProgramThreads {
    private final ObjectSpace space;
    private final int self;
    private final int size;
    private final AtomicInteger next;
    private final AtomicLong handles = new AtomicLong();
    private final Map<Thread, Object> runnables = Collections.synchronizedMap(new WeakHashMap<>());
    /** A started thread of this node's program: where it runs, its handle, its end. */
    private record Started(int node, long handle, CompletableFuture<Void> end) {
    }

    private final Map<Thread, Started> started = Collections.synchronizedMap(new WeakHashMap<>());
    private final ConcurrentHashMap<Long, CompletableFuture<Void>> running = new ConcurrentHashMap<>();
    /** Creator side: the program's Thread object of each running handle, and failures told before the end. */
    private final ConcurrentHashMap<Long, Thread> programThreads = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Object> failures = new ConcurrentHashMap<>();
    /** Creator side: the handles of running daemon threads (not counted as live). */
    private final Set<Long> daemons = ConcurrentHashMap.newKeySet();
    /** Running side: the thread of each handle running here, and interrupts that came before it ran. */
    private final Map<Long, Thread> here = new HashMap<>();
    private final Set<Long> pendingInterrupts = new HashSet<>();
    /** Node 0: the program's threads started and not yet ended, cluster-wide. */
    private final AtomicInteger live = new AtomicInteger();
    private final Object quiet = new Object();

    ProgramThreads(ObjectSpace space, int self, int size) {
        this.space = space;
        this.self = self;
        this.size = size;
        this.next = new AtomicInteger(self + 1);
    }

    /** {@code new Thread(task)} in the program: the task to run when the thread starts. */
    void made(Thread t, Runnable task) {
        if (task != null) {
            runnables.put(t, task);
        }
    }

    /** {@code t.start()} in the program. */
    void start(Thread t) {
        Object task = t instanceof SharedObject ? t : runnables.remove(t);
        if (!(task instanceof SharedObject)) {
            t.start(); // a JDK task (not a shared object) runs where it was made, as a plain thread
            return;
        }
        if (started.containsKey(t)) {
            throw new IllegalThreadStateException("thread " + t.getName() + " was started already");
        }
        int to = Math.floorMod(next.getAndIncrement(), size);
        long handle = ObjectIds.of(self, handles.incrementAndGet());
        CompletableFuture<Void> end = new CompletableFuture<>();
        running.put(handle, end);
        programThreads.put(handle, t);
        started.put(t, new Started(to, handle, end));
        boolean daemon = t.isDaemon();
        if (daemon) {
            daemons.add(handle);
        }
        space.heap().release();
        if (!daemon) {
            space.heap().peers().threadStarted(0, 1);
        }
        long id = space.sentIdOf(task);
        space.heap().peers().startThread(to, id, task.getClass().getName(), t.getName(), self, handle, daemon);
    }

    /**
     * Runs task {@code id} on a new thread of this node (a start request, sent one-way; brief). A task that cannot be
     * resolved fails in the new thread like an exception of the task, so its creator still hears of its end.
     */
    void run(long id, String className, String name, int creator, long handle, boolean daemon) {
        Thread.ofPlatform().name(name).daemon(daemon).start(() -> {
            ProgramPriority.lower();
            space.bind();
            synchronized (here) {
                here.put(handle, Thread.currentThread());
                if (pendingInterrupts.remove(handle)) {
                    Thread.currentThread().interrupt();
                }
            }
            Throwable failure = null;
            try {
                Object task = space.resolve(id, className);
                if (task instanceof Thread copy) {
                    copy.setName(name); // a Thread subclass's copy: getName() as on its creator
                }
                space.heap().acquire();
                ((Runnable) task).run();
            } catch (Throwable e) {
                failure = e;
            }
            synchronized (here) {
                here.remove(handle);
                pendingInterrupts.remove(handle);
            }
            if (LimitStop.stopping() || ProgramExit.underway()) {
                return; // the run ends: nobody may go on as if the thread had done its work
            }
            try {
                tellEnd(creator, handle, failure, daemon);
            } catch (RuntimeException e) {
                if (!daemon) {
                    throw e;
                } // a daemon thread still running when the run ends meets the nodes leaving: it ends silently
            }
        });
    }

    /**
     * Running side: thread {@code handle} of node {@code creator} ended ({@code failure}: how, or null); tells it. A
     * daemon thread was never counted as live.
     */
    private void tellEnd(int creator, long handle, Throwable failure, boolean daemon) {
        try {
            space.heap().release();
        } finally {
            if (failure != null) {
                if (creator == self) {
                    failed(handle, failure);
                } else {
                    space.heap().peers().threadFailed(creator, handle, ThreadFailure.of(failure, space).text());
                }
            }
            space.heap().peers().threadEnded(creator, handle);
            if (failure == null && !daemon) {
                space.heap().peers().threadStarted(0, -1); // after a failure, the creator uncounts it
            }
        }
    }

    /** Whether {@code t} is a thread of the program running on this node ({@code main} on node 0, or one it started). */
    boolean runsHere(Thread t) {
        synchronized (here) {
            return here.containsValue(t);
        }
    }

    /** Node 0: the thread that runs the program's {@code main}, listed in thread dumps. */
    void main(Thread t) {
        synchronized (here) {
            here.put(0L, t);
        }
    }

    /** The program's threads running on this node now (for thread dumps). */
    List<Thread> runningHere() {
        synchronized (here) {
            return List.copyOf(here.values());
        }
    }

    /** Creator side: thread {@code handle} ends with {@code failure} (a Throwable, or a ThreadFailure); brief. */
    void failed(long handle, Object failure) {
        failures.put(handle, failure);
    }

    /** Running side: interrupts thread {@code handle}, or keeps the interrupt until it runs; brief. */
    void interrupt(long handle) {
        synchronized (here) {
            Thread t = here.get(handle);
            if (t != null) {
                t.interrupt();
            } else {
                pendingInterrupts.add(handle);
            }
        }
    }

    /**
     * {@code t.getState()} in the program: {@code NEW} before {@code start}, {@code TERMINATED} once its end is known
     * here (an acquire, as {@code isAlive() == false}), else the state of the thread that runs it, asked where it runs.
     */
    Thread.State state(Thread t) {
        Started s = started.get(t);
        if (s == null) {
            return t.getState();
        }
        if (s.end().isDone()) {
            space.heap().acquire();
            return Thread.State.TERMINATED;
        }
        Thread.State state = s.node() == self ? localState(s.handle())
            : Thread.State.valueOf(space.heap().peers().threadState(s.node(), s.handle()));
        return state == Thread.State.TERMINATED && !s.end().isDone() ? Thread.State.RUNNABLE : state;
    }

    /**
     * The state of the thread {@code handle} on this node; {@code RUNNABLE} while its start request has not made it
     * yet (started, as the creator saw) or after it ended here but before its creator heard (alive, as it says).
     */
    Thread.State localState(long handle) {
        synchronized (here) {
            Thread t = here.get(handle);
            Thread.State state = t == null ? Thread.State.RUNNABLE : t.getState();
            return state == Thread.State.NEW || state == Thread.State.TERMINATED ? Thread.State.RUNNABLE : state;
        }
    }

    /** {@code t.interrupt()} in the program: the running thread is interrupted where it runs. */
    void interrupt(Thread t) {
        Started s = started.get(t);
        if (s == null) {
            t.interrupt();
        } else if (!s.end().isDone()) {
            space.heap().peers().interruptThread(s.node(), s.handle());
        }
    }

    /**
     * The thread with {@code handle} ended (its end was released); brief. After an uncaught exception, its handler
     * runs first, on a thread of its own; then the thread stops counting as live and its joiners return.
     */
    void ended(long handle) {
        CompletableFuture<Void> f = running.remove(handle);
        Thread program = programThreads.remove(handle);
        Object failure = failures.remove(handle);
        boolean daemon = daemons.remove(handle);
        if (failure == null || program == null) {
            if (f != null) {
                f.complete(null);
            }
            if (program != null && mayBeWaitedOn(program)) {
                Thread.ofVirtual().start(() -> {
                    space.bind();
                    notifyEnd(program);
                });
            }
            return;
        }
        Throwable e = failure instanceof Throwable t ? t : ((ThreadFailure) failure).rebuild(space);
        Thread.ofPlatform().name(program.getName()).start(() -> {
            space.bind();
            try {
                space.heap().acquire();
                Thread.UncaughtExceptionHandler h = program.getUncaughtExceptionHandler();
                if (h != null) {
                    h.uncaughtException(program, e);
                }
            } catch (Throwable x) {
                System.err.println("Exception: " + x.getClass().getName()
                    + " thrown from the UncaughtExceptionHandler in thread \"" + program.getName() + "\"");
            } finally {
                try {
                    space.heap().release();
                } finally {
                    if (!daemon) {
                        space.heap().peers().threadStarted(0, -1);
                    }
                    if (f != null) {
                        f.complete(null);
                    }
                    notifyEnd(program);
                }
            }
        });
    }

    /**
     * Whether a thread may wait on the program's {@code Thread} object now (see {@link #notifyEnd}): its monitor is in
     * use, or homed on another node (where only its home knows). Asked after the end is known (so {@code isAlive()}
     * is false): a thread that enters the monitor later sees that before it would wait.
     */
    private boolean mayBeWaitedOn(Thread program) {
        if (program instanceof SharedObject) {
            return !space.heap().monitorIdleHere(space.idOf(program));
        }
        return LocalMonitors.inUse(program);
    }

    /**
     * One JVM's thread end notifies every thread waiting on its {@code Thread} object — {@code Thread.join} waits that
     * way, and a program may too ({@code synchronized (t) { while (t.isAlive()) t.wait(); }}): once the end is known,
     * a {@code notifyAll} through the monitor woven code takes for {@code program} (a cluster monitor for a
     * {@code Thread} subclass, a node-local one for a JDK {@code Thread}).
     */
    private static void notifyEnd(Thread program) {
        SingleVmHooks.monitorEnter(program);
        try {
            SingleVmHooks.notifyAll(program);
        } finally {
            SingleVmHooks.monitorExit(program);
        }
    }

    /** Node 0: {@code delta} program threads started (+1) or ended (-1). */
    int counted(int delta) {
        int n = live.addAndGet(delta);
        if (n == 0) {
            synchronized (quiet) {
                quiet.notifyAll();
            }
        }
        return n;
    }

    /** Node 0: waits until no program thread is live on any node. */
    void awaitQuiet() throws InterruptedException {
        synchronized (quiet) {
            while (live.get() > 0) {
                quiet.wait();
            }
        }
    }

    void join(Thread t, long timeoutMs) throws InterruptedException {
        Started s = started.get(t);
        CompletableFuture<Void> end = s == null ? null : s.end();
        if (end == null) {
            if (timeoutMs == 0) {
                t.join();
            } else {
                t.join(timeoutMs);
            }
            return;
        }
        try {
            if (timeoutMs == 0) {
                end.get();
            } else {
                end.get(timeoutMs, TimeUnit.MILLISECONDS);
            }
            space.heap().acquire();
        } catch (TimeoutException e) {
            // still running: join(ms) returns all the same
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    boolean isAlive(Thread t) {
        Started s = started.get(t);
        CompletableFuture<Void> end = s == null ? null : s.end();
        if (end == null) {
            return t.isAlive();
        }
        if (end.isDone()) {
            space.heap().acquire();
            return false;
        }
        return true;
    }
}
