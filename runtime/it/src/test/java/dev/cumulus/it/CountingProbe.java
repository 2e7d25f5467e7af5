package dev.cumulus.it;

/** See {@link Gauge}: an override that writes. */
public class CountingProbe extends Probe {
    @Override
    public int look() {
        looks++;
        return looks;
    }
}
