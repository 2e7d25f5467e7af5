package corpus.classify;

import dev.cumulus.Cloud;

/** Manta Figure 4: set is a write (even though the assignment is conditional), get is a read. */
public class Minimum implements Cloud.Root {
    private int minimum = Integer.MAX_VALUE;

    public void set(int minimum) { // classify: write
        if (minimum < this.minimum) {
            this.minimum = minimum;
        }
    }

    public int get() { // classify: read
        return minimum;
    }
}
