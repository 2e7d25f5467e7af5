package dev.cumulus.internal.singlevm;

/**
 * Cluster-wide ids of shared objects: the home node in the top 16 bits, a sequence number in the low 48. {@code 0} is
 * {@code null}; a reference slot holds an id. The home hands out the sequence numbers below {@code 2^47}; an object a
 * node publishes to another home (docs/design/SINGLEVM.md, "Homed where first published") gets its id from the
 * publishing node without asking the home: bit 47 set, the publishing node in bits 32 to 46, that node's own counter
 * in the low 32.
 */
final class ObjectIds {
    static final long NULL = 0;
    private static final int SEQUENCE_BITS = 48;
    static final long MAX_SEQUENCE = (1L << SEQUENCE_BITS) - 1;
    private static final long NAMED = 1L << (SEQUENCE_BITS - 1);

    private ObjectIds() {
    }

    static long of(int home, long sequence) {
        if (sequence < 1 || sequence > MAX_SEQUENCE) {
            throw new IllegalArgumentException("sequence " + sequence + " out of 1.." + MAX_SEQUENCE);
        }
        return ((long) home << SEQUENCE_BITS) | sequence;
    }

    /** The id of the {@code count}th object node {@code namer} publishes to {@code home}'s keeping. */
    static long named(int home, int namer, long count) {
        if (namer < 0 || namer >= 1 << 15 || count < 1 || count > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("node " + namer + " cannot name its published object number " + count
                + " (at most 2^32 - 1 per node, nodes below 2^15)");
        }
        return of(home, NAMED | ((long) namer << 32) | count);
    }

    /** Whether {@code id} was named by a node other than its home (an object homed where it was first published). */
    static boolean namedElsewhere(long id) {
        return (id & NAMED) != 0;
    }

    static int home(long id) {
        return (int) (id >>> SEQUENCE_BITS);
    }

    static String describe(long id) {
        return "#" + (id & MAX_SEQUENCE) + "@node" + home(id);
    }
}
