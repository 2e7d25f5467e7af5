package weave;

import dev.cumulus.Cloud;

/** A root whose field other classes of its package can reach (Peeker does; CUM106 is reported there). */
public class Tally implements Cloud.Root {
    int count;

    public void add(int n) {
        count += n;
    }

    public int count() {
        return count;
    }
}
