package dev.cumulus.internal.capability;

import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;

/**
 * How a process that a launcher started ({@code cumulus run}, {@code srun cumulus node}) joins its cluster
 * ({@code Cluster.join}): as its node, or under {@code cumulus run --attach} as a client of a standing cluster. The
 * launcher–node contract (the {@code -Dcumulus.*} properties, the secret on stdin, the watch on the launcher, the
 * failure report) is module runtime/launch's, artifact {@value #ARTIFACT}, which registers its implementation in
 * {@code META-INF/services}.
 */
public interface LaunchedJoin {
    /** The Maven coordinates of the module that provides this capability. */
    String ARTIFACT = "dev.cumulus:cumulus-launch";

    /** {@code Cluster.join()}. */
    Cluster join();

    /**
     * The implementation of the module on the class path (the thread's context class loader's, else runtime/core's).
     *
     * @throws CumulusException saying how to start the program when the module is not there
     */
    static LaunchedJoin find() {
        return MissingCapability.find(LaunchedJoin.class).orElseThrow(() -> new CumulusException("Cluster.join() "
            + "works only inside a node started by 'cumulus run', which puts " + ARTIFACT + " on the node's class "
            + "path; this JVM's lacks it. Start the program with 'cumulus run --nodes N -cp CLASSPATH MAIN', or use "
            + "LocalCluster.run(n, body) for n nodes in one JVM."));
    }
}
