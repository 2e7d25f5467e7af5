package dev.cumulus.internal.rpc;

import dev.cumulus.internal.codec.RemoteRef;
import java.util.List;

/**
 * The cluster's name service, split over the nodes: a name lives on node {@code floorMod(name.hashCode(), size)}.
 * Every node exports its part as a system object at start.
 */
public interface NameDirectory {
    long OBJECT_ID = 1;

    /**
     * Binds {@code name}; returns {@code null} on success, or the reference that already holds the name. {@code rule}
     * says which clients of a standing cluster may look it up (null: the cluster's own object, every client may); the
     * owner of a name a client binds is that client, whatever the rule says.
     */
    RemoteRef bind(String name, RemoteRef ref, AccessRule rule);

    /**
     * The object bound to {@code name} (if {@code ref}'s object still is) migrated for the {@code moves}th time: it
     * lives where {@code ref} says, unless a later move was told already (updates may arrive out of order).
     */
    void moved(String name, RemoteRef ref, int moves);

    /**
     * Waits up to {@code waitMs} for {@code name} to be bound; returns its reference or {@code null}.
     *
     * @throws dev.cumulus.AccessDeniedException when a client calls and the name's owner granted it no access
     */
    RemoteRef resolve(String name, long waitMs) throws InterruptedException;

    /** Unbinds {@code name} if it is bound to the object {@code objectId} (a client: only a name it owns). */
    void unbind(String name, long objectId);

    /** Names bound here that the caller may look up (for error messages), at most {@code limit}. */
    List<String> names(int limit);
}
