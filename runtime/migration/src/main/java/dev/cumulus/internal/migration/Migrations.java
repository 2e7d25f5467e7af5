package dev.cumulus.internal.migration;

import dev.cumulus.AccessDeniedException;
import dev.cumulus.Migration;
import dev.cumulus.MigrationAware;
import dev.cumulus.MigrationException;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.rpc.AccessRule;
import dev.cumulus.internal.rpc.ClientService;
import dev.cumulus.internal.rpc.DeferredReply;
import dev.cumulus.internal.rpc.ExportTable;
import dev.cumulus.internal.rpc.MigrationService;
import dev.cumulus.internal.rpc.ObjectGate;
import dev.cumulus.internal.rpc.ObjectMover;
import dev.cumulus.internal.rpc.RemoteInvocationHandler;
import dev.cumulus.internal.rpc.RpcEngine;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Moves remote objects between nodes (Babylon §4.2): the node's {@link MigrationService} and the requests behind
 * {@code Remote.migrate}. A move closes the object's {@link ObjectGate} (new calls wait there), waits as the kind says,
 * copies the state ({@link ObjectState}) to the new node, which serves the object under the same id with its gate
 * closed, and leaves a forwarding address. Then it hands the calls that waited over to the new node
 * ({@link MigrationService#release}), which runs them first, in the order they came, and answers them in this node's
 * name; every later call that comes here is answered with the new node, which its caller calls instead. A move that
 * fails opens the gate again and the held calls run here, first.
 */
final class Migrations implements MigrationService, ObjectMover {
    private final RpcEngine engine;
    private final int size;
    private final ClassLoader loader;
    /** Points a name at the object's new place in the name directory, unless a later move did already. */
    private final Rebind rebind;
    /** How often objects that follow their calls are looked at ({@link Duration#ZERO}: only on request). */
    private final Duration window;
    /** Every object exported here follows its calls ({@code cumulus run --rebalance}). */
    private final boolean rebalanceAll;
    /** The objects of this node that follow their calls, by id, with their policy. */
    private final Map<Long, PlacementPolicy> following = new ConcurrentHashMap<>();
    private final AtomicBoolean rebalancerStarted = new AtomicBoolean();

    /**
     * @param window how often the rebalancer looks at the objects that follow their calls; {@link Duration#ZERO}
     *               turns {@code --rebalance} off (then {@link #DEFAULT_WINDOW} for objects placed by request)
     */
    Migrations(RpcEngine engine, int size, ClassLoader loader, Rebind rebind, Duration window) {
        this.engine = engine;
        this.size = size;
        this.loader = loader;
        this.rebind = rebind;
        this.rebalanceAll = !window.isZero();
        this.window = rebalanceAll ? window : DEFAULT_WINDOW;
    }

    /** The rebalancer's window when {@code Remote.autoPlace} is used without {@code --rebalance}. */
    static final Duration DEFAULT_WINDOW = Duration.ofSeconds(1);

    /** A user object was exported here: under {@code --rebalance} it follows its calls. */
    @Override
    public void exported(long objectId) {
        if (rebalanceAll) {
            follow(engine.exports().get(objectId));
        }
    }

    // ---------------------------------------------------------------- asked by a program, on any node

    @Override
    public SafeModeQueue safeModeQueue(Object target, String name, ObjectGate gate) {
        return new SafeModeCalls(engine, target, name, gate);
    }

    /** {@code Remote.migrate}: returns once the object serves calls on {@code node}. */
    @Override
    public void migrate(RemoteInvocationHandler proxy, int node, Migration kind) {
        if (kind == null) {
            throw new MigrationException("Remote.migrate needs a kind: Migration.IDLE, DELAYED or SAFE_POINT");
        }
        RemoteRef ref = proxy.ref();
        if (ref.objectId() < ExportTable.FIRST_USER_ID) {
            throw new MigrationException(proxy.label() + " is a system object of Cumulus; it does not migrate");
        }
        checkTarget(node, proxy.label());
        for (int hops = 0; ; hops++) {
            Placement placement = service(proxy.ref().nodeId()).migrate(ref.objectId(), node, kind);
            proxy.movedTo(placement.node());
            if (placement.here()) {
                return;
            }
            if (hops == RpcEngine.MAX_FORWARDS) {
                throw new MigrationException("could not find " + proxy.label() + ": followed " + hops
                    + " forwarding addresses");
            }
        }
    }

    /** {@code Remote.autoPlace}: from now on the object moves to the node that makes most of its calls. */
    @Override
    public void followCalls(RemoteInvocationHandler proxy) {
        RemoteRef ref = proxy.ref();
        if (ref.objectId() < ExportTable.FIRST_USER_ID) {
            throw new MigrationException(proxy.label() + " is a system object of Cumulus; it does not migrate");
        }
        for (int hops = 0; ; hops++) {
            Placement placement = service(proxy.ref().nodeId()).followCalls(ref.objectId());
            proxy.movedTo(placement.node());
            if (placement.here()) {
                return;
            }
            if (hops == RpcEngine.MAX_FORWARDS) {
                throw new MigrationException("could not find " + proxy.label() + ": followed " + hops
                    + " forwarding addresses");
            }
        }
    }

    private void checkTarget(int node, String label) {
        if (node < 0 || node >= size) {
            throw new MigrationException("cannot migrate " + label + " to node " + node + ": the cluster has nodes 0.."
                + (size - 1));
        }
        String gone = engine.goneReason(node);
        if (gone != null) {
            throw new MigrationException("cannot migrate " + label + " to node " + node + ": " + gone);
        }
    }

    /**
     * A client of a standing cluster moves only the objects it owns (the admin any): not another client's, nor the
     * cluster's own.
     */
    private void checkMover(ExportTable.Exported entry, String what) {
        String client = engine.callingPrincipal();
        AccessRule rule = entry.rule();
        if (client != null && !AccessRule.ADMIN.equals(client) && (rule == null || !rule.owner().equals(client))) {
            String why = "client " + client + " may not move '" + entry.name() + "' (" + what + ") on server "
                + engine.nodeId() + ": " + (rule == null ? "it is the cluster's own object"
                : "it belongs to client " + rule.owner()) + "; a client moves only its own objects";
            System.err.println("cumulus: server " + engine.nodeId() + " refused a call: " + why);
            throw new AccessDeniedException(why);
        }
    }

    private MigrationService service(int node) {
        return engine.proxy(new RemoteRef(node, OBJECT_ID, MigrationService.class.getName()), MigrationService.class,
            "cumulus.migration", 0);
    }

    // ---------------------------------------------------------------- the service, on the object's node

    @Override
    public Placement followCalls(long objectId) {
        ExportTable.Exported entry = engine.exports().get(objectId);
        if (entry == null || entry.gate() == null) {
            throw new MigrationException("node " + engine.nodeId() + " serves no user object with id " + objectId);
        }
        checkMover(entry, "Remote.autoPlace");
        try {
            entry.gate().awaitMigrationEnd(); // a move under way takes the object's current wish with it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MigrationException("interrupted while '" + entry.name() + "' migrated", e);
        }
        int movedTo = entry.gate().movedTo();
        if (movedTo >= 0) {
            return new Placement(movedTo, false);
        }
        follow(entry);
        return new Placement(engine.nodeId(), true);
    }

    private void follow(ExportTable.Exported entry) {
        entry.gate().countCalls(new CallTally(size));
        following.putIfAbsent(entry.objectId(), new PlacementPolicy());
        if (rebalancerStarted.compareAndSet(false, true)) {
            Thread.ofVirtual().name("cumulus-rebalancer-" + engine.nodeId()).start(this::rebalance);
        }
    }

    /** The rebalancer: each window, moves the objects whose calls come mostly from another node (delayed moves). */
    private void rebalance() {
        while (!engine.closed()) {
            try {
                Thread.sleep(window);
            } catch (InterruptedException e) {
                return;
            }
            for (Map.Entry<Long, PlacementPolicy> f : following.entrySet()) {
                ExportTable.Exported entry = engine.exports().get(f.getKey());
                if (entry == null || entry.gate() == null || entry.gate().movedTo() >= 0) {
                    following.remove(f.getKey());
                    continue;
                }
                CallTally calls = (CallTally) entry.gate().callCounter();
                PlacementPolicy.Decision decision = f.getValue().window(calls.takeWindow(), engine.nodeId());
                if (decision.node() >= 0 && engine.goneReason(decision.node()) == null) {
                    try {
                        // it waits for running calls for one window at most: a call that runs longer may wait for
                        // one of the calls the move holds, and nobody asked for this move
                        move(entry, decision.node(), Migration.DELAYED, decision.reason(), window.toNanos());
                    } catch (RuntimeException e) {
                        // it stays (busy, refused by beforeMigration, the target failed...); the next windows decide
                        // again, and the other objects still follow their calls
                    }
                }
            }
        }
    }

    @Override
    public Placement migrate(long objectId, int toNode, Migration kind) {
        ExportTable.Exported entry = engine.exports().get(objectId);
        if (entry == null) {
            throw new MigrationException("node " + engine.nodeId() + " serves no object with id " + objectId);
        }
        if (entry.gate() == null) {
            throw new MigrationException(entry.name() + " is a system object of Cumulus; it does not migrate");
        }
        checkMover(entry, "Remote.migrate");
        int movedTo = entry.gate().movedTo();
        if (movedTo >= 0) {
            return new Placement(movedTo, false);
        }
        if (toNode == engine.nodeId()) {
            return new Placement(toNode, true);
        }
        checkTarget(toNode, "'" + entry.name() + "'");
        if (kind != Migration.IDLE && engine.currentThreadRuns(entry.gate())) {
            throw new MigrationException("a method of '" + entry.name() + "' asked to migrate its own object "
                + kind + ": the move would wait for that method to return, which waits for the move. Migrate it "
                + "from outside its methods" + (entry.safeMode() != null ? ", or let Migration.point() stop it" : ""));
        }
        if (!DeferredReply.servingRemoteCall()) {
            return move(entry, toNode, kind, "requested", 0); // asked on this node: the asking thread waits
        }
        DeferredReply reply = DeferredReply.defer(); // a move may wait: never on the polling thread
        engine.runAsync(() -> {
            try {
                reply.complete(move(entry, toNode, kind, "requested", 0));
            } catch (Throwable t) {
                reply.fail(t);
            }
        });
        return null;
    }

    /** @param idleWaitNs how long to wait for the running calls (0: as long as they run); then it is busy */
    private Placement move(ExportTable.Exported entry, int toNode, Migration kind, String reason, long idleWaitNs) {
        ObjectGate gate = entry.gate();
        Object object = entry.target();
        String label = "'" + entry.name() + "' (" + object.getClass().getName() + ")";
        if (kind == Migration.SAFE_POINT && entry.safeMode() == null) {
            throw new MigrationException(label + " cannot migrate at a safe point: its class is not annotated "
                + "@SafeMode; use Migration.DELAYED, or annotate the class and call Migration.point() in its methods");
        }
        MigrationEvent event = new MigrationEvent();
        event.begin();
        try {
            if (!gate.close(kind == Migration.SAFE_POINT)) {
                return new Placement(gate.movedTo(), false); // an earlier move took it away meanwhile
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MigrationException("interrupted while waiting for another migration of " + label, e);
        }
        long closedNs = System.nanoTime();
        byte[] state = null;
        boolean moved = false;
        try {
            if (kind == Migration.IDLE && !idleNow(gate)) {
                throw new MigrationException(label + " is busy: " + gate.running() + " call(s) of it are running, "
                    + "and IDLE moves only an object that runs no method. Migration.DELAYED waits for them"
                    + (entry.safeMode() != null ? "; Migration.SAFE_POINT stops them at Migration.point()" : ""));
            }
            if (!gate.awaitIdle(idleWaitNs)) {
                throw new MigrationException(label + " is busy: " + gate.running() + " call(s) of it still ran after "
                    + TimeUnit.NANOSECONDS.toMillis(idleWaitNs) + " ms; it stays on node " + engine.nodeId());
            }
            try {
                aware(object, true);
            } catch (RuntimeException e) {
                throw new MigrationException(label + " did not move to node " + toNode + ": its beforeMigration() "
                    + "threw " + e + "; it stays on node " + engine.nodeId() + " and serves calls there", e);
            }
            try {
                state = ObjectState.of(object.getClass()).capture(engine.codec(), object);
                transfer(entry, toNode, state, gate.callCounter() != null, gate.moves() + 1);
            } catch (RuntimeException e) {
                aware(object, false);
                throw e instanceof MigrationException m && state == null ? m : new MigrationException(label
                    + " could not move to node " + toNode + ": " + e.getMessage() + "; it stays on node "
                    + engine.nodeId() + " and serves calls there", e);
            }
            moved = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MigrationException("interrupted while " + label + " waited for its running calls", e);
        } finally {
            int held;
            if (moved) {
                List<ObjectGate.Held> waiting = entry.forward(toNode);
                engine.exports().keepForwardingOnly(entry);
                handOver(entry, toNode, waiting);
                held = waiting.size();
            } else {
                held = entry.open(gate::reopen);
            }
            commit(event, entry, kind, toNode, state, System.nanoTime() - closedNs, held, moved, reason);
        }
        boolean interrupted = Thread.interrupted(); // the object moved: an interrupt meanwhile does not undo that
        try {
            rebind.moved(entry.name(), new RemoteRef(toNode, entry.objectId(), entry.iface().getName()),
                gate.moves() + 1);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return new Placement(toNode, true);
    }

    /**
     * Sends the object's state to {@code toNode} and waits for its answer, even when this thread is interrupted
     * meanwhile (the interrupt stays set): once the state is sent, only the answer says whether the new node serves the
     * object, and a move given up on an interrupt would leave it served on both nodes.
     */
    private void transfer(ExportTable.Exported entry, int toNode, byte[] state, boolean followsCalls, int moves) {
        CompletableFuture<Void> answered = new CompletableFuture<>();
        Thread.ofVirtual().name("cumulus-migration-" + engine.nodeId()).start(() -> {
            try {
                // on a standing cluster's server a client's object moves with its owner
                ClientService clients = engine.clientService();
                int owner = clients.ownerOf(entry.objectId());
                service(toNode).receive(entry.objectId(), entry.target().getClass().getName(),
                    entry.iface().getName(), entry.name(), state, followsCalls, moves, entry.rule(), owner);
                clients.movedAway(entry.objectId());
                answered.complete(null);
            } catch (Throwable t) {
                answered.completeExceptionally(t);
            }
        });
        try {
            answered.join(); // not interruptible
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /**
     * Sends the calls that waited at the gate during the move to the object's new node, in the order they came: they
     * run there before any call that reaches it directly, and are answered from there in this node's name. If they
     * cannot go (the new node failed, or they make a message larger than the codec takes), none ran there: each is
     * answered with the new node instead, as a call that comes after the move, and the new node opens the object's
     * gate without them.
     */
    private void handOver(ExportTable.Exported entry, int toNode, List<ObjectGate.Held> held) {
        int[] sentTo = new int[held.size()];
        int[] sources = new int[held.size()];
        byte[][] messages = new byte[held.size()][];
        for (int i = 0; i < sources.length; i++) {
            sentTo[i] = held.get(i).sentTo();
            sources[i] = held.get(i).source();
            messages[i] = held.get(i).message();
        }
        // they leave this node before the new node can answer them: a client's count here ends first, as it does for
        // a call answered here, so the client (which counts it until its answer) never has fewer outstanding here
        held.forEach(ObjectGate.Held::handedOver);
        try {
            service(toNode).release(entry.objectId(), sentTo, sources, messages);
        } catch (RuntimeException e) {
            held.forEach(call -> call.forwardTo(toNode));
            try {
                service(toNode).release(entry.objectId(), new int[0], new int[0], new byte[0][]);
            } catch (RuntimeException failed) {
                // the new node failed: the cluster stops (fail-stop), and the callers hear of it as of any failed node
            }
        }
    }

    private void commit(MigrationEvent event, ExportTable.Exported entry, Migration kind, int toNode, byte[] state,
                        long pauseNs, int held, boolean moved, String reason) {
        event.end();
        if (event.shouldCommit()) {
            event.object = entry.name();
            event.kind = kind.name();
            event.fromNode = engine.nodeId();
            event.toNode = toNode;
            event.stateBytes = state == null ? 0 : state.length;
            event.pauseNs = pauseNs;
            event.callsHeld = held;
            event.reason = reason;
            event.outcome = moved ? "moved" : "stayed";
            event.commit();
        }
    }

    /** Tells a {@link MigrationAware} object that it is about to leave, or that it stays (or arrived). */
    private static void aware(Object object, boolean leaving) {
        if (object instanceof MigrationAware aware) {
            if (leaving) {
                aware.beforeMigration();
            } else {
                aware.afterMigration();
            }
        }
    }

    @Override
    public void release(long objectId, int[] sentTo, int[] sources, byte[][] calls) {
        if (sources.length != calls.length || sentTo.length != calls.length) {
            throw new MigrationException("the calls handed over with object " + objectId + " came with " + sentTo.length
                + " target nodes and " + sources.length + " caller nodes for " + calls.length + " calls");
        }
        ExportTable.Exported entry = engine.exports().get(objectId);
        if (entry == null || entry.gate() == null) {
            throw new MigrationException("node " + engine.nodeId() + " received no object with id " + objectId);
        }
        engine.dispatchHanded(entry, sentTo, sources, calls);
    }

    @Override
    public void receive(long objectId, String implClass, String interfaceName, String name, byte[] state,
                        boolean followsCalls, int moves, AccessRule rule, int owner) {
        Class<?> iface;
        Class<?> impl;
        ClientService clients = engine.clientService();
        ClassLoader loader = owner >= 0 ? clients.loaderOf(owner) : this.loader; // a client's classes: its name space
        try {
            iface = Class.forName(interfaceName, false, loader);
            impl = Class.forName(implClass, false, loader);
        } catch (ClassNotFoundException e) {
            throw new MigrationException("node " + engine.nodeId() + " cannot load " + e.getMessage()
                + "; every node must run with the same classpath");
        }
        if (!iface.isInterface() || !iface.isAssignableFrom(impl) || impl.isInterface()) {
            throw new MigrationException(implClass + " is not a class that implements interface " + interfaceName);
        }
        ObjectState layout = ObjectState.of(impl);
        engine.allowSignatures(impl, iface);
        layout.allowFieldTypes(engine.codec().allowList());
        Object object = layout.newInstance();
        layout.restore(engine.codecFor(impl.getClassLoader()), object, state);
        aware(object, false);
        ExportTable.Exported entry = engine.exports().addMigrated(objectId, object, iface, name, moves, rule);
        if (owner >= 0) {
            clients.movedHere(objectId, owner, name, implClass);
        }
        if (followsCalls || rebalanceAll) {
            follow(entry);
        }
    }

    /**
     * Whether no call runs the object's methods (its gate is closed). A call that found the gate closed counts for the
     * few instructions it takes to back out ({@link ObjectGate#enter}); looking a few times tells it from a running
     * call.
     */
    private static boolean idleNow(ObjectGate gate) {
        for (int look = 0; look < 64; look++) {
            if (gate.running() == 0) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }
}
