package dev.cumulus.it;

import dev.cumulus.Cloud;

/** See {@link Gauge}. */
public class Probe implements Cloud.Node {
    int looks;

    public int look() {
        return 0;
    }

    public int count() {
        return looks;
    }
}
