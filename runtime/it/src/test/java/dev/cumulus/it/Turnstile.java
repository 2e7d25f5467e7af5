package dev.cumulus.it;

import dev.cumulus.Cloud;

/** A gate a write waits at until another write opens it; counts the writes that arrived (review tests). */
public class Turnstile implements Cloud.Root {
    private int arrived;
    private boolean open;
    private long spun;

    /** Arrives, waits until the gate is open, closes it behind itself. */
    public synchronized int pass() throws InterruptedException {
        arrived++;
        while (!open) {
            wait();
        }
        open = false;
        return arrived;
    }

    /**
     * Like {@link #pass()}, but once the gate is open it works for {@code work} steps with the monitor released before
     * it closes the gate again: the time between a notify and the end of the write it woke.
     */
    public void passThenWork(long work) throws InterruptedException {
        synchronized (this) {
            arrived++;
            while (!open) {
                wait();
            }
        }
        long x = 0;
        for (long i = 0; i < work; i++) {
            x = x * 31 + i;
        }
        synchronized (this) {
            open = false;
            spun = x;
        }
    }

    public synchronized void open() {
        open = true;
        notifyAll();
    }

    public synchronized int arrived() {
        return arrived;
    }

    public synchronized boolean isOpen() {
        return open;
    }
}
