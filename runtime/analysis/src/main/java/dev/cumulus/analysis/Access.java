package dev.cumulus.analysis;

/** The read/write classification of a cloud method (Manta §3.1). */
public enum Access {
    /** Runs on the local replica without communication. */
    READ,
    /** Shipped to every replica through the totally ordered broadcast. */
    WRITE
}
