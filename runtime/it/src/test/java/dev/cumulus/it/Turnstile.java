package dev.cumulus.it;

import dev.cumulus.Cloud;

/** A gate a write waits at until another write opens it; counts the writes that arrived (review test). */
public class Turnstile implements Cloud.Root {
    private int arrived;
    private boolean open;

    /** Arrives, waits until the gate is open, closes it behind itself. */
    public synchronized int pass() throws InterruptedException {
        arrived++;
        while (!open) {
            wait();
        }
        open = false;
        return arrived;
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
