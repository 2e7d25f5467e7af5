package dev.cumulus.internal.array;

import dev.cumulus.internal.node.NodeServices;

/**
 * Registers the shared arrays with every node whose class path holds this module (listed in
 * {@code META-INF/services/dev.cumulus.internal.node.NodeServices$Provider}).
 */
public final class ArraysProvider implements NodeServices.Provider {
    @Override
    public Object create(NodeServices node) {
        return new ArrayRuntime(node);
    }
}
