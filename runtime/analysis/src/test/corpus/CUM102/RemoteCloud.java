package corpus.cum102;

import dev.cumulus.Cloud;
import java.rmi.Remote;

/** Violating: a cloud class may not also be a remote object. */
public class RemoteCloud implements Cloud.Root, Remote { // expect: CUM102
    private int hits;

    public void hit() { // classify: write
        hits++;
    }
}
