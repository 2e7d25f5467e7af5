package corpus.cum103;

import dev.cumulus.Cloud;

/** Conforming: the cloud keeps values, not remote references. */
public class NoRemote implements Cloud.Root {
    private int audited;

    public void record(int amount) { // classify: write
        audited += amount;
    }

    public int audited() { // classify: read
        return audited;
    }
}
