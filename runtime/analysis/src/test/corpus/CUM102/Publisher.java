package corpus.cum102;

import dev.cumulus.Cloud;
import dev.cumulus.Cluster;

interface TallyApi {
    void hit();
}

class Tally implements Cloud.Root, TallyApi {
    private int hits;

    @Override
    public void hit() { // classify: write
        hits++;
    }
}

/** Violating: a cloud object published with export, a cloud class created with remoteNew. */
public class Publisher {
    static void publish(Cluster cluster) {
        cluster.export(new Tally(), TallyApi.class, "tally"); // expect: CUM102
        Tally local = new Tally();
        TallyApi api = cluster.export(local, TallyApi.class, "tally-local"); // expect: CUM102
        cluster.remoteNew(Tally.class, TallyApi.class, "tally-2"); // expect: CUM102
        api.hit();
    }
}
