package dev.cumulus.internal.singlevm;

/**
 * The cache epoch of this JVM's copies (docs/design/SINGLEVM.md, "Flush and invalidate over copies"): every acquire
 * starts a new epoch, and a copy's state ({@code $cumulus$state}, {@code $cumulus$statics}, an array's
 * {@link Copy#arrayState}) is {@link #NEVER_FILLED} plus the epoch in which the fetch that filled it was sent. A copy
 * is valid while its state is at least {@link SingleVmHooks#validFrom} ({@code NEVER_FILLED} plus the current epoch),
 * so an invalidation is one increment, not a walk over the copies, and the woven check of a read stays one compare.
 * A master's state is {@code 0}, above every threshold: its reads never fetch. A final field is read from any copy
 * that was ever filled.
 *
 * <p>The threshold is the node's, not each thread's: a thread that did not acquire may still have to read no older
 * values than a neighbour's acquire allows, since the two may be ordered by synchronization the runtime does not see —
 * a JDK executor's {@code submit}, a {@code BlockingQueue}, a JDK object's monitor inside JDK code — which hands the
 * neighbour's happens-before edges on within the node. One epoch serves every node space of the JVM (several only in
 * in-process tests), so one space's acquire also invalidates the others' copies: more than needed, never less.
 */
final class Epochs {
    /** The state of a copy that was never filled (its finals are not there yet either). */
    static final int NEVER_FILLED = Integer.MIN_VALUE;
    /** The state of a copy with nothing to fetch (a plain {@code new Object()}: identity and monitor only). */
    static final int ALWAYS_VALID = Integer.MAX_VALUE;

    private static volatile int current = 1;

    private Epochs() {
    }

    /** The current epoch (read before a fetch is sent: its copy is filled as of this epoch). */
    static int current() {
        return current;
    }

    /** The state of a copy filled by a fetch sent in {@code epoch}. */
    static int filledIn(int epoch) {
        return NEVER_FILLED + epoch;
    }

    /** Whether a copy in {@code state} may be read without a fetch: filled in the node's current epoch. */
    static boolean validHere(int state) {
        return state >= SingleVmHooks.validFrom;
    }

    /**
     * The calling thread acquired: starts a new epoch; every copy filled before is stale. The calling thread sees the
     * new threshold in its next read, and so does every thread its later actions happen before.
     */
    static void advance() {
        int next;
        synchronized (Epochs.class) {
            next = current + 1;
            if (next == ALWAYS_VALID - NEVER_FILLED) {
                throw new IllegalStateException("the single-VM cache ran out of epochs (2^31 acquires in one run)");
            }
            current = next;
            SingleVmHooks.validFrom = filledIn(next);
        }
    }
}
