package dev.cumulus.internal.service;

import dev.cumulus.Cluster;
import dev.cumulus.internal.capability.ClusterConnector;

/** {@code Cluster.connect} and {@code cumulus run --attach} through this module: a {@link ClientCluster}. */
public final class StandingConnector implements ClusterConnector {
    @Override
    public Cluster connect(String name) {
        return ClientCluster.connect(name);
    }
}
