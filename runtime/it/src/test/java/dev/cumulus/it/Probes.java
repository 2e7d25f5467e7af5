package dev.cumulus.it;

/**
 * Makes probes outside the cloud classes, so the load-time analysis of {@link Gauge} (which treats other classes as
 * side-effect free) does not see that {@link CountingProbe} exists.
 */
final class Probes {
    private Probes() {
    }

    static Probe make(boolean counting) {
        return counting ? new CountingProbe() : new Probe();
    }
}
