package dev.cumulus.internal.singlevm;

/**
 * Cluster-wide ids of shared objects: the home node in the top 16 bits, a sequence number the home hands out in the
 * low 48. {@code 0} is {@code null}; a reference slot holds an id.
 */
final class ObjectIds {
    static final long NULL = 0;
    private static final int SEQUENCE_BITS = 48;
    static final long MAX_SEQUENCE = (1L << SEQUENCE_BITS) - 1;

    private ObjectIds() {
    }

    static long of(int home, long sequence) {
        if (sequence < 1 || sequence > MAX_SEQUENCE) {
            throw new IllegalArgumentException("sequence " + sequence + " out of 1.." + MAX_SEQUENCE);
        }
        return ((long) home << SEQUENCE_BITS) | sequence;
    }

    static int home(long id) {
        return (int) (id >>> SEQUENCE_BITS);
    }

    static String describe(long id) {
        return "#" + (id & MAX_SEQUENCE) + "@node" + home(id);
    }
}
