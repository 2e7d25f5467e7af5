package dev.cumulus.it;

import dev.cumulus.Cloud;

/**
 * A root whose {@link #peek()} looks like a read to the load-time analysis (it calls {@link Probe#look()}, a read in
 * {@link Probe}), but at run time the probe is a {@link CountingProbe}, whose override writes: the runtime must
 * restart {@code peek} as a replicated write (Manta §3.1).
 */
public class Gauge implements Cloud.Root {
    private Probe probe = new Probe();
    private int level;

    public synchronized void install(boolean counting) {
        probe = Probes.make(counting);
    }

    public synchronized void raise() {
        level++;
    }

    public int peek() {
        return probe.look() + level * 1000;
    }

    public int looks() {
        return probe.count();
    }
}
