package dev.cumulus.internal.rpc;

import dev.cumulus.internal.codec.RemoteRef;

/** Creates objects on a node for {@code cluster.remoteNew}; every node exports it as a system object. */
interface RemoteFactory {
    long OBJECT_ID = 2;

    /** Instantiates {@code implClass} (no-argument constructor), exports it under {@code name}, returns its reference. */
    RemoteRef create(String implClass, String ifaceName, String name);
}
