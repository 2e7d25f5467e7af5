package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.sched.Scheduler;
import dev.cumulus.pastset.Element;
import dev.cumulus.pastset.Semantics;
import dev.cumulus.pastset.Template;
import dev.cumulus.pastset.Tuple;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One element on its home node: the log, the First/Last pointers, DeltaValue, the redefinition if any, and the summary
 * counters. The element's lock orders every operation on it, local or remote: the one causally ordered log.
 *
 * <p>Threads: local callers (fast path), and whichever thread runs a remote operation (the polling thread that brought
 * it, or a call thread). A local call that must wait first polls its node for a while ({@link Scheduler#pollUntil}):
 * the remote move or observe that unblocks it then runs on its own thread, which returns without being woken; after
 * its node's poll budget it parks on the element's condition. A remote move blocked by flow control and a remote
 * observe with nothing for it hold no thread: they wait in line, parked, and the change that readies them replies.
 * A caller node's numbered moves and observes (its {@code moveAsync}s, and what it sends while one is in flight) run
 * in number order whatever thread brings each: one that comes early is kept, and runs right after its predecessor.
 *
 * <p>Indexes: the first tuple ever appended is 0; {@code next} is the next one's (Last = {@code next - 1}); the log
 * holds {@code oldest .. next - 1}; First is in {@code oldest .. next}.
 */
final class ElementState {
    private final String id;
    private final String name;
    private final TupleCodec codec;
    private final LongSupplier clock;
    private final Scheduler scheduler;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Changes so far: a polling waiter watches it without the lock; written under the lock. */
    private volatile long changes;

    private final ArrayList<StoredTuple> log = new ArrayList<>();
    private long oldest;
    private long first;
    private long next;
    private long delta = Element.UNBOUNDED;

    private Template template;
    private Semantics semantics = Semantics.standard();
    private Semantics.Redefinition redefinition;
    private final Context context = new Context();
    /** Why every call fails, or null. */
    private String broken;
    private Throwable brokenCause;
    private int brokenByNode = -1;

    // counters for the summary event, guarded by lock
    private long moves;
    private long observes;
    private long remoteOps;
    private long blockedNs;
    private int waiting;
    /** Of {@link #waiting}, the threads parked on {@link #changed} (not polling). */
    private int sleeping;
    /** Remote observes waiting without a thread, oldest first; served by the change that gives them a tuple. */
    private final ArrayDeque<Parked> parked = new ArrayDeque<>();
    /** Remote moves blocked by flow control, waiting without a thread, oldest first; ahead of any later move. */
    private final ArrayDeque<ParkedMove> parkedMoves = new ArrayDeque<>();
    /** Replies to parked observes, sent by the thread that readied them once it has let go of the lock. */
    private final ConcurrentLinkedQueue<Runnable> completions = new ConcurrentLinkedQueue<>();
    private boolean servingParked;
    /** Per caller node (by id), the sequence of its ordered remote operations; null until it sends one. */
    private CallerLine[] lines = new CallerLine[0];
    /** Ordered operations that came before their turn, of every caller node. */
    private int early;

    /**
     * @param id    the space key ({@code placement/templateKey})
     * @param name  what messages call it, e.g. {@code row(int,double[])}
     * @param clock     nanosecond clock for blocked-time accounting
     * @param scheduler where a blocked local call polls its node before it parks
     */
    ElementState(String id, String name, Template template, TupleCodec codec, LongSupplier clock,
                 Scheduler scheduler) {
        this.id = id;
        this.name = name;
        this.template = template;
        this.codec = codec;
        this.clock = clock;
        this.scheduler = scheduler;
    }

    String id() {
        return id;
    }

    String name() {
        return name;
    }

    void knowTemplate(Template t) {
        lock.lock();
        try {
            if (template == null) {
                template = t;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Result of a blocking operation: the value and how long the caller waited. */
    record Outcome(long index, StoredTuple tuple, long blockedNs) {
    }

    // ---------------------------------------------------------------- operations

    /** Appends (or runs the redefined move). {@code fields} is the decoded tuple when the caller has it, else null. */
    Outcome move(StoredTuple tuple, Object[] fields, Semantics.Caller caller, boolean remote) {
        lock.lock();
        long waitedNs = 0;
        long pollUntilNs = 0;
        try {
            while (true) {
                checkUsable();
                Outcome o = tryMove(tuple, fields, caller, remote, waitedNs);
                if (o != null) {
                    return o;
                }
                pollUntilNs = pollUntilNs != 0 ? pollUntilNs : pollDeadline();
                waitedNs += await(pollUntilNs);
            }
        } finally {
            lock.unlock();
            runCompletions();
        }
    }

    /** A move blocked by flow control that holds no thread while it waits (see {@link #moveOrPark}). */
    record ParkedMove(StoredTuple tuple, Semantics.Caller caller, boolean remote, long sinceNs,
                      Consumer<Outcome> ready, Consumer<Throwable> failed) {
    }

    /**
     * A move that holds no thread while it waits (a remote one, or a local {@code moveAsync}): the outcome now when
     * flow control lets it in, else null, and the move waits in line until an observe (or a larger DeltaValue, a
     * truncate, a redefinition) makes room; then {@code ready} gets the outcome (or {@code failed} the error that broke
     * the element) on the thread that made the change, after it let go of the lock.
     *
     * @param seq the move's number in its caller node's ordered operations on this element (see {@link CallerLine}),
     *            or -1 for a move that needs no place in that order: one that comes early waits (null) for the ones
     *            before it, and the thread that runs its predecessor runs it
     */
    Outcome moveOrPark(StoredTuple tuple, Semantics.Caller caller, long seq, boolean remote, Consumer<Outcome> ready,
                       Consumer<Throwable> failed) {
        lock.lock();
        try {
            CallerLine line = seq < 0 ? null : inLine(caller, seq, tuple, ready, failed);
            if (line == CallerLine.LATER) {
                return null;
            }
            try {
                checkUsable();
                return admitMove(tuple, caller, remote, 0, ready, failed);
            } finally {
                if (line != null) {
                    line.next++;
                    runEarly(line);
                }
            }
        } finally {
            lock.unlock();
            runCompletions();
        }
    }

    /** The move now, or parked in the line of moves held by flow control. Lock held. */
    private Outcome admitMove(StoredTuple tuple, Semantics.Caller caller, boolean remote, long waitedNs,
                              Consumer<Outcome> ready, Consumer<Throwable> failed) {
        Outcome o = tryMove(tuple, null, caller, remote, waitedNs);
        if (o == null) {
            parkedMoves.add(new ParkedMove(tuple, caller, remote, clock.getAsLong() - waitedNs, ready, failed));
        }
        return o;
    }

    /** One move attempt under the lock: the outcome, or null when flow control (or a parked move ahead) holds it. */
    private Outcome tryMove(StoredTuple tuple, Object[] fields, Semantics.Caller caller, boolean remote,
                            long waitedNs) {
        if (redefinition != null) {
            Object[] f = fields != null ? fields : codec.fields(tuple, name);
            long idx = runRedefined("move", () -> redefinition.move(context, caller, f));
            count(true, remote, waitedNs);
            wake();
            return new Outcome(idx, null, waitedNs);
        }
        if (next - first >= delta || (!parkedMoves.isEmpty() && !servingParked)) {
            return null;
        }
        long idx = next++;
        log.add(tuple);
        count(true, remote, waitedNs);
        wake();
        return new Outcome(idx, null, waitedNs);
    }

    /** Returns the oldest unobserved tuple and advances First (or runs the redefined observe). */
    Outcome observe(Semantics.Caller caller, boolean remote) {
        lock.lock();
        long waitedNs = 0;
        long pollUntilNs = 0;
        try {
            while (true) {
                checkUsable();
                Outcome o = tryObserve(caller, remote, waitedNs);
                if (o != null) {
                    return o;
                }
                pollUntilNs = pollUntilNs != 0 ? pollUntilNs : pollDeadline();
                waitedNs += await(pollUntilNs);
            }
        } finally {
            lock.unlock();
            runCompletions();
        }
    }

    /** A remote observe that holds no thread while it waits (see {@link #observeOrPark}). */
    record Parked(Semantics.Caller caller, long sinceNs, Consumer<Outcome> ready, Consumer<Throwable> failed) {
    }

    /**
     * A remote observe: the outcome now when there is a tuple for it, else null, and the observe waits in line holding
     * no thread until a change gives it a tuple; then {@code ready} gets the outcome (or {@code failed} the error that
     * broke the element) on the thread that made the change, after it let go of the lock.
     */
    Outcome observeOrPark(Semantics.Caller caller, long seq, Consumer<Outcome> ready, Consumer<Throwable> failed) {
        lock.lock();
        try {
            CallerLine line = seq < 0 ? null : inLine(caller, seq, null, ready, failed);
            if (line == CallerLine.LATER) {
                return null;
            }
            try {
                checkUsable();
                return admitObserve(caller, 0, ready, failed);
            } finally {
                if (line != null) {
                    line.next++;
                    runEarly(line);
                }
            }
        } finally {
            lock.unlock();
            runCompletions();
        }
    }

    /** The observe now, or parked in the line of observes waiting for a tuple. Lock held. */
    private Outcome admitObserve(Semantics.Caller caller, long waitedNs, Consumer<Outcome> ready,
                                 Consumer<Throwable> failed) {
        Outcome o = tryObserve(caller, true, waitedNs);
        if (o == null) {
            parked.add(new Parked(caller, clock.getAsLong() - waitedNs, ready, failed));
        }
        return o;
    }

    // ---------------------------------------------------------------- a caller node's ordered operations

    /** An ordered operation that came before its turn (a move when {@code tuple} is set, else an observe). */
    private record Early(StoredTuple tuple, Semantics.Caller caller, long sinceNs, Consumer<Outcome> ready,
                         Consumer<Throwable> failed) {
    }

    /**
     * One caller node's ordered operations on this element: their numbers count from 0 in the order the node sent
     * them, and they run in that order whatever thread brings each (two calls the node sent in order may be run by two
     * threads here). Guarded by the lock.
     */
    private static final class CallerLine {
        /** Returned by {@link #inLine} for an operation kept for its turn. */
        static final CallerLine LATER = new CallerLine();
        /** The number of the operation whose turn it is. */
        long next;
        /** Operations that came before their turn, by number; made at the first. */
        TreeMap<Long, Early> early;
    }

    /**
     * The caller's line when operation {@code seq} is its turn (the caller runs it, then advances the line), else
     * {@link CallerLine#LATER}: it is kept, and runs when its turn comes. Lock held.
     */
    private CallerLine inLine(Semantics.Caller caller, long seq, StoredTuple tuple, Consumer<Outcome> ready,
                              Consumer<Throwable> failed) {
        if (brokenByNode >= 0) {
            checkUsable(); // fail-stop: the element never works again, no operation waits for its turn
        }
        int node = caller.node();
        if (node < 0) {
            throw new CumulusException("an ordered operation on element " + name + " named node " + node);
        }
        if (node >= lines.length) {
            lines = Arrays.copyOf(lines, Math.max(node + 1, lines.length * 2));
        }
        CallerLine line = lines[node];
        if (line == null) {
            line = lines[node] = new CallerLine();
        }
        if (seq == line.next) {
            return line;
        }
        if (seq < line.next || (line.early != null && line.early.containsKey(seq))) {
            throw new CumulusException("node " + node + " sent its operation #" + seq + " on element " + name
                + " twice or after #" + (line.next - 1) + "; every node must run the same Cumulus");
        }
        if (line.early == null) {
            line.early = new TreeMap<>();
        }
        line.early.put(seq, new Early(tuple, caller, clock.getAsLong(), ready, failed));
        early++;
        return CallerLine.LATER;
    }

    /** Runs the operations of {@code line} whose turn has come, in order; their replies go out after the lock. */
    private void runEarly(CallerLine line) {
        for (Early op; line.early != null && (op = line.early.remove(line.next)) != null; ) {
            line.next++;
            early--;
            Outcome o = null;
            RuntimeException error = unusableError();
            if (error == null) {
                long waitedNs = clock.getAsLong() - op.sinceNs();
                try {
                    o = op.tuple() != null ? admitMove(op.tuple(), op.caller(), true, waitedNs, op.ready(), op.failed())
                        : admitObserve(op.caller(), waitedNs, op.ready(), op.failed());
                } catch (RuntimeException e) {
                    error = e;
                }
            }
            Early ran = op;
            if (error != null) {
                RuntimeException failure = error;
                completions.add(() -> ran.failed().accept(failure));
            } else if (o != null) {
                Outcome ready = o;
                completions.add(() -> ran.ready().accept(ready));
            }
        }
    }

    /** Fails every operation kept for its turn and forgets every caller's line (fail-stop). Lock held. */
    private void dropLines() {
        RuntimeException error = unusableError();
        for (CallerLine line : lines) {
            if (line != null && line.early != null) {
                for (Early op : line.early.values()) {
                    completions.add(() -> op.failed().accept(error));
                }
            }
        }
        lines = new CallerLine[0];
        early = 0;
    }

    /** One observe attempt under the lock: the outcome, or null when the caller has to wait. */
    private Outcome tryObserve(Semantics.Caller caller, boolean remote, long waitedNs) {
        if (redefinition != null) {
            long idx = runRedefined("observe", () -> redefinition.observe(context, caller));
            if (idx == Semantics.BLOCK) {
                return null;
            }
            if (idx < oldest || idx >= next) {
                breakWith("its observe returned index " + idx + ", outside the log " + oldest + ".."
                    + (next - 1), null);
                checkUsable();
            }
            count(false, remote, waitedNs);
            wake();
            return new Outcome(idx, log.get((int) (idx - oldest)), waitedNs);
        }
        if (first < next) {
            long idx = first++;
            count(false, remote, waitedNs);
            wake();
            return new Outcome(idx, log.get((int) (idx - oldest)), waitedNs);
        }
        return null;
    }

    /** Re-reads the tuple at {@code index}, waiting until it exists. */
    Outcome observeAt(long index, boolean remote) {
        if (index < 0) {
            throw new CumulusException("element " + name + " has no tuple with the negative index " + index);
        }
        lock.lock();
        long waitedNs = 0;
        long pollUntilNs = 0;
        try {
            while (true) {
                checkUsable();
                if (index < oldest) {
                    throw new CumulusException("tuple " + index + " of element " + name + " was truncated; the oldest"
                        + " tuple kept is " + oldest + " (truncate drops tuples for good: observe a later index)");
                }
                if (index < next) {
                    count(false, remote, waitedNs);
                    return new Outcome(index, log.get((int) (index - oldest)), waitedNs);
                }
                pollUntilNs = pollUntilNs != 0 ? pollUntilNs : pollDeadline();
                waitedNs += await(pollUntilNs);
            }
        } finally {
            lock.unlock();
        }
    }

    long[] pointers() {
        lock.lock();
        try {
            checkUsable();
            return new long[] {first, next - 1, delta};
        } finally {
            lock.unlock();
        }
    }

    void delta(long k) {
        if (k < 1) {
            throw new CumulusException("DeltaValue of element " + name + " must be at least 1, not " + k
                + " (it bounds the unobserved tuples; 1 makes every move wait for the previous tuple's observe)");
        }
        lock.lock();
        try {
            checkUsable();
            delta = k;
            wake();
        } finally {
            lock.unlock();
            runCompletions();
        }
    }

    void truncate(long index) {
        lock.lock();
        try {
            checkUsable();
            if (index > next) {
                throw new CumulusException("cannot truncate element " + name + " at index " + index
                    + ": its newest tuple is " + (next - 1) + " (truncate(i) drops tuples older than i, so i may"
                    + " be at most last() + 1 = " + next + ")");
            }
            if (index <= oldest) {
                return;
            }
            log.subList(0, (int) (index - oldest)).clear();
            oldest = index;
            if (first < oldest) {
                first = oldest;
            }
            wake();
        } finally {
            lock.unlock();
            runCompletions();
        }
    }

    /** Installs {@code s} (created by {@code factory}); on failure breaks the element and throws. */
    void redefine(Template t, Semantics s, ClassLoader loader) {
        lock.lock();
        try {
            if (brokenByNode >= 0) {
                checkUsable();
            }
            if (t != null) {
                template = t;
            }
            semantics = s;
            broken = null;
            brokenCause = null;
            if (s.isStandard()) {
                redefinition = null;
                wake();
                return;
            }
            redefinition = null;
            Semantics.Redefinition r;
            try {
                Class<?> type = Class.forName(s.className(), true, loader);
                if (!Semantics.Redefinition.class.isAssignableFrom(type)) {
                    throw new CumulusException(s.className() + " does not implement "
                        + Semantics.Redefinition.class.getName());
                }
                var ctor = type.getDeclaredConstructor();
                ctor.setAccessible(true);
                r = (Semantics.Redefinition) ctor.newInstance();
                r.init(context, s.params());
            } catch (Throwable e) {
                Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
                breakWith("its semantics " + s.className() + " could not be installed: " + cause, cause);
                wake();
                checkUsable();
                return;
            }
            redefinition = r;
            wake();
        } finally {
            lock.unlock();
            runCompletions();
        }
    }

    /** The cluster failed: every blocked and later call fails. */
    void fail(int node, String reason) {
        lock.lock();
        try {
            if (brokenByNode < 0) {
                brokenByNode = node;
                broken = reason;
                brokenCause = null;
            }
            wake();
            dropLines();
        } finally {
            lock.unlock();
            runCompletions();
        }
    }

    // ---------------------------------------------------------------- summary counters

    /** A snapshot of the counters since the last one; resets them. */
    record Summary(long moves, long observes, long remoteOps, long blockedNs, int waiting, long first, long last,
                   long kept) {
        boolean active() {
            return moves > 0 || observes > 0 || waiting > 0;
        }
    }

    Summary drainSummary() {
        lock.lock();
        try {
            Summary s = new Summary(moves, observes, remoteOps, blockedNs, waiting(), first, next - 1,
                next - oldest);
            moves = 0;
            observes = 0;
            remoteOps = 0;
            blockedNs = 0;
            return s;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Calls waiting on this element right now, parked moves and observes and ordered operations kept for their turn
     * included (tests wait on this).
     */
    int waiting() {
        lock.lock();
        try {
            return waiting + parked.size() + parkedMoves.size() + early;
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- internals

    private void count(boolean move, boolean remote, long waitedNs) {
        if (move) {
            moves++;
        } else {
            observes++;
        }
        if (remote) {
            remoteOps++;
        }
        blockedNs += waitedNs;
    }

    /** Until when a call that starts to wait now polls its node before it parks ({@code nanoTime}). */
    private long pollDeadline() {
        return System.nanoTime() + scheduler.pollBudgetNs();
    }

    /**
     * Waits for the next change; returns the time waited. Lock held. Until {@code pollUntilNs} the thread lets go of
     * the lock and polls its node for the change ({@link Scheduler#pollUntil}): a remote call that brings it runs on
     * this thread, which needs no wake-up then. Past it (or where the thread does not poll) it parks on the condition.
     */
    private long await(long pollUntilNs) {
        long start = clock.getAsLong();
        waiting++;
        try {
            if (System.nanoTime() - pollUntilNs < 0 && pollForChange(pollUntilNs)) {
                return clock.getAsLong() - start;
            }
            sleeping++;
            try {
                changed.await();
            } finally {
                sleeping--;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while waiting on element " + name, e);
        } finally {
            waiting--;
        }
        return clock.getAsLong() - start;
    }

    /**
     * Polls the node without the lock until the element changes or the clock passes {@code untilNs}; true when it
     * changed. A change made meanwhile signals nobody (this thread is not among {@link #sleeping}), and it shows in
     * {@link #changes}, read again under the lock, so none is missed.
     */
    private boolean pollForChange(long untilNs) {
        long seen = changes;
        lock.unlock();
        try {
            scheduler.pollUntil(() -> changes != seen, untilNs, Scheduler.Awaited.OTHER, null);
        } finally {
            lock.lock();
        }
        return changes != seen;
    }

    /**
     * Wakes every waiting call to re-check, and serves parked remote moves and observes. Lock held; free when nobody
     * waits.
     */
    private void wake() {
        signal();
        if ((!parked.isEmpty() || !parkedMoves.isEmpty()) && !servingParked) {
            servingParked = true;
            try {
                serveParked();
            } finally {
                servingParked = false;
            }
        }
    }

    /** Tells the waiting threads of a change: polling ones see {@link #changes}, parked ones are woken. Lock held. */
    private void signal() {
        if (waiting > 0) {
            changes++;
            if (sleeping > 0) {
                changed.signalAll();
            }
        }
    }

    /**
     * Serves the parked remote moves and observes until neither line moves: a move served may give a parked observe
     * its tuple, an observe served may make room for a parked move. Lock held.
     */
    private void serveParked() {
        boolean served;
        do { // each round that serves takes at least one call out of a line: it ends
            served = serveParkedMoves() | serveParkedObserves();
        } while (served && (!parked.isEmpty() || !parkedMoves.isEmpty()));
    }

    /** Lets parked moves in, oldest first, while flow control admits them; true when any left the line. Lock held. */
    private boolean serveParkedMoves() {
        boolean served = false;
        for (ParkedMove p; (p = parkedMoves.peek()) != null; ) {
            RuntimeException unusable = unusableError();
            Outcome o = null;
            RuntimeException error = unusable;
            if (error == null) {
                try {
                    o = tryMove(p.tuple(), null, p.caller(), p.remote(), clock.getAsLong() - p.sinceNs());
                } catch (RuntimeException e) {
                    error = e;
                }
            }
            if (o == null && error == null) {
                return served; // no room: the ones behind wait too
            }
            parkedMoves.poll();
            served = true;
            ParkedMove m = p;
            if (error != null) {
                RuntimeException failure = error;
                completions.add(() -> m.failed().accept(failure));
            } else {
                Outcome ready = o;
                completions.add(() -> m.ready().accept(ready));
            }
        }
        return served;
    }

    /**
     * Gives parked observes what there is for them now, oldest first, or the error that broke the element; true when
     * any left the line. Lock held. Every change calls it before unlocking, so with standard semantics a parked
     * observe never waits while there is an unobserved tuple; a redefinition may answer each caller differently, so
     * each is asked.
     */
    private boolean serveParkedObserves() {
        boolean served = false;
        for (var it = parked.iterator(); it.hasNext(); ) {
            Parked p = it.next();
            RuntimeException unusable = unusableError();
            if (unusable != null) {
                it.remove();
                served = true;
                completions.add(() -> p.failed().accept(unusable));
                continue;
            }
            Outcome o;
            try {
                o = tryObserve(p.caller(), true, clock.getAsLong() - p.sinceNs());
            } catch (RuntimeException e) {
                it.remove();
                served = true;
                completions.add(() -> p.failed().accept(e));
                continue;
            }
            if (o != null) {
                it.remove();
                served = true;
                completions.add(() -> p.ready().accept(o));
            } else if (redefinition == null) {
                return served; // standard semantics: no tuple for this one, none for those behind it
            }
        }
        return served;
    }

    /** Sends the replies of moves and observes readied under the lock. Called after letting go of it. */
    private void runCompletions() {
        Runnable r;
        while ((r = completions.poll()) != null) {
            r.run();
        }
    }

    private void checkUsable() {
        RuntimeException e = unusableError();
        if (e != null) {
            throw e;
        }
    }

    /** Why the element cannot be used now, or null. Lock held. */
    private RuntimeException unusableError() {
        if (broken == null) {
            return null;
        }
        if (brokenByNode >= 0) {
            return new NodeFailedException(brokenByNode, "element " + name + " cannot be used: " + broken);
        }
        return new CumulusException("element " + name + " is broken: " + broken
            + "; redefine it (e.g. with Semantics.standard()) to use it again", brokenCause);
    }

    private void breakWith(String why, Throwable cause) {
        broken = why;
        brokenCause = cause;
        redefinition = null;
        wake();
    }

    private interface RedefinedCall {
        long run();
    }

    private long runRedefined(String op, RedefinedCall call) {
        try {
            return call.run();
        } catch (Throwable e) {
            if (e instanceof VirtualMachineError vme && !(e instanceof StackOverflowError)) {
                throw vme;
            }
            breakWith("its semantics " + semantics.className() + " threw " + e + " in " + op, e);
            checkUsable();
            throw new AssertionError("unreachable");
        }
    }

    /** The element as a redefinition sees it. Called only by the redefinition, under the lock. */
    private final class Context implements Semantics.Context {
        @Override
        public Template template() {
            return template;
        }

        @Override
        public long append(Object... fields) {
            log.add(codec.store(fields, "a tuple appended to " + name + " by " + semantics.className()));
            signal(); // parked observes are served once the redefinition's own call has returned
            return next++;
        }

        @Override
        public Tuple tuple(long index) {
            if (index < oldest || index >= next) {
                throw new CumulusException("element " + name + " keeps tuples " + oldest + ".." + (next - 1)
                    + ", not " + index);
            }
            return Tuple.of(index, codec.fields(log.get((int) (index - oldest)), name));
        }

        @Override
        public long oldest() {
            return oldest;
        }

        @Override
        public long first() {
            return first;
        }

        @Override
        public void first(long index) {
            if (index < oldest || index > next) {
                throw new CumulusException("First of element " + name + " must be in " + oldest + ".." + next
                    + ", not " + index);
            }
            first = index;
        }

        @Override
        public long last() {
            return next - 1;
        }
    }

    @Override
    public String toString() {
        return "Element[" + id + "]";
    }
}
