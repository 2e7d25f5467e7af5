package dev.cumulus.it;

import dev.cumulus.Cloud;

/** Manta Figure 3: a one-slot bounded buffer with wait/notifyAll. */
public class Bin implements Cloud.Root {
    private boolean filled = false;
    private int value;

    public synchronized int get() throws InterruptedException {
        while (!filled) {
            wait();
        }
        filled = false;
        notifyAll();
        return value;
    }

    public synchronized void put(int i) throws InterruptedException {
        while (filled) {
            wait();
        }
        value = i;
        filled = true;
        notifyAll();
    }
}
