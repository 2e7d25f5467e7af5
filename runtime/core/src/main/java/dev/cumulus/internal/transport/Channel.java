package dev.cumulus.internal.transport;

/** The logical channels between nodes; each is its own Aeron stream, so bulk data never delays heartbeats. */
public enum Channel {
    /** Membership, heartbeats, barriers: small messages. */
    CONTROL,
    /** Remote calls, replies and everything bulky. */
    DATA,
    /** The totally ordered broadcast: sequencer token, requests, stamped messages. */
    ORDER
}
