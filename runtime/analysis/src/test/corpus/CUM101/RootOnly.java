package corpus.cum101;

import dev.cumulus.Cloud;

/** Conforming: one marker per class. */
public class RootOnly implements Cloud.Root {
    private int value;

    public void set(int v) { // classify: write
        value = v;
    }

    public int get() { // classify: read
        return value;
    }
}
