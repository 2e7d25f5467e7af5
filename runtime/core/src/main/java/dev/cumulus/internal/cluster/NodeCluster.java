package dev.cumulus.internal.cluster;

import dev.cumulus.Barrier;
import dev.cumulus.Cloud;
import dev.cumulus.Cluster;
import dev.cumulus.NodeFailedException;
import dev.cumulus.SharedDouble;
import dev.cumulus.SharedLong;
import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.SharedDoubleArray;
import dev.cumulus.array.SharedFloatArray;
import dev.cumulus.array.SharedIntArray;
import dev.cumulus.array.SharedLongArray;
import dev.cumulus.internal.capability.ArrayCapability;
import dev.cumulus.internal.capability.CloudCapability;
import dev.cumulus.internal.capability.MissingCapability;
import dev.cumulus.internal.capability.PastSetCapability;
import dev.cumulus.internal.node.ClusterNode;
import dev.cumulus.internal.node.NodeServices;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.internal.rpc.ClientService;
import dev.cumulus.internal.transport.NodeTransport;
import dev.cumulus.internal.transport.TransportContext;
import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Placement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@link Cluster} a program holds: one {@link ClusterNode} and the capabilities it started with. Node-level calls
 * (barrier, remote objects, close) go to the node; each capability's calls go to its runtime, asked of the node's
 * capability registry by its interface in {@code dev.cumulus.internal.capability}. The capabilities are the
 * {@link NodeServices.Provider}s of the modules on the node's class path (runtime/arrays, runtime/pastset,
 * runtime/clouds, runtime/singlevm); a call whose module is absent throws an error naming the dependency to add.
 */
public final class NodeCluster implements Cluster {
    private final ClusterNode node;

    /** The capabilities the modules on {@code loader}'s class path provide. */
    private static List<Function<NodeServices, ?>> capabilities(ClassLoader loader) {
        List<Function<NodeServices, ?>> all = new ArrayList<>();
        ServiceLoader.load(NodeServices.Provider.class, loader).forEach(p -> all.add(p::create));
        return all;
    }

    /** Lets the modules on {@code loader}'s class path prepare this JVM for an in-process cluster. */
    public static void beforeInProcessCluster(ClassLoader loader) {
        ServiceLoader.load(NodeServices.Provider.class, loader).forEach(NodeServices.Provider::beforeInProcessCluster);
    }

    private NodeCluster(ClusterNode node) {
        this.node = node;
    }

    /**
     * Starts a node with every capability (its agent thread) without waiting for the others; call
     * {@link #awaitJoined()} next. {@code failureListener} (may be {@code null}) is told once when the cluster fails.
     */
    public static NodeCluster start(NodeSettings options, TransportContext transport, ClassLoader loader,
                                    ClusterNode.FailureListener failureListener) {
        return new NodeCluster(ClusterNode.start(options, transport, loader, capabilities(loader), failureListener));
    }

    /** {@link #start} for a server of a standing cluster, which also serves the clients {@code clients} admits. */
    public static NodeCluster startServer(NodeSettings options, TransportContext transport, ClassLoader loader,
                                          ClusterNode.FailureListener failureListener,
                                          ClientService.Factory clients) {
        return new NodeCluster(ClusterNode.start(options, transport, loader, capabilities(loader), failureListener,
            clients));
    }

    /** The node under this cluster (for runtime/launch's {@code NodeRuntime}, which watches how its process ends). */
    public ClusterNode node() {
        return node;
    }

    /** Waits until every node of the cluster has been heard from. */
    public NodeCluster awaitJoined() {
        node.awaitJoined();
        return this;
    }

    /** The runtime of a capability this node started with (for tests and benchmarks that look inside). */
    public <T> T capability(Class<T> type) {
        return node.capabilities().get(type);
    }

    /**
     * This node's transport, for tests and benchmarks that read its counters (frames dropped, rejected, failed); the
     * node polls it, so nothing else may.
     */
    public NodeTransport transport() {
        return node.transport();
    }

    /** The failure that ended this cluster, or {@code null}. */
    public NodeFailedException failure() {
        return node.failure();
    }

    /** Declares this node failed (fail-stop for everybody), e.g. when its program died. */
    public void failSelf(String reason) {
        node.failSelf(reason);
    }

    /** Runs {@code action} once the node has left and stopped (e.g. closes a node-private media driver). */
    public void afterLeave(Runnable action) {
        node.afterLeave(action);
    }

    /** Leaves without the closing barrier: says goodbye (if healthy) and stops. Idempotent. */
    public void leave() {
        node.leave();
    }

    @Override
    public int nodeId() {
        return node.nodeId();
    }

    @Override
    public int size() {
        return node.size();
    }

    @Override
    public void barrier() {
        node.barrier();
    }

    @Override
    public <T> T export(T object, Class<T> iface, String name) {
        return node.export(object, iface, name);
    }

    @Override
    public <T> T lookup(String name, Class<T> iface) {
        return node.lookup(name, iface);
    }

    @Override
    public <T> T lookup(String name, Class<T> iface, Duration wait) {
        return node.lookup(name, iface, wait);
    }

    @Override
    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name, int onNode) {
        return node.remoteNew(impl, iface, name, onNode);
    }

    @Override
    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name) {
        return node.remoteNew(impl, iface, name);
    }

    @Override
    public <T extends Cloud.Root> T replicated(String name, Supplier<T> factory) {
        node.checkUsable();
        return clouds().replicated(name, factory);
    }

    @Override
    public PastSet pastSet() {
        return pastSets().pastSet();
    }

    @Override
    public PastSet pastSet(Placement placement) {
        return pastSets().pastSet(placement);
    }

    /** The replicated objects (runtime/clouds); throws naming the module when it is not on the class path. */
    private CloudCapability clouds() {
        return provided(CloudCapability.class, "replicated objects (clouds)", CloudCapability.ARTIFACT);
    }

    /** The shared-array capability (runtime/arrays); throws naming the module when it is not on the class path. */
    private ArrayCapability arrays() {
        return provided(ArrayCapability.class, "shared arrays, barriers and shared scalars", ArrayCapability.ARTIFACT);
    }

    /** The tuple space (runtime/pastset); throws naming the module when it is not on the class path. */
    private PastSetCapability pastSets() {
        return provided(PastSetCapability.class, "the tuple space (PastSet) and its elements",
            PastSetCapability.ARTIFACT);
    }

    private <T> T provided(Class<T> type, String what, String artifact) {
        T c = node.capabilities().find(type);
        if (c == null) {
            throw MissingCapability.error(what, artifact);
        }
        return c;
    }

    @Override
    public SharedDoubleArray sharedDoubleArray(String name, ArrayShape shape) {
        return arrays().sharedDoubleArray(name, shape);
    }

    @Override
    public SharedFloatArray sharedFloatArray(String name, ArrayShape shape) {
        return arrays().sharedFloatArray(name, shape);
    }

    @Override
    public SharedLongArray sharedLongArray(String name, ArrayShape shape) {
        return arrays().sharedLongArray(name, shape);
    }

    @Override
    public SharedIntArray sharedIntArray(String name, ArrayShape shape) {
        return arrays().sharedIntArray(name, shape);
    }

    @Override
    public Barrier barrier(String name, int localThreads) {
        return arrays().barrier(name, localThreads);
    }

    @Override
    public Barrier localBarrier(String name, int threads) {
        return arrays().localBarrier(name, threads);
    }

    @Override
    public SharedLong sharedLong(String name) {
        return arrays().sharedLong(name);
    }

    @Override
    public SharedDouble sharedDouble(String name) {
        return arrays().sharedDouble(name);
    }

    @Override
    public void close() {
        node.close();
    }
}
