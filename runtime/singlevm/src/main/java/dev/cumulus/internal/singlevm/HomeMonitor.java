package dev.cumulus.internal.singlevm;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The cluster-wide monitor of one shared object, kept at the object's home: who holds it, who queues for it (FIFO)
 * and who waits in its wait set. A state machine with no I/O: each step returns whom to grant the monitor to, and
 * its caller sends the grants after leaving the monitor's lock. Recursion is counted on the holder's node, so the
 * home sees one enter and one exit per outermost {@code synchronized}.
 */
final class HomeMonitor {
    private final long id;
    private Waiter owner;
    private final ArrayDeque<Waiter> entries = new ArrayDeque<>();
    private final ArrayDeque<Waiter> waitSet = new ArrayDeque<>();

    HomeMonitor(long id) {
        this.id = id;
    }

    /** {@code w} asks for the monitor: true if it holds it now, else it queues. */
    synchronized boolean enter(Waiter w) {
        if (owner == null) {
            owner = w;
            return true;
        }
        if (owner.equals(w) || entries.contains(w)) {
            throw new IllegalStateException(w + " asked again for monitor " + ObjectIds.describe(id)
                + " which it " + (owner.equals(w) ? "holds" : "queues for") + " (recursion is counted on its node)");
        }
        entries.add(w);
        return false;
    }

    /** {@code w}, the holder, releases the monitor; returns the thread granted it next, or {@code null}. */
    synchronized Waiter exit(Waiter w) {
        checkOwner(w, "release");
        return handOver();
    }

    /** {@code w}, the holder, releases the monitor and waits in its wait set; returns the next holder or null. */
    synchronized Waiter await(Waiter w) {
        checkOwner(w, "wait on");
        waitSet.add(w);
        return handOver();
    }

    /**
     * Ends {@code w}'s wait early: if still in the wait set it moves to the entry queue (or takes the monitor if it is
     * free, then it is returned as the thread to grant). Returns {@code w} when it is granted now, else {@code null};
     * {@code wasWaiting[0]} tells whether it was still waiting.
     */
    synchronized Waiter cancelWait(Waiter w, boolean[] wasWaiting) {
        wasWaiting[0] = waitSet.remove(w);
        if (!wasWaiting[0]) {
            return null; // notified already: in the entry queue, or granted
        }
        if (owner == null) {
            owner = w;
            return w;
        }
        entries.add(w);
        return null;
    }

    /** {@code w}, the holder, moves the first waiter, or every waiter, to the entry queue. */
    synchronized void notifyWaiters(Waiter w, boolean all) {
        checkOwner(w, all ? "notifyAll on" : "notify on");
        do {
            Waiter next = waitSet.poll();
            if (next == null) {
                return;
            }
            entries.add(next);
        } while (all);
    }

    /** Who holds the monitor (or null), who queues to enter it and who waits in its wait set, at one instant. */
    record State(Waiter owner, List<Waiter> entries, List<Waiter> waitSet) {
    }

    synchronized State state() {
        return new State(owner, List.copyOf(entries), List.copyOf(waitSet));
    }

    private Waiter handOver() {
        owner = entries.poll();
        return owner;
    }

    private void checkOwner(Waiter w, String what) {
        if (!w.equals(owner)) {
            throw new IllegalMonitorStateException(w + " tried to " + what + " monitor " + ObjectIds.describe(id)
                + " held by " + (owner == null ? "nobody" : owner.toString()));
        }
    }
}
