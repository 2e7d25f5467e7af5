package dev.cumulus.internal.cloud;

import dev.cumulus.CumulusException;
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

    /**
     * Cloud classes must be woven before they are loaded (a refused class can then be made unusable), and the body of
     * an in-process cluster loads them: the agent is attached first when it is on the class path. Without it, clouds
     * report what to do when first used.
     */
    @Override
    public void beforeInProcessCluster() {
        try {
            AgentLoader.ensureInstalled();
        } catch (CumulusException e) {
            // no agent on the class path: only replicated objects need it, and they say so
        }
    }
}
