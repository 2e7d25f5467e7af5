package dev.cumulus.internal.node;

import dev.cumulus.Cluster;
import dev.cumulus.internal.launch.LaunchConfig;

/** Starts a node from its launch configuration. (Work in progress.) */
public final class NodeRuntime {
    private NodeRuntime() {
    }

    public static Cluster joinFromLaunch() {
        LaunchConfig config = LaunchConfig.fromProperties(System.getProperties());
        throw new UnsupportedOperationException("not yet: " + config.runId());
    }
}
