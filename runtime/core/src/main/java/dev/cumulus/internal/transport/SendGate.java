package dev.cumulus.internal.transport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps a transport's close from unmapping Aeron's buffers under a thread that is offering a message: a sender
 * {@link #enter}s before it touches a publication and {@link #exit}s after; {@link #close} shuts the gate and waits
 * until every sender inside has left. Without it a thread still sending as the node leaves (a call thread the close
 * interrupted, sending its error answer) writes into unmapped memory and the JVM dies of a SIGSEGV.
 *
 * <p>The sender counts itself in, then reads the closed flag; the closer sets the flag, then reads the count (all
 * volatile): either the sender sees the gate shut and stays out, or the closer sees it inside and waits for it.
 */
final class SendGate {
    /** How long a close waits for the senders inside at most (a sender gives up within one retry once shut). */
    static final long CLOSE_WAIT_NS = TimeUnit.SECONDS.toNanos(5);
    private static final long WAIT_STEP_NS = TimeUnit.MICROSECONDS.toNanos(50);
    private final AtomicInteger inside = new AtomicInteger();
    private volatile boolean shut;

    /** Counts the current thread in; false (and not counted) once the gate is shut. Pair a true with {@link #exit}. */
    boolean enter() {
        inside.getAndIncrement();
        if (shut) {
            inside.getAndDecrement();
            return false;
        }
        return true;
    }

    void exit() {
        inside.getAndDecrement();
    }

    /** Whether the gate is shut: a sender inside that waits (back-pressure) gives up. */
    boolean shut() {
        return shut;
    }

    /** Senders inside right now. */
    int inside() {
        return inside.get();
    }

    /** Shuts the gate without waiting: a sender inside that waits (back-pressure, a peer not connected) gives up. */
    void shutNow() {
        shut = true;
    }

    /**
     * Shuts the gate and waits until no sender is inside, or {@link #CLOSE_WAIT_NS} passed; returns whether none is.
     */
    boolean close() {
        shut = true;
        long deadline = System.nanoTime() + CLOSE_WAIT_NS;
        while (inside.get() != 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(WAIT_STEP_NS);
        }
        return true;
    }
}
