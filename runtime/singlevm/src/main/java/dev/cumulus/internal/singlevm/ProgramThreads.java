package dev.cumulus.internal.singlevm;

import java.util.Collections;
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
 * the run ends when its main and every thread have ended.
 *
 * <p>Threads: the program's; {@link #run} and {@link #ended} run on the polling thread (both brief).
 */
final class ProgramThreads {
    private final ObjectSpace space;
    private final int self;
    private final int size;
    private final AtomicInteger next;
    private final AtomicLong handles = new AtomicLong();
    private final Map<Thread, Object> runnables = Collections.synchronizedMap(new WeakHashMap<>());
    private final Map<Thread, CompletableFuture<Void>> started = Collections.synchronizedMap(new WeakHashMap<>());
    private final ConcurrentHashMap<Long, CompletableFuture<Void>> running = new ConcurrentHashMap<>();
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
        started.put(t, end);
        space.heap().release();
        space.heap().peers().threadStarted(0, 1);
        long id = space.idOf(task);
        space.heap().peers().startThread(to, id, task.getClass().getName(), t.getName(), self, handle);
    }

    /**
     * Runs task {@code id} on a new thread of this node (a start request, sent one-way; brief). A task that cannot be
     * resolved fails in the new thread like an exception of the task, so its creator still hears of its end.
     */
    void run(long id, String className, String name, int creator, long handle) {
        Thread.ofPlatform().name(name).start(() -> {
            space.bind();
            try {
                Object task = space.resolve(id, className);
                space.heap().acquire();
                ((Runnable) task).run();
            } catch (Throwable e) {
                System.err.print("Exception in thread \"" + name + "\" ");
                e.printStackTrace();
            } finally {
                try {
                    space.heap().release();
                } finally {
                    space.heap().peers().threadEnded(creator, handle);
                    space.heap().peers().threadStarted(0, -1);
                }
            }
        });
    }

    /** The thread with {@code handle} ended (its end was released); brief. */
    void ended(long handle) {
        CompletableFuture<Void> f = running.remove(handle);
        if (f != null) {
            f.complete(null);
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
        CompletableFuture<Void> end = started.get(t);
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
        CompletableFuture<Void> end = started.get(t);
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
