package dev.cumulus.internal.sched;

/**
 * Work a polling thread runs after its poll that wants to hear whether its run there was slow (it may block, and
 * should then run on a thread of its own next time).
 */
public interface TimedCall extends Runnable {
    /** The run was quick. */
    void ranQuickly();

    /** The run was slow: it ended at {@code endNs} ({@code nanoTime}) and took at least {@code tookNs}. */
    void ranSlowly(long endNs, long tookNs);
}
