package dev.cumulus.internal.launch;

import dev.cumulus.Cluster;
import dev.cumulus.internal.capability.ClusterConnector;
import dev.cumulus.internal.capability.LaunchedJoin;

/**
 * {@code Cluster.join()} in a process a launcher started: under {@code cumulus run --attach NAME} ({@link
 * LaunchConfig#ATTACH}) a client of that standing cluster, else this process's node ({@link NodeRuntime}). Registered
 * in {@code META-INF/services}.
 */
public final class LaunchedJoins implements LaunchedJoin {
    @Override
    public Cluster join() {
        String attach = System.getProperty(LaunchConfig.ATTACH);
        return attach != null ? ClusterConnector.find().connect(attach) : NodeRuntime.joinFromLaunch();
    }
}
