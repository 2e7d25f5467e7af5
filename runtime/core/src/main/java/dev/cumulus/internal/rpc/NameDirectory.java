package dev.cumulus.internal.rpc;

import dev.cumulus.internal.codec.RemoteRef;
import java.util.List;

/**
 * The cluster's name service, split over the nodes: a name lives on node {@code floorMod(name.hashCode(), size)}.
 * Every node exports its part as a system object at start.
 */
interface NameDirectory {
    long OBJECT_ID = 1;

    /** Binds {@code name}; returns {@code null} on success, or the reference that already holds the name. */
    RemoteRef bind(String name, RemoteRef ref);

    /**
     * The object bound to {@code name} (if {@code ref}'s object still is) migrated for the {@code moves}th time: it
     * lives where {@code ref} says, unless a later move was told already (updates may arrive out of order).
     */
    void moved(String name, RemoteRef ref, int moves);

    /** Waits up to {@code waitMs} for {@code name} to be bound; returns its reference or {@code null}. */
    RemoteRef resolve(String name, long waitMs) throws InterruptedException;

    /** Unbinds {@code name} if it is bound to the object {@code objectId} (its owner is gone). */
    void unbind(String name, long objectId);

    /** Names bound here (for error messages), at most {@code limit}. */
    List<String> names(int limit);
}
