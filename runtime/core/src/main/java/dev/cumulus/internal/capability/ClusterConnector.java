package dev.cumulus.internal.capability;

import dev.cumulus.Cluster;

/**
 * How a program becomes a client of a standing cluster ({@code Cluster.connect}, {@code cumulus run --attach}):
 * module runtime/service, artifact {@value #ARTIFACT}, registers its implementation in {@code META-INF/services}.
 */
public interface ClusterConnector {
    /** The Maven coordinates of the module that provides this capability. */
    String ARTIFACT = "dev.cumulus:cumulus-service";

    /** {@code Cluster.connect(name)}. */
    Cluster connect(String name);

    /**
     * The connector of the module on the class path (the thread's context class loader's, else runtime/core's).
     *
     * @throws dev.cumulus.CumulusException naming the dependency to add when the module is not there
     */
    static ClusterConnector find() {
        return MissingCapability.find(ClusterConnector.class).orElseThrow(() -> MissingCapability.error(
            "Clients of a standing cluster (Cluster.connect, cumulus run --attach)", ARTIFACT));
    }
}
