package dev.cumulus.internal.transport;

/** The two logical channels between nodes; each is its own Aeron stream, so bulk data never delays heartbeats. */
public enum Channel {
    /** Membership, heartbeats, barriers: small messages. */
    CONTROL,
    /** Remote calls, replies and everything bulky. */
    DATA
}
