package dev.cumulus.internal.node;

import java.util.function.BiConsumer;

/**
 * What a capability (tuple space, shared arrays, clouds) gets from its node: identity, system objects served over
 * RPC, and failure notices. Implemented by {@link ClusterNode}; capabilities never see the transport.
 */
public interface NodeServices {
    /** Fixed object ids of the system services every node exports at start. */
    long NAME_DIRECTORY_ID = 1;
    long REMOTE_FACTORY_ID = 2;
    long PASTSET_ID = 3;
    long CLOUDS_ID = 4;
    long ARRAYS_ID = 5;

    int nodeId();

    int size();

    /** Serves {@code service} under {@code objectId} on this node (call once, at start, before peers call it). */
    <T> void exportSystem(long objectId, T service, Class<T> iface);

    /** A proxy to the system service {@code objectId} on {@code node} (calls to this node run locally). */
    <T> T systemProxy(int node, long objectId, Class<T> iface);

    /** Tells {@code listener} (on the agent thread; must not block) when a node fails: (node, reason). */
    void onNodeFailure(BiConsumer<Integer, String> listener);

    /** The totally ordered broadcast of this node (set its delivery before the node starts). */
    dev.cumulus.internal.order.BroadcastEndpoint orderedBroadcast();

    /** What the global barrier waits for besides the nodes: ordered writes applied up to the release watermark. */
    void barrierWatermark(BarrierWatermark watermark);

    /** Tells {@code listener} (on the agent thread; must not block) when a node leaves normally: (node, reason). */
    void onPeerLeft(BiConsumer<Integer, String> listener);

    /** Ends the cluster (fail-stop) with {@code reason}, e.g. after a fatal error on this node. */
    void fail(String reason);

    /** Objects this capability passes by reference in remote calls (e.g. replica roots). */
    void localReferences(dev.cumulus.internal.codec.ReferenceHandler handler);

    /** Global barrier across all nodes. */
    void barrier();

    /**
     * Called during a poll (e.g. by the ordered broadcast's delivery): when the polling thread is the node's main
     * thread and its standby is watching anyway (remote calls came in lately), it takes {@code task} and runs it
     * right after its poll (if the task blocks, the standby polls meanwhile), or hands it to {@code otherwise} then;
     * returns false when the caller must see to it itself.
     */
    boolean runAfterPoll(Runnable task, java.util.concurrent.Executor otherwise);

    /**
     * Called during a poll (the ordered broadcast's delivery): when the polling thread is a user's thread waiting for a
     * remote call's reply, it takes {@code task} and runs it right after its poll; returns false when the caller must
     * see to it itself.
     */
    boolean runAfterReplyWaitersPoll(Runnable task, java.util.concurrent.Executor otherwise);

    /**
     * A thread about to wait for something the duty cycle brings (a reply, a write's delivery) polls for it itself
     * for a short while first, when no one else polls; returns when {@code done} completes or the brief wait ends.
     */
    void pollWhileWaiting(java.util.concurrent.CompletableFuture<?> done);
}
