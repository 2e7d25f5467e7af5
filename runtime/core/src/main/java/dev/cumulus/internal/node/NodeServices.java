package dev.cumulus.internal.node;

import dev.cumulus.internal.codec.ReferenceHandler;
import dev.cumulus.internal.order.BarrierWatermark;
import dev.cumulus.internal.sched.Scheduler;

import java.util.function.BiConsumer;

/**
 * What a capability (tuple space, shared arrays, clouds, the single-VM heap) gets from its node: identity, system objects served over
 * RPC, and failure notices. Implemented by {@link ClusterNode}; capabilities never see the transport.
 */
public interface NodeServices {
    /** Fixed object ids of the system services every node exports at start. */
    long NAME_DIRECTORY_ID = 1;
    long REMOTE_FACTORY_ID = 2;
    long PASTSET_ID = 3;
    long CLOUDS_ID = 4;
    long ARRAYS_ID = 5;
    long MIGRATION_ID = 6;
    /** The single-VM shared heap of runtime/singlevm (a capability from another module, see {@link Provider}). */
    long SINGLE_VM_ID = 7;

    /**
     * A capability, each in a module above runtime/core (runtime/arrays, runtime/pastset, runtime/clouds,
     * runtime/singlevm), found with {@link java.util.ServiceLoader} on the node's class loader (listed in
     * {@code META-INF/services/dev.cumulus.internal.node.NodeServices$Provider}) and created before the node joins.
     * Its runtime is asked of the registry by its class or by the interface in {@code dev.cumulus.internal.capability}
     * through which the {@code Cluster} hands it out.
     */
    interface Provider {
        /** Creates this node's runtime of the capability (exports its system objects; must not block). */
        Object create(NodeServices node);

        /**
         * Before an in-process cluster ({@code LocalCluster}) starts, on its thread, before the program's code loads
         * its classes: the clouds attach the agent here, so their classes are woven. Nothing by default.
         */
        default void beforeInProcessCluster() {
        }
    }

    int nodeId();

    int size();

    /** Serves {@code service} under {@code objectId} on this node (call once, at start, before peers call it). */
    <T> void exportSystem(long objectId, T service, Class<T> iface);

    /** A proxy to the system service {@code objectId} on {@code node} (calls to this node run locally). */
    <T> T systemProxy(int node, long objectId, Class<T> iface);

    /** Tells {@code listener} (on the agent thread; must not block) when a node fails: (node, reason). */
    void onNodeFailure(BiConsumer<Integer, String> listener);

    /**
     * The ORDER channel of this node's transport, which the capability that runs the replicated objects' totally
     * ordered broadcast serves (runtime/clouds; {@link OrderChannel#serve} before the node starts).
     */
    OrderChannel orderChannel();

    /** What the global barrier waits for besides the nodes: ordered writes applied up to the release watermark. */
    void barrierWatermark(BarrierWatermark watermark);

    /** Tells {@code listener} (on the agent thread; must not block) when a node leaves normally: (node, reason). */
    void onPeerLeft(BiConsumer<Integer, String> listener);

    /** Ends the cluster (fail-stop) with {@code reason}, e.g. after a fatal error on this node. */
    void fail(String reason);

    /** Objects this capability passes by reference in remote calls (e.g. replica roots). */
    void localReferences(ReferenceHandler handler);

    /** Global barrier across all nodes. */
    void barrier();

    /** How work meets this node's threads: what runs after a poll, and polling while waiting. */
    Scheduler scheduler();

    /** This node's settings. */
    NodeSettings settings();
}
