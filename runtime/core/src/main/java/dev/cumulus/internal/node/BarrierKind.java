package dev.cumulus.internal.node;

/**
 * Which call entered a global barrier. A barrier entry carries it with its count, so the coordinator never pairs
 * {@code close()}'s implicit barrier with a program's {@code barrier()}: a node whose program ended early (an exception
 * inside {@code try (Cluster c = Cluster.join())}) does not release its peers from a barrier it never reached.
 */
enum BarrierKind {
    /** {@code Cluster.barrier()}. */
    BARRIER((byte) 1, "barrier()"),
    /** The barrier {@code Cluster.close()} passes before the node leaves. */
    CLOSE((byte) 2, "close()'s barrier");

    private final byte code;
    private final String label;

    BarrierKind(byte code, String label) {
        this.code = code;
        this.label = label;
    }

    /** The wire code ({@link ControlFlyweight#barrierKind()}). */
    byte code() {
        return code;
    }

    /** How messages name it: {@code barrier()}, {@code close()'s barrier}. */
    String label() {
        return label;
    }

    /** The kind of wire code {@code code}, or {@code null} for an unknown one. */
    static BarrierKind of(byte code) {
        for (BarrierKind k : values()) {
            if (k.code == code) {
                return k;
            }
        }
        return null;
    }
}
