package dev.cumulus.internal.rpc;

import dev.cumulus.internal.codec.RemoteRef;

/** Creates objects on a node for {@code cluster.remoteNew}; every node exports it as a system object. */
public interface RemoteFactory {
    long OBJECT_ID = 2;

    /**
     * Instantiates {@code implClass} (no-argument constructor), exports it under {@code name}, returns its reference.
     * Made for a client of a standing cluster, the object belongs to that client and others reach it as {@code rule}
     * grants (null: the owner only); made for a node, it is the cluster's own and {@code rule} is ignored.
     */
    RemoteRef create(String implClass, String ifaceName, String name, AccessRule rule);
}
