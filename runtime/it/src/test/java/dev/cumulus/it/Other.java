package dev.cumulus.it;

import dev.cumulus.Cloud;

/** A different root class, to clash with {@link Minimum} under one name. */
public class Other implements Cloud.Root {
    private int x;

    public synchronized void set(int v) {
        x = v;
    }

    public int get() {
        return x;
    }
}
