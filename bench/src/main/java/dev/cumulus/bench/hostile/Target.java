package dev.cumulus.bench.hostile;

import java.util.Collection;

/**
 * What node 0 exports: methods whose parameters take general values (any collection, any object), so every hostile
 * value below reaches the decoder, plus a plain call and the node's counters.
 */
public interface Target {
    /** Index of {@link #figures}: bytes of heap used after a GC (when asked to collect), else before it. */
    int HEAP_USED = 0;
    /** Index of {@link #figures}: chunked messages the transport dropped (a bound broken, expired). */
    int DROPPED_CHUNKED = 1;
    /** Index of {@link #figures}: UDP frames whose seal did not open (dropped undecoded). */
    int REJECTED_FRAMES = 2;
    /** Index of {@link #figures}: frames whose handling threw (dropped and counted). */
    int FAILED_FRAMES = 3;
    /** Index of {@link #figures}: Aeron setup frames this JVM's driver dropped for their term length. */
    int DROPPED_SETUPS = 4;

    int count(Collection<Object> values);

    int countColliders(Collection<Collider> values);

    int take(Object value);

    long echo(long value);

    /** This node's counters, indexed by the constants above; with {@code collect}, after a full GC. */
    long[] figures(boolean collect);

    /** Every instance has the same hash code: a set of many of them is a hash-flooding attack. */
    record Collider(int id) {
        @Override
        public int hashCode() {
            return 42;
        }
    }
}
