package dev.cumulus.internal.rpc;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;

/**
 * A standing cluster's client keeps, per server, at most as many calls outstanding as the server admits from one
 * client: a call that would pass the limit waits in its start until a reply frees a slot, instead of being refused by
 * the server. It counts exactly the calls the server counts ({@code counts}, by object id): from before the call is
 * sent until its answer is polled here (the server ends its count before it answers) or the server is gone. A call
 * this client stopped waiting for (its timeout passed, its thread was interrupted) still counts until its late answer
 * comes, as it does on the server.
 *
 * <p>Cost on the normal path: one compare-and-set of the server's counter as a call starts and one decrement as its
 * answer is polled; threads are unparked only while some wait. The polling thread never waits here: it only releases
 * slots ({@link #release}). Any thread.
 */
final class ClientWindow {
    private final int limit;
    private final LongPredicate counts;
    /** Counted calls outstanding, by server. */
    private final AtomicIntegerArray outstanding;
    /** The threads waiting for a slot, by server. */
    private final ConcurrentLinkedQueue<Thread>[] waiting;
    /** The calls nobody waits for any more whose answer has not come, by call id: their server, which still counts them. */
    private final Map<Long, Integer> abandoned = new ConcurrentHashMap<>();

    /**
     * @param servers the servers' ids are {@code 0..servers-1}
     * @param limit   the most counted calls one client may have outstanding on one server (the servers' limit)
     * @param counts  whether a call of an object id counts (what the servers count)
     */
    @SuppressWarnings("unchecked")
    ClientWindow(int servers, int limit, LongPredicate counts) {
        if (limit < 1) {
            throw new IllegalArgumentException("a client's window must hold at least 1 call, got " + limit);
        }
        this.limit = limit;
        this.counts = counts;
        this.outstanding = new AtomicIntegerArray(servers);
        this.waiting = new ConcurrentLinkedQueue[servers];
        for (int i = 0; i < servers; i++) {
            waiting[i] = new ConcurrentLinkedQueue<>();
        }
    }

    /** The most counted calls outstanding on one server. */
    int limit() {
        return limit;
    }

    /** Whether a call of {@code objectId} to {@code node} counts (a server's, and not one of attaching or leaving). */
    boolean counts(int node, long objectId) {
        return node >= 0 && node < waiting.length && counts.test(objectId);
    }

    /** Takes a slot on {@code server} if one is free. */
    boolean tryAcquire(int server) {
        int n;
        do {
            n = outstanding.get(server);
            if (n >= limit) {
                return false;
            }
        } while (!outstanding.compareAndSet(server, n, n + 1));
        return true;
    }

    /** Takes a slot on {@code server} even past the limit (a call that must not wait; its server may refuse it). */
    void acquirePastLimit(int server) {
        outstanding.incrementAndGet(server);
    }

    /** Whether a slot on {@code server} is free now. */
    boolean free(int server) {
        return outstanding.get(server) < limit;
    }

    /**
     * Waits, parked, until a slot on {@code server} is taken (true), {@code stop} says to give up (false: checked at
     * every wake, e.g. the server is gone), or {@code deadlineNs} passes (false; 0 for none).
     *
     * @throws InterruptedException the thread was interrupted (its status is cleared)
     */
    boolean await(int server, long deadlineNs, BooleanSupplier stop) throws InterruptedException {
        Thread self = Thread.currentThread();
        ConcurrentLinkedQueue<Thread> queue = waiting[server];
        queue.add(self);
        try {
            while (true) {
                if (tryAcquire(server)) { // after joining the queue: a slot freed since is seen here or unparks us
                    return true;
                }
                if (stop.getAsBoolean()) {
                    return false;
                }
                if (deadlineNs == 0) {
                    LockSupport.park(this);
                } else {
                    long leftNs = deadlineNs - System.nanoTime();
                    if (leftNs <= 0) {
                        return false;
                    }
                    LockSupport.parkNanos(this, leftNs);
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        } finally {
            queue.remove(self);
        }
    }

    /** A counted call to {@code server} was answered (polling thread), or never went: its slot is free. */
    void release(int server) {
        outstanding.decrementAndGet(server);
        wake(server);
    }

    /** Wakes the threads waiting for a slot on {@code server}: one was freed, or the server is gone. */
    void wake(int server) {
        ConcurrentLinkedQueue<Thread> queue = waiting[server];
        if (!queue.isEmpty()) {
            for (Thread t : queue) {
                LockSupport.unpark(t);
            }
        }
    }

    /** Nobody waits for counted call {@code callId} to {@code server} any more: its slot is freed when it is answered. */
    void abandon(long callId, int server) {
        abandoned.put(callId, server);
    }

    /** Counted call {@code callId} was answered after all, before it was abandoned ({@link #abandon}). */
    void forget(long callId) {
        abandoned.remove(callId);
    }

    /** An answer came for no pending call: if it was an abandoned counted call's, its slot is free (polling thread). */
    void lateAnswer(long callId) {
        if (!abandoned.isEmpty()) {
            Integer server = abandoned.remove(callId);
            if (server != null) {
                release(server);
            }
        }
    }

    /** {@code server} is gone: its abandoned calls will not be answered, and its waiting callers must fail. */
    void gone(int server) {
        abandoned.values().removeIf(s -> s == server);
        wake(server);
    }

    /** Whether a thread waits for a slot on {@code server} (tests). */
    boolean hasWaiters(int server) {
        return !waiting[server].isEmpty();
    }

    /** Counted calls outstanding on {@code server} (tests, diagnostics). */
    int outstanding(int server) {
        return outstanding.get(server);
    }
}
