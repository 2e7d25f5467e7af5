package dev.cumulus.internal.node;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.codec.ReferenceHandler;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.jfr.NodeLifecycleEvent;
import dev.cumulus.internal.order.BarrierWatermark;
import dev.cumulus.internal.rpc.ClientService;
import dev.cumulus.internal.rpc.RemoteObjects;
import dev.cumulus.internal.rpc.RpcEngine;
import dev.cumulus.internal.sched.Scheduler;
import dev.cumulus.internal.transport.Channel;
import dev.cumulus.internal.transport.MessageHandler;
import dev.cumulus.internal.transport.NodeTransport;
import dev.cumulus.internal.transport.TransportContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.SystemNanoClock;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One node of a cluster: owns the node's transport, its agent thread (duty cycle in {@link NodeAgent}), its RPC engine,
 * the {@link OrderChannel} the replicated objects' ordered broadcast serves, and its {@link Capabilities}; it is the {@link NodeServices} those capabilities see. The
 * program sees it through the {@code Cluster} facade ({@code dev.cumulus.internal.cluster}), which knows the
 * capabilities; this class does not.
 *
 * <p>Fail-stop: when a peer fails (or this node is told it failed), every blocked barrier and remote call throws a
 * {@link NodeFailedException} naming the node, and the {@link FailureListener} decides what happens to the process.
 * A standing cluster's server is the exception once every server joined: a peer server that fails is gone (calls to
 * it fail naming it, as for a peer that left) and this server serves on; only its own failure stops it.
 */
public final class ClusterNode implements NodeServices {

    /** Told once when the cluster fails (a peer, or this node). Runs on the agent thread; must not block. */
    @FunctionalInterface
    public interface FailureListener {
        void onFailure(ClusterNode node, NodeFailedException failure);
    }

    private final NodeSettings options;
    private final NodeTransport transport;
    private final NodeAgent agent;
    private final TransportOrderChannel order;
    private volatile BarrierWatermark watermark = BarrierWatermark.NONE;
    private final DutyCycle dutyCycle;
    private final HeartbeatSender heartbeats;
    private final RpcEngine rpc;
    private final RemoteObjects remoteObjects;
    private final FailureListener failureListener;
    private final Capabilities capabilities;
    private final CompletableFuture<Void> joined = new CompletableFuture<>();
    private final Map<Long, CompletableFuture<Void>> barriers = new ConcurrentHashMap<>();
    private final AtomicLong barrierEpoch = new AtomicLong();
    private final Map<Long, Long> releaseWatermarks = new ConcurrentHashMap<>();
    private final Map<Integer, Long> leftAfterBarrier = new ConcurrentHashMap<>();
    private final List<Runnable> afterLeave = new CopyOnWriteArrayList<>();
    private final List<BiConsumer<Integer, String>> leftWatchers = new CopyOnWriteArrayList<>();
    private final Map<Integer, Leaving> leftHow = new ConcurrentHashMap<>();
    /** Where the first trouble this node saw began (a failure, or a peer whose leaving broke a barrier). */
    private final AtomicReference<FailureCause> firstCause = new AtomicReference<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong nextRemoteNewNode;
    private final List<BiConsumer<Integer, String>> failureWatchers = new CopyOnWriteArrayList<>();
    private volatile NodeFailedException failure;
    /** A standing cluster's server: a peer server's failure, once joined, is not the cluster's. */
    private final boolean servesClients;

    /** Hands the transport's messages to the agent, which exists only once the node is built. */
    private static final class Dispatch implements MessageHandler {
        volatile NodeAgent agent;

        @Override
        public void onMessage(int source, Channel channel, DirectBuffer buffer, int offset, int length) {
            agent.onMessage(source, channel, buffer, offset, length);
        }
    }

    private ClusterNode(NodeSettings options, NodeTransport transport, Dispatch dispatch, ClassLoader loader,
                        List<Function<NodeServices, ?>> capabilityFactories, FailureListener failureListener,
                        ClientService.Factory clients) {
        this.options = options;
        this.failureListener = failureListener;
        this.servesClients = clients != null;
        this.nextRemoteNewNode = new AtomicLong(options.nodeId() + 1);
        this.transport = transport;
        long maxSendWaitNs = TimeUnit.MILLISECONDS.toNanos(options.heartbeatTimeoutMs() * 4);
        this.rpc = new RpcEngine(options.nodeId(), options.size(), transport.capacity(), new RpcEngine.DataSender() {
                @Override
                public void send(int destination, DirectBuffer buffer, int offset, int length) {
                    transport.sendUnrung(destination, Channel.DATA, buffer, offset, length, maxSendWaitNs);
                }

                @Override
                public void ring(int node) {
                    transport.ring(node);
                }

                @Override
                public void clientAttached(int client, String endpoint, byte[] session) {
                    transport.clientAttached(client, endpoint, session);
                }
            },
            loader, options.callTimeoutNs());
        NodeSettings.Liveness liveness = options.liveness();
        this.agent = new NodeAgent(transport, new SystemNanoClock(), new Listener(), liveness,
            TimeUnit.MILLISECONDS.toNanos(options.joinTimeoutMs()), HostIdentity.current());
        dispatch.agent = agent;
        this.order = new TransportOrderChannel(transport, (node, reason) -> agent.fail(node, reason, true),
            rpc::callerPolls);
        this.remoteObjects = new RemoteObjects(rpc, options.size(), loader, options.rebalanceWindow());
        this.capabilities = Capabilities.create(capabilityFactories, this);
        OrderChannel.Endpoint ordered = order.endpoint(); // served by a capability (the clouds'), if any
        this.dutyCycle = new DutyCycle(ordered == null ? agent : new CompositeAgent(agent, ordered),
            ordered == null ? agent::pollData : agent::pollDataAndOrder,
            agent::afterWait,
            this::onAgentError, options.scheduling(), TransportDoorbell.of(transport), "cumulus-node-" + options.nodeId());
        rpc.scheduler(dutyCycle);
        rpc.onOneWayFailure(this::failSelf);
        if (clients != null) {
            remoteObjects.serveClients(clients);
        }
        this.heartbeats = new HeartbeatSender(transport, agent::progress, dutyCycle::alive,
            liveness.heartbeatIntervalNs(), agent.host(), agent::checkPeerProcesses, "cumulus-node-" + options.nodeId() + "-heartbeat");
        agent.heartbeats(heartbeats);
    }

    /**
     * Starts a node (its agent thread) without waiting for the others; call {@link #awaitJoined()} next. Each of
     * {@code capabilityFactories} makes one capability runtime from this node's services, before the node joins.
     */
    public static ClusterNode start(NodeSettings options, TransportContext transportContext, ClassLoader loader,
                                    List<Function<NodeServices, ?>> capabilityFactories,
                                    FailureListener failureListener) {
        return start(options, transportContext, loader, capabilityFactories, failureListener, null);
    }

    /**
     * {@link #start(NodeSettings, TransportContext, ClassLoader, List, FailureListener)} for a server of a standing
     * cluster when {@code clients} is not null: it also serves the clients that {@code clients} admits (ids from
     * {@code size} on, {@link NodeTransport#CLIENT_SLOTS} of them).
     */
    public static ClusterNode start(NodeSettings options, TransportContext transportContext, ClassLoader loader,
                                    List<Function<NodeServices, ?>> capabilityFactories,
                                    FailureListener failureListener, ClientService.Factory clients) {
        Dispatch dispatch = new Dispatch();
        NodeTransport transport = clients == null
            ? new NodeTransport(transportContext, options.nodeId(), options.size(), dispatch)
            : new NodeTransport(transportContext, options.nodeId(), options.size(),
                options.size() + NodeTransport.CLIENT_SLOTS, dispatch);
        ClusterNode node;
        try {
            node = new ClusterNode(options, transport, dispatch, loader, capabilityFactories, failureListener,
                clients);
        } catch (RuntimeException | Error e) {
            transport.close(); // nothing else runs yet; capabilities started daemon threads only
            throw e;
        }
        node.dutyCycle.start();
        node.heartbeats.start();
        return node;
    }

    /** Waits until every node of the cluster has been heard from. */
    public ClusterNode awaitJoined() {
        await(joined, "joining the cluster");
        return this;
    }

    @Override
    public int nodeId() {
        return options.nodeId();
    }

    @Override
    public int size() {
        return options.size();
    }

    @Override
    public void barrier() {
        barrier(BarrierKind.BARRIER);
    }

    private void barrier(BarrierKind kind) {
        checkUsable();
        long epoch = barrierEpoch.incrementAndGet();
        for (Map.Entry<Integer, Long> left : leftAfterBarrier.entrySet()) {
            if (epoch > left.getValue()) {
                throw peerLeftError(left.getKey());
            }
        }
        CompletableFuture<Void> released = barriers.computeIfAbsent(epoch, e -> new CompletableFuture<>());
        NodeFailedException f = failure;
        if (f != null) {
            released.completeExceptionally(f);
        }
        for (Map.Entry<Integer, Long> left : leftAfterBarrier.entrySet()) {
            if (epoch > left.getValue()) {
                released.completeExceptionally(peerLeftError(left.getKey())); // it left while we registered
            }
        }
        BarrierWatermark w = watermark;
        long applied = w.covered();
        agent.execute(() -> agent.enterBarrier(epoch, applied, kind));
        try {
            await(released, "the global barrier");
        } finally {
            barriers.remove(epoch);
        }
        long target = releaseWatermarks.getOrDefault(epoch, -1L);
        releaseWatermarks.remove(epoch);
        try {
            w.awaitApplied(target);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("node " + options.nodeId() + " was interrupted while applying writes at a barrier",
                e);
        }
    }

    /** This node's remote-object API (tests look at the clients' name spaces there). */
    RemoteObjects remoteObjects() {
        return remoteObjects;
    }

    /** Remote objects: as {@code Cluster.export}, {@code lookup} and {@code remoteNew} describe them. */
    public <T> T export(T object, Class<T> iface, String name) {
        checkUsable();
        return remoteObjects.export(object, iface, name);
    }

    public <T> T lookup(String name, Class<T> iface) {
        return lookup(name, iface, options.lookupWait());
    }

    public <T> T lookup(String name, Class<T> iface, Duration wait) {
        checkUsable();
        return remoteObjects.lookup(name, iface, wait);
    }

    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name, int node) {
        checkUsable();
        return remoteObjects.remoteNew(impl, iface, name, node);
    }

    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name) {
        int node = (int) (nextRemoteNewNode.getAndIncrement() % options.size());
        return remoteNew(impl, iface, name, node);
    }

    @Override
    public <T> void exportSystem(long objectId, T service, Class<T> iface) {
        rpc.exportSystem(objectId, service, iface);
    }

    @Override
    public <T> T systemProxy(int node, long objectId, Class<T> iface) {
        return rpc.proxy(new RemoteRef(node, objectId, iface.getName()), iface, "cumulus." + iface.getSimpleName());
    }

    @Override
    public void fail(String reason) {
        failSelf(reason);
    }

    @Override
    public void localReferences(ReferenceHandler handler) {
        rpc.localReferences(handler);
    }

    @Override
    public OrderChannel orderChannel() {
        return order;
    }

    @Override
    public void barrierWatermark(BarrierWatermark w) {
        this.watermark = w;
        rpc.causality(w);
    }

    @Override
    public void onNodeFailure(BiConsumer<Integer, String> listener) {
        failureWatchers.add(listener);
    }

    @Override
    public void onPeerLeft(BiConsumer<Integer, String> listener) {
        leftWatchers.add(listener);
    }

    /** This node's transport (for tests and benchmarks that read its counters). */
    public NodeTransport transport() {
        return transport;
    }

    /** The capability runtimes this node started with. */
    public Capabilities capabilities() {
        return capabilities;
    }

    /** The failure that ended this cluster, or {@code null}. */
    public NodeFailedException failure() {
        return failure;
    }

    /** Runs {@code action} once the node has left and stopped (e.g. closes a node-private media driver). */
    public void afterLeave(Runnable action) {
        afterLeave.add(action);
    }

    /** Declares this node failed (fail-stop for everybody), e.g. when its program died. */
    public void failSelf(String reason) {
        agent.execute(() -> agent.fail(options.nodeId(), reason, true));
    }

    /** {@link #failSelf}, then waits up to {@code waitMs} until the failure is on its way to every peer. */
    void failSelfAndWait(String reason, long waitMs) {
        failSelf(reason);
        try {
            awaitOutboxDrained(waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            // the agent is gone: the peers' heartbeat timeout tells them
        }
    }

    /**
     * Where the first trouble this node saw began: the node that failed, or a peer that left while this node still
     * needed it (a barrier it could not pass, or a peer whose process exited mid-program); {@code null} if none.
     */
    public FailureCause firstCause() {
        return firstCause.get();
    }

    /** True once {@link #close()} or {@link #leave()} ran. */
    boolean hasLeft() {
        return closed.get();
    }

    /** Leaves after a closing barrier (when healthy): what {@code Cluster.close()} does. */
    public void close() {
        if (failure == null && !closed.get()) {
            barrier(BarrierKind.CLOSE);
        }
        leave(Leaving.CLOSED);
    }

    /** Leaves without the closing barrier: says goodbye (if healthy) and stops. Idempotent. */
    public void leave() {
        leave(Leaving.ENDED);
    }

    /** Leaves without the closing barrier, telling the peers how ({@code leaving}). Idempotent. */
    void leave(Leaving leaving) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (failure == null) {
            CompletableFuture<Void> said = new CompletableFuture<>();
            agent.execute(() -> {
                agent.sayGoodbye(barrierEpoch.get(), leaving);
                said.complete(null);
            });
            try {
                said.get(2, TimeUnit.SECONDS);
                awaitOutboxDrained(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // the agent is stuck or gone: nothing more to say
            }
            NodeLifecycleEvent.record(options.nodeId(), "left", options.nodeId(), "");
        }
        heartbeats.close();
        capabilities.closeAll();
        rpc.close();
        transport.stopSending(); // the duty cycle's threads must not wait out a send to a peer that is gone as well
        dutyCycle.close();
        afterLeave.forEach(Runnable::run);
    }

    @Override
    public Scheduler scheduler() {
        return dutyCycle;
    }

    @Override
    public NodeSettings settings() {
        return options;
    }

    /**
     * The error of a barrier that cannot complete because {@code peer} left. Only a peer whose process exited
     * mid-program is where the trouble began ({@link #firstCause}, set when it left); a peer that closed or ended
     * normally is not: the program here called barrier() more often.
     */
    private CumulusException peerLeftError(int peer) {
        Leaving how = leftHow.getOrDefault(peer, Leaving.CLOSED);
        String reason = "node " + peer + " has left the cluster (" + how.reason() + "); a barrier cannot complete "
            + "without it" + (how == Leaving.EXITING ? ""
            : " — do all nodes call barrier() the same number of times before close()?");
        return new CumulusException(reason);
    }

    /** Waits (bounded) until the agent has sent every queued control message, e.g. a barrier release. */
    private void awaitOutboxDrained(long waitMs) throws InterruptedException, ExecutionException {
        CompletableFuture<Void> drained = new CompletableFuture<>();
        agent.execute(() -> agent.whenOutboxDrained(drained));
        try {
            drained.get(waitMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // a peer takes nothing: leave anyway; its own heartbeat timeout tells it
        }
    }

    /** Throws when this node can take no more calls: the cluster failed, or the node left. */
    public void checkUsable() {
        NodeFailedException f = failure;
        if (f != null) {
            throw new NodeFailedException(f.nodeId(), f.getMessage());
        }
        if (closed.get()) {
            throw new CumulusException("node " + options.nodeId() + " has left the cluster (close() was called)");
        }
    }

    private void await(CompletableFuture<Void> future, String what) {
        try {
            future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("node " + options.nodeId() + " was interrupted while waiting for " + what, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof NodeFailedException nf) {
                throw new NodeFailedException(nf.nodeId(), nf.getMessage());
            }
            if (e.getCause() instanceof CumulusException ce) {
                throw new CumulusException(ce.getMessage(), ce);
            }
            throw new CumulusException("node " + options.nodeId() + " failed while waiting for " + what, e.getCause());
        }
    }

    private void onAgentError(Throwable t) {
        String reason = "node " + options.nodeId() + " hit an internal error: " + t;
        System.err.println("cumulus: " + reason);
        t.printStackTrace();
        agent.fail(options.nodeId(), reason, true);
    }

    private final class Listener implements NodeAgent.Listener {
        @Override
        public void onData(int source, DirectBuffer buffer, int offset, int length) {
            rpc.onData(source, buffer, offset, length);
        }

        @Override
        public void onJoined() {
            joined.complete(null);
        }

        @Override
        public void onOrder(int source, DirectBuffer buffer, int offset, int length) {
            order.onMessage(source, buffer, offset, length);
        }

        @Override
        public void onBarrierReleased(long epoch, long releaseWatermark) {
            releaseWatermarks.put(epoch, releaseWatermark);
            barriers.computeIfAbsent(epoch, e -> new CompletableFuture<>()).complete(null);
        }

        @Override
        public void onFailure(int peer, String reason) {
            if (servesClients && peer != options.nodeId() && joined.isDone() && failure == null) {
                onServerGone(peer, reason);
                return;
            }
            firstCause.compareAndSet(null, new FailureCause(peer, reason));
            NodeFailedException f = new NodeFailedException(peer, reason);
            boolean first = failure == null;
            if (first) {
                failure = f; // set before anything wakes up: whoever catches the failure can ask which node it was
                if (failureListener != null) {
                    // before anything wakes, too: a program that catches the failure and exits at once must not
                    // beat the report of where the failure began
                    failureListener.onFailure(ClusterNode.this, f);
                }
            }
            rpc.onNodeGone(peer, reason);
            if (first) {
                rpc.onClusterFailed(peer, reason);
            }
            failureWatchers.forEach(w -> w.accept(peer, reason));
            if (!first) {
                return;
            }
            joined.completeExceptionally(f);
            barriers.values().forEach(b -> b.completeExceptionally(f));
        }

        /**
         * A standing cluster's peer server failed: it is gone, as a peer that left (the calls waiting for it fail
         * naming it, later ones at once); this server serves its clients on.
         */
        private void onServerGone(int peer, String reason) {
            System.err.println("cumulus: server " + options.nodeId() + ": server " + peer + " is gone (" + reason
                + "); serving on without it");
            rpc.onNodeGone(peer, reason);
            failureWatchers.forEach(w -> w.accept(peer, reason));
        }

        @Override
        public void onPeerLeft(int peer, long lastBarrier, Leaving leaving) {
            String reason = "node " + peer + " has left the cluster (" + leaving.reason() + ")";
            leftHow.put(peer, leaving);
            if (leaving == Leaving.EXITING) {
                firstCause.compareAndSet(null, new FailureCause(peer, reason)); // whatever breaks next, it began there
            }
            rpc.onNodeGone(peer, reason);
            order.peerLeft(peer);
            leftAfterBarrier.merge(peer, lastBarrier, Math::min);
            // Barriers the leaver took part in still complete (their release is on its way); later ones cannot.
            barriers.forEach((epoch, b) -> {
                if (epoch > lastBarrier) {
                    b.completeExceptionally(peerLeftError(peer));
                }
            });
            leftWatchers.forEach(w -> w.accept(peer, reason));
        }
    }
}
