package dev.cumulus.internal.cloud;

import dev.cumulus.internal.node.NodeServices;

/**
 * Registers the replicated objects with every node whose class path holds this module (listed in
 * {@code META-INF/services/dev.cumulus.internal.node.NodeServices$Provider}).
 */
public final class CloudsProvider implements NodeServices.Provider {
    @Override
    public Object create(NodeServices node) {
        return new CloudRuntime(node);
    }
}
