package dev.cumulus.it;

import dev.cumulus.Cloud;

/** A cloud whose write fails with a machine-specific fatal error on one replica only (node 1). */
public class Fragile implements Cloud.Root {
    private int writes;
    private boolean onNodeOne;

    public synchronized void markNodeOne() {
        // never called through the broadcast: set locally before the cloud is used (see the test)
        onNodeOne = true;
    }

    public synchronized void write() {
        writes++;
        if (onNodeOne) {
            throw new OutOfMemoryError("simulated: this replica ran out of memory");
        }
    }

    public int writes() {
        return writes;
    }
}
