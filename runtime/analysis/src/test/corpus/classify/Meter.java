package corpus.classify;

import dev.cumulus.Cloud;

/** A read in the base class reaches a write through an override in a subclass, so the call is a write. */
public class Meter implements Cloud.Root {
    private Probe probe = new Probe();

    public int reading() { // classify: write
        return probe.look();
    }

    public void install(boolean loud) { // classify: write
        probe = loud ? new CountingProbe() : new Probe();
    }

    public int plain() { // classify: read
        return probe.seen;
    }
}

class Probe implements Cloud.Node {
    int seen = 0;

    int look() { // classify: read
        return seen;
    }
}

class CountingProbe extends Probe {
    int looks = 0;

    @Override
    int look() { // classify: write
        looks++;
        return seen;
    }
}
