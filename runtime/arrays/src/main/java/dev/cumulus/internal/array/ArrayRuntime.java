package dev.cumulus.internal.array;

import dev.cumulus.Barrier;
import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.SharedDouble;
import dev.cumulus.SharedLong;
import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.SharedDoubleArray;
import dev.cumulus.array.SharedFloatArray;
import dev.cumulus.array.SharedIntArray;
import dev.cumulus.array.SharedLongArray;
import dev.cumulus.internal.capability.ArrayCapability;
import dev.cumulus.internal.codec.BytesView;
import dev.cumulus.internal.node.NodeServices;
import dev.cumulus.internal.rpc.RemoteInvocationHandler;
import dev.cumulus.internal.sched.Scheduler;
import jdk.jfr.FlightRecorder;

import java.lang.reflect.Array;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The shared-array capability of one node: this node's views and coherence state of every shared array, the
 * directories of the partitions it is home to, the registry of the array names that hash to it, the roots of the
 * barriers that hash to it, and the shared scalars it holds. Created at node start from {@code NodeServices} by
 * {@link ArraysProvider}; the {@code Cluster} reaches it as its {@link ArrayCapability}.
 *
 * <p>Threads: user threads (hits; a miss polls the node's duty cycle briefly, then parks on the access's future);
 * polling threads (incoming coherence messages); RPC call threads (barrier arrivals, scalar operations, a coherence
 * message for an array not yet known here); the agent thread (only {@link #onNodeFailure}, which hands off to a virtual
 * thread). Messages to this node's own directories run on the sending thread.
 */
public final class ArrayRuntime implements ArrayCapability, AutoCloseable {
    private static final Set<ArrayRuntime> LIVE = Collections.synchronizedSet(
        Collections.newSetFromMap(new WeakHashMap<>()));
    private static final Method DELIVER;

    static {
        try {
            DELIVER = ArrayService.class.getMethod("deliver", BytesView.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
        try {
            FlightRecorder.addPeriodicEvent(ArrayEvents.Summary.class, ArrayRuntime::emitSummaries);
        } catch (RuntimeException | LinkageError e) {
            // a JVM without Flight Recorder: no summaries, everything else works
        }
    }

    private record Registered(ArraySpec spec, int node) {
    }

    private final NodeServices node;
    private final int self;
    private final int size;
    private final Map<String, ArrayView> arrays = new ConcurrentHashMap<>();
    private final Map<String, Registered> registry = new ConcurrentHashMap<>();
    private final Map<String, NodeBarrier> barriers = new ConcurrentHashMap<>();
    private final Map<String, BarrierRoot> barrierRoots = new ConcurrentHashMap<>();
    private final Scalars scalars = new Scalars();
    private final AtomicReferenceArray<ArrayService> services;
    private final AtomicReferenceArray<RemoteInvocationHandler> handlers;
    private final Set<CompletableFuture<?>> pendingAsync = ConcurrentHashMap.newKeySet();
    private final ExecutorService async = Executors.newVirtualThreadPerTaskExecutor();
    private final Duration barrierTimeout;
    private volatile NodeFailedException failure;

    public ArrayRuntime(NodeServices node) {
        this.node = node;
        this.self = node.nodeId();
        this.size = node.size();
        this.services = new AtomicReferenceArray<>(size);
        this.handlers = new AtomicReferenceArray<>(size);
        this.barrierTimeout = node.settings().barrierTimeout();
        node.exportSystem(NodeServices.ARRAYS_ID, new Server(), ArrayService.class);
        node.onNodeFailure(this::onNodeFailure);
        LIVE.add(this);
    }

    // ---------------------------------------------------------------- public entry points (NodeCluster)

    @Override
    public SharedDoubleArray sharedDoubleArray(String name, ArrayShape shape) {
        return (SharedDoubleArray) array(ArraySpec.of(name, ElementKind.DOUBLE, shape, size));
    }

    @Override
    public SharedFloatArray sharedFloatArray(String name, ArrayShape shape) {
        return (SharedFloatArray) array(ArraySpec.of(name, ElementKind.FLOAT, shape, size));
    }

    @Override
    public SharedLongArray sharedLongArray(String name, ArrayShape shape) {
        return (SharedLongArray) array(ArraySpec.of(name, ElementKind.LONG, shape, size));
    }

    @Override
    public SharedIntArray sharedIntArray(String name, ArrayShape shape) {
        return (SharedIntArray) array(ArraySpec.of(name, ElementKind.INT, shape, size));
    }

    /** A tree-structured cluster barrier with {@code localThreads} member threads on this node. */
    @Override
    public Barrier barrier(String name, int localThreads) {
        return barrier(name, localThreads, NodeBarrier.Mode.TREE);
    }

    /** A centralized cluster barrier (every thread talks to the root): the benchmark's baseline. */
    public Barrier centralizedBarrier(String name, int localThreads) {
        return barrier(name, localThreads, NodeBarrier.Mode.CENTRAL);
    }

    /** A barrier for {@code threads} threads of this node only. */
    @Override
    public Barrier localBarrier(String name, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("local barrier '" + name + "': needs at least 1 thread, not "
                + threads);
        }
        return barrier("local:" + name, threads, NodeBarrier.Mode.LOCAL);
    }

    @Override
    public SharedLong sharedLong(String name) {
        int home = scalarHome(name);
        scalar(home, name, false, Scalars.DECLARE, 0, 0);
        return new Scalars.LongView(this, name, home);
    }

    @Override
    public SharedDouble sharedDouble(String name) {
        int home = scalarHome(name);
        scalar(home, name, true, Scalars.DECLARE, 0, 0);
        return new Scalars.DoubleView(this, name, home);
    }

    /** Read misses of {@code array} on this node so far (tests and benchmarks). */
    public long readMisses(String array) {
        ArrayView v = arrays.get(array);
        return v == null ? 0 : v.readMisses.sum();
    }

    /** Write misses of {@code array} on this node so far (tests and benchmarks). */
    public long writeMisses(String array) {
        ArrayView v = arrays.get(array);
        return v == null ? 0 : v.writeMisses.sum();
    }

    // ---------------------------------------------------------------- arrays

    private ArrayView array(ArraySpec spec) {
        spec.validate();
        checkUsable();
        ArrayView v = arrays.get(spec.name());
        if (v == null) {
            ArraySpec registered = service(registryOf(spec.name())).register(spec, self);
            v = arrays.computeIfAbsent(spec.name(), n -> newView(registered));
        }
        if (!v.spec().equals(spec)) {
            throw mismatch(v.spec(), -1, spec, self);
        }
        return v;
    }

    private ArrayView newView(ArraySpec spec) {
        ArrayCoherence c = new ArrayCoherence(new Geometry(spec, size), self, System::nanoTime, new Observer());
        return switch (spec.kind()) {
            case DOUBLE -> new DoubleArrayView(this, c);
            case FLOAT -> new FloatArrayView(this, c);
            case LONG -> new LongArrayView(this, c);
            case INT -> new IntArrayView(this, c);
        };
    }

    private ArrayView viewFor(String name) {
        ArrayView v = arrays.get(name);
        if (v == null) {
            ArraySpec spec = service(registryOf(name)).spec(name);
            v = arrays.computeIfAbsent(name, n -> newView(spec));
        }
        return v;
    }

    private static CumulusException mismatch(ArraySpec first, int firstNode, ArraySpec other, int otherNode) {
        return new CumulusException("shared array '" + first.name() + "' was created as " + first.describe()
            + (firstNode >= 0 ? " by node " + firstNode : "") + ", but node " + otherNode + " asks for "
            + other.describe() + "; every node must create it with the same element type, shape, partition size "
            + "and distribution");
    }

    int registryOf(String name) {
        return Math.floorMod(name.hashCode(), size);
    }

    int self() {
        return self;
    }

    Duration barrierTimeout() {
        return barrierTimeout;
    }

    // ---------------------------------------------------------------- accesses (slow path)

    Object access(ArrayView v, int p, Access a, Function<Object, Object> body) {
        Op op = start(v, p, a, body);
        try {
            if (!op.future.isDone()) {
                // the grant's message then needs no wake-up to reach this thread
                node.scheduler().pollBriefly(op.future::isDone, Scheduler.Awaited.OTHER);
            }
            return op.future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("shared array '" + v.name() + "': interrupted while waiting for partition "
                + p + " from node " + v.homeOf(p), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof NodeFailedException nf) {
                throw new NodeFailedException(nf.nodeId(), nf.getMessage());
            }
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new CumulusException("shared array '" + v.name() + "': " + e.getCause(), e.getCause());
        }
    }

    CompletableFuture<Object> accessAsync(ArrayView v, int p, Access a, Function<Object, Object> body) {
        Op op = start(v, p, a, body);
        track(op.future);
        // the caller's callbacks run on a thread of ours, never on the polling thread that completed the access
        return op.future.thenApplyAsync(Function.identity(), async);
    }

    private Op start(ArrayView v, int p, Access a, Function<Object, Object> body) {
        NodeFailedException f = failure;
        if (f != null) {
            throw new NodeFailedException(f.nodeId(), "shared array '" + v.name() + "': " + f.getMessage());
        }
        Op op = new Op(a, body, System.nanoTime());
        Effects fx = new Effects();
        v.entries[p].access(op, fx);
        run(fx);
        op.future.whenComplete((r, e) -> {
            if (op.hops > 0) {
                recordMiss(v, p, op);
            }
        });
        return op;
    }

    private void recordMiss(ArrayView v, int p, Op op) {
        (op.access == Access.READ ? v.readMisses : v.writeMisses).increment();
        ArrayEvents.Miss e = new ArrayEvents.Miss();
        if (e.isEnabled()) {
            e.begin();
            e.end();
            e.node = self;
            e.array = v.name();
            e.partition = p;
            e.home = v.entries[p].home;
            e.kind = op.access == Access.READ ? "read" : "write";
            e.hops = op.hops;
            e.bytes = op.receivedBytes;
            e.set(1, op.startNs);
            e.commit();
        }
    }

    <T> CompletableFuture<T> async(Supplier<T> task) {
        CompletableFuture<T> f = CompletableFuture.supplyAsync(task, async);
        track(f);
        return f.copy();
    }

    private void track(CompletableFuture<?> f) {
        if (!f.isDone()) {
            pendingAsync.add(f);
            f.whenComplete((r, e) -> pendingAsync.remove(f));
        }
    }

    /** Waits (until {@code deadlineNs}) for this node's asynchronous accesses, so a barrier covers them. */
    void flushAsync(long deadlineNs) {
        for (CompletableFuture<?> f : new ArrayList<>(pendingAsync)) {
            try {
                f.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CumulusException("interrupted while a barrier waited for asynchronous array accesses", e);
            } catch (ExecutionException e) {
                // the access's own future reports its failure to whoever started it
            } catch (TimeoutException e) {
                throw new CumulusException("a barrier on node " + self + " timed out waiting for this node's "
                    + pendingAsync.size() + " asynchronous shared-array accesses to complete");
            }
        }
    }

    // ---------------------------------------------------------------- sending

    /** Sends what a protocol step produced; messages to this node run here, in a loop (no recursion). */
    private void run(Effects fx) {
        ArrayDeque<CoherenceMessage> local = null;
        Effects current = fx;
        while (true) {
            for (Op op : current.completed) {
                op.finish();
            }
            for (Effects.Send s : current.sends) {
                if (s.node() == self) {
                    if (local == null) {
                        local = new ArrayDeque<>();
                    }
                    local.add(s.message());
                } else {
                    sendRemote(s.node(), s.message());
                }
            }
            if (local == null || local.isEmpty()) {
                return;
            }
            CoherenceMessage m = local.poll();
            current = new Effects();
            arrays.get(m.array()).coherence.handle(m, current);
        }
    }

    private void sendRemote(int dest, CoherenceMessage m) {
        Object data = switch (m) {
            case CoherenceMessage.Grant g -> g.data();
            case CoherenceMessage.ForwardReply r -> r.data();
            default -> null;
        };
        if (data != null) {
            ArrayView v = arrays.get(m.array());
            v.bytesMoved.add((long) Array.getLength(data) * v.spec().kind().bytes);
        }
        try {
            // the target reports its own failure to handle it
            // written straight into the call's buffer: a grant's partition is copied once on its way out
            handler(dest).sendOneWay(DELIVER, new Object[] {CoherenceWire.encoder(m)});
        } catch (RuntimeException e) {
            onSendFailure(dest, m, e);
        }
    }

    private void onSendFailure(int dest, CoherenceMessage m, Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null
            ? e.getCause() : e;
        if (cause instanceof NodeFailedException || failure != null) {
            return; // the failure listener reports it to every caller
        }
        node.fail("shared arrays: node " + self + " could not deliver " + m.getClass().getSimpleName() + " for array '"
            + m.array() + "' partition " + m.partition() + " to node " + dest + ": " + cause);
    }

    ArrayService service(int target) {
        ArrayService s = services.get(target);
        if (s == null) {
            s = node.systemProxy(target, NodeServices.ARRAYS_ID, ArrayService.class);
            InvocationHandler h = Proxy.getInvocationHandler(s);
            if (h instanceof RemoteInvocationHandler r && r.timeoutNs() != 0) {
                s = (ArrayService) Proxy.newProxyInstance(ArrayService.class.getClassLoader(),
                    new Class<?>[] {ArrayService.class}, r.withTimeout(0));
            }
            services.compareAndSet(target, null, s);
            s = services.get(target);
        }
        return s;
    }

    private RemoteInvocationHandler handler(int target) {
        RemoteInvocationHandler h = handlers.get(target);
        if (h == null) {
            h = (RemoteInvocationHandler) Proxy.getInvocationHandler(service(target));
            handlers.compareAndSet(target, null, h);
        }
        return h;
    }

    // ---------------------------------------------------------------- barriers and scalars

    private Barrier barrier(String name, int localThreads, NodeBarrier.Mode mode) {
        checkName(name, "barrier");
        if (localThreads < 0) {
            throw new IllegalArgumentException("barrier '" + name + "': " + localThreads + " threads; give 0 or more");
        }
        checkUsable();
        NodeBarrier b = barriers.get(name);
        if (b == null) {
            int root = Math.floorMod(name.hashCode() * 31 + 7, size);
            if (mode != NodeBarrier.Mode.LOCAL) {
                service(root).barrierJoin(name, self, localThreads, mode == NodeBarrier.Mode.TREE);
            }
            b = barriers.computeIfAbsent(name, n -> new NodeBarrier(this, name, localThreads, mode, root));
        }
        if (b.localThreads() != localThreads || b.mode() != mode) {
            throw new CumulusException("barrier '" + name + "' exists on node " + self + " as a " + b.mode()
                + " barrier with " + b.localThreads() + " threads; it cannot also be a " + mode + " barrier with "
                + localThreads + " threads");
        }
        return b;
    }

    private int scalarHome(String name) {
        checkName(name, "shared scalar");
        checkUsable();
        return Math.floorMod(name.hashCode() * 17 + 3, size);
    }

    private static void checkName(String name, String what) {
        if (name == null) {
            throw new NullPointerException(what + " name is null; name every " + what);
        }
        if (name.isEmpty()) {
            throw new IllegalArgumentException(what + " name is empty; name every " + what);
        }
    }

    long scalar(int home, String name, boolean isDouble, int op, long a, long b) {
        if (home == self) {
            return scalars.apply(name, isDouble, op, a, b);
        }
        return service(home).scalar(name, isDouble, op, a, b);
    }

    // ---------------------------------------------------------------- failure

    private void checkUsable() {
        NodeFailedException f = failure;
        if (f != null) {
            throw new NodeFailedException(f.nodeId(), f.getMessage());
        }
    }

    private void onNodeFailure(int failed, String reason) {
        Thread.ofVirtual().name("cumulus-arrays-failure-" + self).start(() -> failAll(failed, reason));
    }

    private void failAll(int failed, String reason) {
        TreeSet<String> affected = new TreeSet<>();
        for (ArrayView v : arrays.values()) {
            for (int p = 0; p < v.partitions(); p++) {
                HomeDirectory d = v.coherence.directories[p];
                if (v.homeOf(p) == failed || (d != null && (d.owner() == failed || d.sharers().get(failed)))) {
                    affected.add("'" + v.name() + "'");
                    break;
                }
            }
        }
        String arraysPart = affected.isEmpty() ? "no shared array had partitions there"
            : "shared arrays affected (partitions homed or owned there): " + String.join(", ", affected);
        NodeFailedException f = new NodeFailedException(failed, "node " + failed + " failed (" + reason
            + "); " + arraysPart + "; the cluster is fail-stop");
        if (failure == null) {
            failure = f;
        }
        for (ArrayView v : arrays.values()) {
            NodeFailedException forArray = new NodeFailedException(failed, "shared array '" + v.name() + "': "
                + f.getMessage());
            Effects fx = new Effects();
            for (CacheEntry e : v.entries) {
                e.fail(forArray, fx);
            }
            for (Op op : fx.completed) {
                op.finish();
            }
        }
        barriers.values().forEach(b -> b.fail(f));
        barrierRoots.values().forEach(b -> b.fail(f));
    }

    // ---------------------------------------------------------------- JFR

    private final class Observer implements HomeDirectory.Observer {
        @Override
        public void invalidated(String array, int partition, int sharers, long durationNs) {
            ArrayView v = arrays.get(array);
            if (v != null) {
                v.invalidations.add(sharers);
            }
            ArrayEvents.Invalidation e = new ArrayEvents.Invalidation();
            if (e.shouldCommit()) {
                e.node = self;
                e.array = array;
                e.partition = partition;
                e.sharers = sharers;
                e.durationNs = durationNs;
                e.commit();
            }
        }

        @Override
        public void ownershipMoved(String array, int partition, int from, int to) {
            ArrayEvents.Ownership e = new ArrayEvents.Ownership();
            if (e.shouldCommit()) {
                e.node = self;
                e.array = array;
                e.partition = partition;
                e.from = from;
                e.to = to;
                e.commit();
            }
        }
    }

    private static void emitSummaries() {
        List<ArrayRuntime> runtimes;
        synchronized (LIVE) {
            runtimes = new ArrayList<>(LIVE);
        }
        for (ArrayRuntime r : runtimes) {
            for (ArrayView v : r.arrays.values()) {
                long hits = v.hits;
                long reads = v.readMisses.sum();
                long writes = v.writeMisses.sum();
                long bytes = v.bytesMoved.sum();
                long inv = v.invalidations.sum();
                ArrayEvents.Summary s = new ArrayEvents.Summary();
                s.node = r.self;
                s.array = v.name();
                s.hits = hits - v.reportedHits;
                s.readMisses = reads - v.reportedReadMisses;
                s.writeMisses = writes - v.reportedWriteMisses;
                s.bytesMoved = bytes - v.reportedBytes;
                s.invalidations = inv - v.reportedInvalidations;
                v.reportedHits = hits;
                v.reportedReadMisses = reads;
                v.reportedWriteMisses = writes;
                v.reportedBytes = bytes;
                v.reportedInvalidations = inv;
                if (s.hits != 0 || s.readMisses != 0 || s.writeMisses != 0 || s.bytesMoved != 0
                    || s.invalidations != 0) {
                    s.commit();
                }
            }
        }
    }

    @Override
    public void close() {
        LIVE.remove(this);
        async.shutdownNow();
    }

    // ---------------------------------------------------------------- server

    /** Serves the other nodes; {@link #deliver} is {@link dev.cumulus.internal.rpc.Brief} (runs on the polling thread). */
    private final class Server implements ArrayService {
        @Override
        public void deliver(BytesView message) {
            String name;
            try {
                name = CoherenceWire.arrayName(message);
            } catch (RuntimeException e) {
                fail(e);
                return;
            }
            ArrayView v = arrays.get(name);
            if (v == null) {
                // the array's spec must be asked for first, a blocking call: not on the polling thread
                try {
                    async.execute(() -> handle(message, name, null));
                } catch (RuntimeException e) {
                    fail(e); // closing
                }
            } else {
                handle(message, name, v);
            }
        }

        /** Runs one coherence message; a failure ends the run (the sender is not waiting to hear of it). */
        private void handle(BytesView bytes, String name, ArrayView known) {
            try {
                ArrayView v = known != null ? known : viewFor(name);
                CoherenceMessage m = CoherenceWire.decode(bytes, v.spec(), v.geometry.blockLength, size);
                Effects fx = new Effects();
                v.coherence.handle(m, fx);
                run(fx);
            } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                fail(e);
            }
        }

        private void fail(Throwable e) {
            if (failure == null) {
                node.fail("shared arrays: node " + self + " could not handle a coherence message: "
                    + (e.getMessage() != null ? e.getMessage() : e.toString()));
            }
        }

        @Override
        public ArraySpec register(ArraySpec spec, int from) {
            spec.validate();
            Registered r = registry.computeIfAbsent(spec.name(), n -> new Registered(spec, from));
            if (!r.spec().equals(spec)) {
                throw mismatch(r.spec(), r.node(), spec, from);
            }
            return r.spec();
        }

        @Override
        public ArraySpec spec(String name) {
            Registered r = registry.get(name);
            if (r == null) {
                throw new CumulusException("shared array '" + name + "' is not registered on node " + self
                    + "; a node sent a message for an array nobody created");
            }
            return r.spec();
        }

        @Override
        public void barrierJoin(String name, int from, int threads, boolean tree) {
            barrierRoots.computeIfAbsent(name, n -> new BarrierRoot(n, size)).join(from, threads, tree);
        }

        @Override
        public long barrierArrive(String name, int from, int weight, long timeoutNs) {
            return barrierRoots.computeIfAbsent(name, n -> new BarrierRoot(n, size)).arrive(from, weight, timeoutNs);
        }

        @Override
        public long scalar(String name, boolean isDouble, int op, long a, long b) {
            return scalars.apply(name, isDouble, op, a, b);
        }
    }
}
