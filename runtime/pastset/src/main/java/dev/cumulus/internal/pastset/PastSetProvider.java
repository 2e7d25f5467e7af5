package dev.cumulus.internal.pastset;

import dev.cumulus.internal.node.NodeServices;

/**
 * Registers the tuple space with every node whose class path holds this module (listed in
 * {@code META-INF/services/dev.cumulus.internal.node.NodeServices$Provider}).
 */
public final class PastSetProvider implements NodeServices.Provider {
    @Override
    public Object create(NodeServices node) {
        return new PastSetRuntime(node);
    }
}
