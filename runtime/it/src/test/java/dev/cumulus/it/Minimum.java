package dev.cumulus.it;

import dev.cumulus.Cloud;

/** Manta §4.1's shared minimum. */
public class Minimum implements Cloud.Root {
    private int min = Integer.MAX_VALUE;

    public synchronized void set(int m) {
        if (m < min) {
            min = m;
        }
    }

    public int get() {
        return min;
    }
}
