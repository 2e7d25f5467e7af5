package dev.cumulus.cli.standing.mains;

/** A remote object whose calls wait until it is opened (for the standing-cluster tests of calls in flight). */
public interface Valve {
    /** Waits until {@link #open()} was called. */
    void waitOpen() throws InterruptedException;

    /** Lets every waiting and later {@link #waitOpen()} return. */
    void open();

    /** How many calls wait in {@link #waitOpen()} now. */
    int waiting();
}
