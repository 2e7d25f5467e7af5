package dev.cumulus.cli.standing.mains;

/** A remote object's interface for the standing-cluster tests. */
public interface Tally {
    int add(int n);

    /** The process the object lives in. */
    long pid();
}
