package dev.cumulus;

/**
 * Marker interfaces for replicated objects ("clouds", Manta §2.1).
 *
 * <p>A class implementing {@link Root} is the entry point of a cloud: {@code cluster.replicated(name, Root::new)}
 * gives every node its own replica. Classes implementing {@link Node} are the objects a root owns. Read methods run
 * on the local replica; write methods are shipped through a totally ordered broadcast and run on every replica.
 * The rules a cloud class must follow are checked by {@code cumulus check} (rule ids CUM101–CUM120).
 */
public final class Cloud {
    private Cloud() {
    }

    /** The root object of a replicated cloud. */
    public interface Root {
    }

    /** An object owned by a cloud's root; it may refer to other objects of the same cloud only. */
    public interface Node {
    }
}
