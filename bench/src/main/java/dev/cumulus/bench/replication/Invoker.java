package dev.cumulus.bench.replication;

/**
 * The remote object on the invoking process (Manta §3.5: "an RMI call on a special object on the invoking process";
 * the method invokes the replicated write and returns). {@link #ping} is the plain RPC round trip.
 */
public interface Invoker {
    /** Invokes {@code Register.set(v)} on the invoking process's replica and returns when it returned there. */
    void write(long v);

    /** Returns its argument. */
    long ping(long v);
}
