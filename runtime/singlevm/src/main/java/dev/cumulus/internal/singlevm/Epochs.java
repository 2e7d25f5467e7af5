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
 * <p>Each thread also remembers the epoch its own last acquire started: a copy below the node's threshold but filled
 * in or after that epoch was fetched after the thread's last acquire, so the thread may still read it (the slow path
 * of the woven check asks {@link #validHere} before it fetches). So one thread's acquire does not make the node's
 * other threads fetch again what they may still read; the Java memory model asks every thread for values no older
 * than its own acquires, not its neighbours'. A thread that never acquired here counts from the epoch current when it
 * first looks (after whatever started it). One epoch serves every node space of the JVM (several only in in-process
 * tests), so one space's acquire also invalidates the others' copies: more than needed, never less.
 */
final class Epochs {
    /** The state of a copy that was never filled (its finals are not there yet either). */
    static final int NEVER_FILLED = Integer.MIN_VALUE;
    /** The state of a copy with nothing to fetch (a plain {@code new Object()}: identity and monitor only). */
    static final int ALWAYS_VALID = Integer.MAX_VALUE;

    private static volatile int current = 1;
    /** Per thread: the epoch its last acquire started (one-element array, so updates do not box). */
    private static final ThreadLocal<int[]> OWN = ThreadLocal.withInitial(() -> new int[] {current});

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

    /**
     * Whether the calling thread may read a copy in {@code state} without a fetch: filled in the node's current epoch
     * (as this thread sees the threshold), or at least in the epoch of this thread's own last acquire.
     */
    static boolean validHere(int state) {
        return state >= SingleVmHooks.validFrom || state >= filledIn(OWN.get()[0]);
    }

    /**
     * The calling thread acquired: starts a new epoch, which becomes the thread's own; every copy filled before is
     * stale for it. It sees the new threshold in its next read; the node's other threads may go on reading what was
     * filled since their own last acquire.
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
        OWN.get()[0] = next;
    }
}
