package dev.cumulus.internal.codec;

import java.util.Objects;

/**
 * A by-reference value on the wire: the object lives on node {@code nodeId} under {@code objectId} and is seen through
 * the interface {@code interfaceName}. Produced and consumed by a {@link ReferenceHandler}.
 *
 * @param nodeId        the node that owns the object
 * @param objectId      the object's id in its owner's export table
 * @param interfaceName binary name of the remote interface the receiver should proxy
 */
public record RemoteRef(int nodeId, long objectId, String interfaceName) {
    public RemoteRef {
        Objects.requireNonNull(interfaceName, "interfaceName");
    }
}
