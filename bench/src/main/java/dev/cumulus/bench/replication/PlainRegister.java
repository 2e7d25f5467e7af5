package dev.cumulus.bench.replication;

/** {@link Register} without {@code Cloud.Root}: Manta's "sequential" variant, a class the agent does not weave. */
public class PlainRegister {
    private volatile long value;

    public synchronized void set(long v) {
        value = v;
    }

    public synchronized long get() {
        return value;
    }
}
