package dev.cumulus.it;

import dev.cumulus.Cloud;

/**
 * A gate whose pass, once opened, goes on working with the monitor released before it closes the gate again (review
 * test): the time between a notify and the end of the write it woke.
 */
public class SlowGate implements Cloud.Root {
    private int arrived;
    private boolean open;
    private long spun;

    /** Arrives, waits until the gate is open, works for {@code work} steps, closes the gate behind itself. */
    public void pass(long work) throws InterruptedException {
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
