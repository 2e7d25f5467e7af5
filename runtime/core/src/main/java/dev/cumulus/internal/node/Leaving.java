package dev.cumulus.internal.node;

/**
 * How a node leaves the cluster, as its goodbye tells its peers: what they say when a barrier or call cannot complete
 * without it.
 */
enum Leaving {
    /** Its program called {@code close()} (after the closing barrier). */
    CLOSED((byte) 1, "it called close()"),
    /** Its program ended (its {@code main} returned) without {@code close()}. */
    ENDED((byte) 2, "its program ended without close()"),
    /** Its process is exiting while its {@code main} still runs: {@code System.exit} or a signal. */
    EXITING((byte) 3, "its process is exiting while its program runs (System.exit or a signal)");

    private final byte code;
    private final String reason;

    Leaving(byte code, String reason) {
        this.code = code;
        this.reason = reason;
    }

    /** The wire code ({@link ControlFlyweight#leaving()}). */
    byte code() {
        return code;
    }

    /** Why the node left, for messages: "it called close()". */
    String reason() {
        return reason;
    }

    /** The way of leaving of wire code {@code code}, or {@code null} for an unknown one. */
    static Leaving of(byte code) {
        for (Leaving l : values()) {
            if (l.code == code) {
                return l;
            }
        }
        return null;
    }
}
