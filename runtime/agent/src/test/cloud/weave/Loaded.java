package weave;

import dev.cumulus.Cloud;

/** A class first loaded by an instanceof inside a read of {@link Holder}. */
public class Loaded implements Cloud.Node {
    public int n = 7;
}
