package {{package}};

import dev.cumulus.Cloud;

/**
 * The shared bound of the search, replicated on every node (Manta §4.1). {@link #get()} is a read method: it runs on
 * the local replica, with no communication. {@link #set(int)} assigns a field, so it is a write method: every call
 * is broadcast in one total order and runs on every replica. The language server shows R/W next to each method.
 */
public class Minimum implements Cloud.Root {
    private int min = Integer.MAX_VALUE;

    /** Lowers the bound if {@code m} is smaller (write: broadcast to every node). */
    public synchronized void set(int m) {
        if (m < min) {
            min = m;
        }
    }

    /** The best tour length any node has found so far (read: local). */
    public int get() {
        return min;
    }
}
