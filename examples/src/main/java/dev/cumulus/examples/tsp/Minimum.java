package dev.cumulus.examples.tsp;

import dev.cumulus.Cloud;

/** Manta Figure 4: the replicated minimum. {@code set} is a write (broadcast), {@code get} a read (local). */
public class Minimum implements Cloud.Root {
    private int minimum = Integer.MAX_VALUE;

    public synchronized void set(int minimum) {
        if (minimum < this.minimum) {
            this.minimum = minimum;
        }
    }

    public int get() {
        return minimum;
    }
}
