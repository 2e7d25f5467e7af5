package dev.cumulus.internal.node;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A node's doorbell for {@link DutyCycle} tests: a sleep parks its thread (for the timeout asked, or for a fixed time
 * far longer than a node's 1 ms, so a message left for the sleep's end shows), {@link #ring} unparks it, and it records
 * its sleeps.
 */
final class FakeBell implements Doorbell {
    /** Sleeps of 5 s: a test sees a message that waited for the sleep's end. */
    static final long LONG_SLEEP_NS = TimeUnit.SECONDS.toNanos(5);

    private final long sleepNs;
    final AtomicInteger sleeps = new AtomicInteger();
    volatile Thread sleeper;
    volatile boolean asleep;
    volatile long lastSleepAt;
    volatile long wokeAt;

    /** @param sleepNs how long a sleep parks, 0 for the timeout the node asks for */
    FakeBell(long sleepNs) {
        this.sleepNs = sleepNs;
    }

    /** A bell whose sleeps last {@link #LONG_SLEEP_NS} unless rung. */
    static FakeBell longSleeps() {
        return new FakeBell(LONG_SLEEP_NS);
    }

    @Override
    public void announceSleep(boolean nap) {
    }

    @Override
    public boolean keep() {
        return false; // no bell state here: a caller hands back as before
    }

    @Override
    public boolean kept() {
        return false;
    }

    @Override
    public void napKept(long timeoutNs) {
        sleep(true, timeoutNs);
    }

    @Override
    public void sleep(boolean nap, long timeoutNs) {
        sleeper = Thread.currentThread();
        lastSleepAt = System.nanoTime();
        sleeps.incrementAndGet();
        asleep = true;
        LockSupport.parkNanos(sleepNs > 0 ? sleepNs : timeoutNs);
        asleep = false;
        wokeAt = System.nanoTime();
    }

    /** What a sender's ring does to a sleeping main thread. */
    void ring() {
        Thread t = sleeper;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void awake() {
    }

    @Override
    public void takeOver() {
    }

    @Override
    public void wake() {
        ring();
    }

    @Override
    public void waiting(int cpu) {
    }

    @Override
    public void notWaiting(int cpu) {
    }

    @Override
    public boolean waiterOn(int cpu) {
        return false;
    }
}
