package dev.cumulus.it;

import dev.cumulus.Cloud;

/** A write that notifies without holding its monitor (review test): IllegalMonitorStateException, unless the applying thread holds it. */
public class Poker implements Cloud.Root {
    private int pokes;

    public void poke() {
        notifyAll();
        pokes++;
    }

    public synchronized int pokes() {
        return pokes;
    }
}
