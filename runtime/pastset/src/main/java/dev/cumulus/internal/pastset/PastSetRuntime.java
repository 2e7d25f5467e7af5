package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.capability.PastSetCapability;
import dev.cumulus.internal.codec.BytesView;
import dev.cumulus.internal.codec.PreEncodedBytes;
import dev.cumulus.internal.node.NodeServices;
import dev.cumulus.internal.rpc.DeferredReply;
import dev.cumulus.internal.rpc.RemoteInvocationHandler;
import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Placement;
import dev.cumulus.pastset.Semantics;
import dev.cumulus.pastset.Template;
import jdk.jfr.FlightRecorder;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * The PastSet capability of one node: the server for the elements this node holds (their {@link ElementState}s),
 * the first-touch directory for the keys it is responsible for, and the client side ({@link PastSet} spaces and
 * {@link dev.cumulus.pastset.Element} handles) its user threads call. Created at node start from
 * {@code NodeServices} by {@link PastSetProvider}; the {@code Cluster} reaches it as its {@link PastSetCapability}.
 *
 * <p>Threads: user threads (client calls, local fast path; a blocked one polls the node for a while, running the
 * remote operations its polls bring), polling threads (the brief remote operations: moves, observes, pointers,
 * DeltaValue, truncates, claims; they never block), RPC call threads (virtual; {@code observe(i)} and
 * {@code redefine}, which may block), the agent thread (only {@link #onNodeFailure}, which hands the work to a virtual
 * thread).
 */
public final class PastSetRuntime implements PastSetCapability, AutoCloseable {
    /** Every live runtime of this JVM, for the one periodic JFR hook (weak: ended nodes drop out). */
    private static final Set<PastSetRuntime> LIVE = Collections.synchronizedSet(
        Collections.newSetFromMap(new WeakHashMap<>()));

    static {
        try {
            FlightRecorder.addPeriodicEvent(PastSetSummaryEvent.class, PastSetRuntime::emitSummaries);
        } catch (RuntimeException | LinkageError e) {
            // a JVM without Flight Recorder: no summaries, everything else works
        }
    }

    private final NodeServices node;
    private final int self;
    private final int size;
    private final ClassLoader loader;
    private final TupleCodec codec;
    private final Map<String, ElementState> homed = new ConcurrentHashMap<>();
    private final Map<String, Integer> claims = new ConcurrentHashMap<>();
    private final Map<String, Integer> homes = new ConcurrentHashMap<>();
    private final Map<Integer, String> failedNodes = new ConcurrentHashMap<>();
    private final Map<String, CallerSequence> sequences = new ConcurrentHashMap<>();
    private final Map<String, RefusedMoves> refusedMoves = new ConcurrentHashMap<>();
    /** Completed when this node first hears of a failed node. */
    private final CompletableFuture<Void> firstFailure = new CompletableFuture<>();
    private final AtomicReferenceArray<PastSetService> services;
    private final Map<Placement, Space> spaces = new EnumMap<>(Placement.class);
    private final ExecutorService async = Executors.newVirtualThreadPerTaskExecutor();
    final LongAdder localOps = new LongAdder();
    final LongAdder remoteOps = new LongAdder();

    public PastSetRuntime(NodeServices node) {
        this.node = node;
        this.self = node.nodeId();
        this.size = node.size();
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        this.loader = l != null ? l : PastSetRuntime.class.getClassLoader();
        this.codec = new TupleCodec(loader);
        this.services = new AtomicReferenceArray<>(size);
        for (Placement p : Placement.values()) {
            spaces.put(p, new Space(this, p));
        }
        node.exportSystem(NodeServices.PASTSET_ID, new Server(), PastSetService.class);
        node.onNodeFailure(this::onNodeFailure);
        LIVE.add(this);
    }

    /** The default space (first-touch placement). */
    @Override
    public PastSet pastSet() {
        return pastSet(Placement.FIRST_TOUCH);
    }

    @Override
    public PastSet pastSet(Placement placement) {
        if (placement == null) {
            throw new CumulusException("pastSet(placement): placement is null; use one of "
                + Arrays.toString(Placement.values()));
        }
        return spaces.get(placement);
    }

    /** Operations that took the local fast path on this node (no message). For tests and benchmarks. */
    public long localOperations() {
        return localOps.sum();
    }

    /** Operations this node sent to another node's server. For tests and benchmarks. */
    public long remoteOperations() {
        return remoteOps.sum();
    }

    /** Calls blocked right now on the element of {@code template} held by this node (0 if it holds none). */
    public int waiting(Placement placement, Template template) {
        ElementState e = homed.get(id(placement, template));
        return e == null ? 0 : e.waiting();
    }

    // ---------------------------------------------------------------- client support (Space, ElementHandle)

    int self() {
        return self;
    }

    int size() {
        return size;
    }

    TupleCodec codec() {
        return codec;
    }

    ExecutorService async() {
        return async;
    }

    static String id(Placement placement, Template template) {
        return placement.name().toLowerCase(Locale.ROOT).replace('_', '-') + "/" + template.key();
    }

    /** {@code 'row(int,double[])' (round-robin space)} from an element id. */
    static String nameOf(String id) {
        int slash = id.indexOf('/');
        return slash < 0 ? "'" + id + "'" : "'" + id.substring(slash + 1) + "' (" + id.substring(0, slash) + " space)";
    }

    /** The element state on this node, created on first use. */
    ElementState state(String id, Template template) {
        ElementState e = homed.computeIfAbsent(id, k -> new ElementState(k, nameOf(k), template, codec, System::nanoTime,
            node.scheduler()));
        if (template != null) {
            e.knowTemplate(template);
        }
        return e;
    }

    /** The home of an element: computed (central, round robin) or agreed through its directory node (first touch). */
    int home(Placement placement, String id, String key) {
        return switch (placement) {
            case CENTRAL -> 0;
            case ROUND_ROBIN -> Math.floorMod(key.hashCode(), size);
            case FIRST_TOUCH -> {
                Integer known = homes.get(id);
                if (known != null) {
                    yield known;
                }
                int directory = Math.floorMod(key.hashCode() * 31 + 17, size);
                int home;
                if (directory == self) {
                    home = claims.computeIfAbsent(id, k -> self);
                } else {
                    String gone = failedNodes.get(directory);
                    if (gone != null) {
                        throw new NodeFailedException(directory, "cannot enter element " + nameOf(id)
                            + ": its first-touch directory node " + directory + " failed: " + gone);
                    }
                    try {
                        home = service(directory).claim(id, self);
                    } catch (NodeFailedException e) {
                        throw new NodeFailedException(e.nodeId(), "cannot enter element " + nameOf(id)
                            + ": its first-touch directory node " + directory + " failed: " + e.getMessage());
                    }
                }
                homes.putIfAbsent(id, home);
                yield home;
            }
        };
    }

    /** The server proxy of {@code node}, with no call timeout (blocked observes may wait as long as they need). */
    PastSetService service(int target) {
        PastSetService s = services.get(target);
        if (s == null) {
            s = node.systemProxy(target, NodeServices.PASTSET_ID, PastSetService.class);
            InvocationHandler h = Proxy.getInvocationHandler(s);
            if (h instanceof RemoteInvocationHandler r && r.timeoutNs() != 0) {
                s = (PastSetService) Proxy.newProxyInstance(PastSetService.class.getClassLoader(),
                    new Class<?>[] {PastSetService.class}, r.withTimeout(0));
            }
            services.compareAndSet(target, null, s);
            s = services.get(target);
        }
        return s;
    }

    private static final Method MOVE;
    private static final Method MOVE_FOR_INDEX;
    private static final Method OBSERVE;

    static {
        try {
            MOVE = PastSetService.class.getMethod("move", String.class, int.class, long.class, long.class,
                BytesView.class);
            MOVE_FOR_INDEX = PastSetService.class.getMethod("moveForIndex", String.class, int.class, long.class,
                long.class, BytesView.class);
            OBSERVE = PastSetService.class.getMethod("observe", String.class, int.class, long.class, long.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A remote move through {@code target}'s server proxy with the tuple as it goes on the wire: its bytes are written
     * into the call message as the {@code byte[]} the server reads a view of (a proxy's own signature would take it
     * as a {@code BytesView}, which only a receiver has).
     */
    MoveReply move(int target, String element, Semantics.Caller caller, PreEncodedBytes tuple) {
        InvocationHandler h = Proxy.getInvocationHandler(service(target));
        try {
            return (MoveReply) h.invoke(null, MOVE, new Object[] {element, caller.node(), caller.thread(), -1L, tuple});
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new CumulusException("move into element " + nameOf(element) + " failed: " + t, t);
        }
    }

    /**
     * An ordered remote move (number {@code seq}, see {@link PastSetService}) sent now by this thread, without waiting
     * for its reply (see {@link #move}): the future completes with the tuple's index (a {@code Long}, for
     * {@code forIndex}) or its {@code MoveReply}, or the failure, as an asynchronous call's does
     * ({@code RemoteInvocationHandler#invokeAsync}: by the thread that polls the reply when nothing is attached to the
     * future, else off the polling thread). Throws when the move was not sent.
     */
    CompletableFuture<Object> moveAsync(int target, String element, Semantics.Caller caller, long seq,
                                        PreEncodedBytes tuple, boolean forIndex) {
        return remoteProxy(target, element).invokeAsync(forIndex ? MOVE_FOR_INDEX : MOVE,
            new Object[] {element, caller.node(), caller.thread(), seq, tuple});
    }

    /** An ordered remote observe (number {@code seq}) sent now; its future completes with the Observed reply. */
    CompletableFuture<Object> observeAsync(int target, String element, Semantics.Caller caller, long seq) {
        return remoteProxy(target, element).invokeAsync(OBSERVE,
            new Object[] {element, caller.node(), caller.thread(), seq});
    }

    private RemoteInvocationHandler remoteProxy(int target, String element) {
        InvocationHandler h = Proxy.getInvocationHandler(service(target));
        if (!(h instanceof RemoteInvocationHandler r)) {
            throw new CumulusException("element " + nameOf(element) + ": node " + target
                + "'s PastSet server is not reached through a remote proxy here; ordered operations need one");
        }
        return r;
    }

    /** This node's ordered operations on the remote element {@code id} (one per element, shared by its handles). */
    CallerSequence sequence(String id) {
        return sequences.computeIfAbsent(id, k -> new CallerSequence());
    }

    /** The {@code moveAsync} failures on element {@code id} that wait for their thread's next operation. */
    RefusedMoves refusedMoves(String id) {
        return refusedMoves.computeIfAbsent(id, k -> new RefusedMoves());
    }

    /** Set when the node leaves the cluster ({@code Cluster.close()}, or its end): its elements take no operations. */
    private volatile boolean left;

    /** The node left the cluster: an operation on one of its own elements fails from now on, as a remote one does. */
    @Override
    public void close() {
        left = true;
    }

    /** Throws when this node has left the cluster: {@code element} (this node's) can no longer be used. */
    void checkOpen(String element) {
        if (left) {
            throw new CumulusException("element " + element + " cannot be used: node " + self + " has left the "
                + "cluster (Cluster.close() was called, or the node is ending); use the tuple space before closing the "
                + "cluster");
        }
    }

    /** Why {@code node} failed, or null. */
    String failure(int target) {
        return failedNodes.get(target);
    }

    /** The first node known to have failed, or -1. */
    int anyFailedNode() {
        return failedNodes.keySet().stream().mapToInt(Integer::intValue).min().orElse(-1);
    }

    /**
     * The first node known to have failed, waiting up to {@code waitMs} for this node to hear of one: a home may tell
     * a caller that a node failed (its reply) before the failure notice reaches the caller's node itself.
     */
    int failedNodeWithin(long waitMs) {
        int known = anyFailedNode();
        if (known >= 0) {
            return known;
        }
        try {
            firstFailure.get(waitMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return anyFailedNode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return anyFailedNode();
    }

    void redefine(Placement placement, Template template, Semantics semantics) {
        codec.allow(template);
        String id = id(placement, template);
        int home = home(placement, id, template.key());
        if (home == self) {
            checkOpen(id);
            localOps.increment();
            state(id, template).redefine(template, semantics, loader);
            return;
        }
        List<String> names = new ArrayList<>();
        for (Class<?> t : template.types()) {
            names.add(t.getName());
        }
        new ElementHandle(this, placement, template, id, home, null).remote("redefine", 0,
            () -> {
                service(home).redefine(id, template.tag(), names, semantics.className(), semantics.params());
                return null;
            });
    }

    // ---------------------------------------------------------------- failure

    private void onNodeFailure(int failed, String reason) {
        failedNodes.putIfAbsent(failed, reason);
        firstFailure.complete(null);
        String why = "node " + failed + " failed (" + reason + ") and the cluster is fail-stop";
        Thread.ofVirtual().name("cumulus-pastset-failure-" + self).start(() -> {
            for (ElementState e : homed.values()) {
                e.fail(failed, why);
            }
        });
    }

    // ---------------------------------------------------------------- JFR summary

    private static void emitSummaries() {
        List<PastSetRuntime> runtimes;
        synchronized (LIVE) {
            runtimes = new ArrayList<>(LIVE);
        }
        for (PastSetRuntime r : runtimes) {
            for (ElementState e : r.homed.values()) {
                ElementState.Summary s = e.drainSummary();
                if (!s.active()) {
                    continue;
                }
                PastSetSummaryEvent ev = new PastSetSummaryEvent();
                ev.node = r.self;
                ev.element = e.id();
                ev.moves = s.moves();
                ev.observes = s.observes();
                ev.remoteOperations = s.remoteOps();
                ev.blockedNs = s.blockedNs();
                ev.waiting = s.waiting();
                ev.first = s.first();
                ev.last = s.last();
                ev.distance = s.last() - s.first() + 1;
                ev.kept = s.kept();
                ev.commit();
            }
        }
    }

    // ---------------------------------------------------------------- server

    /**
     * Serves remote operations on the elements this node holds. The brief ones run on the thread that polled them
     * (the main thread, or a user's thread polling while it waits); the others where the RPC layer runs calls.
     */
    private final class Server implements PastSetService {
        @Override
        public MoveReply move(String element, int from, long thread, long seq, BytesView tuple) {
            return serveMove(element, from, thread, seq, tuple, this::moved);
        }

        @Override
        public Long moveForIndex(String element, int from, long thread, long seq, BytesView tuple) {
            return serveMove(element, from, thread, seq, tuple, ElementState.Outcome::index);
        }

        /**
         * When flow control holds the move, it waits without a thread (its reply is deferred): the observe that makes
         * room sends the reply from its own thread.
         */
        private <R> R serveMove(String element, int from, long thread, long seq, BytesView tuple,
                                Function<ElementState.Outcome, R> answer) {
            if (tuple == null) {
                throw new CumulusException("a move into element " + nameOf(element) + " from node " + from
                    + " carried no tuple");
            }
            ElementState e = state(element, null);
            StoredTuple t = StoredTuple.ofView(tuple);
            Semantics.Caller caller = new Semantics.Caller(from, thread);
            if (!DeferredReply.servingRemoteCall()) {
                if (seq < 0) {
                    return answer.apply(e.move(t, null, caller, true));
                }
                CompletableFuture<ElementState.Outcome> done = new CompletableFuture<>();
                ElementState.Outcome now = e.moveOrPark(t, caller, seq, true, done::complete,
                    done::completeExceptionally);
                return answer.apply(now != null ? now : joined(done));
            }
            DeferredReply reply = DeferredReply.defer();
            ElementState.Outcome now = e.moveOrPark(t, caller, seq, true, o -> reply.complete(answer.apply(o)),
                reply::fail);
            if (now != null) {
                reply.complete(answer.apply(now));
            }
            return null; // the deferred reply carries the result
        }

        /** The outcome of an operation served on this thread, which waits for it (its failure thrown as it came). */
        private ElementState.Outcome joined(CompletableFuture<ElementState.Outcome> done) {
            try {
                return done.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                throw e;
            }
        }

        private MoveReply moved(ElementState.Outcome o) {
            return new MoveReply(o.index(), o.blockedNs());
        }

        /**
         * When there is no tuple yet, the observe waits without a thread (its reply is deferred): the move that
         * brings the tuple sends the reply from its own thread.
         */
        @Override
        public byte[] observe(String element, int from, long thread, long seq) {
            ElementState e = state(element, null);
            Semantics.Caller caller = new Semantics.Caller(from, thread);
            if (!DeferredReply.servingRemoteCall()) {
                if (seq < 0) {
                    return observed(e, e.observe(caller, true)).toArray();
                }
                CompletableFuture<ElementState.Outcome> done = new CompletableFuture<>();
                ElementState.Outcome now = e.observeOrPark(caller, seq, done::complete, done::completeExceptionally);
                return observed(e, now != null ? now : joined(done)).toArray();
            }
            DeferredReply reply = DeferredReply.defer();
            ElementState.Outcome now = e.observeOrPark(caller, seq, o -> reply.complete(observed(e, o)), reply::fail);
            if (now != null) {
                reply.complete(observed(e, now));
            }
            return null; // the deferred reply carries the result
        }

        /** The reply, sent at once: it may read this thread's encoding buffer. */
        private Observed.Frame observed(ElementState e, ElementState.Outcome o) {
            return codec.reply(o.index(), o.blockedNs(), o.tuple(), e.name());
        }

        /** Replies through the deferred reply: the tuple goes into the reply message with no array of its own. */
        @Override
        public byte[] observeAt(String element, long index) {
            ElementState e = state(element, null);
            Observed.Frame frame = observed(e, e.observeAt(index, true));
            if (!DeferredReply.servingRemoteCall()) {
                return frame.toArray();
            }
            DeferredReply.defer().complete(frame);
            return null; // the deferred reply carries the result
        }

        @Override
        public long[] pointers(String element) {
            return state(element, null).pointers();
        }

        @Override
        public void delta(String element, long k) {
            state(element, null).delta(k);
        }

        @Override
        public void truncate(String element, long index) {
            state(element, null).truncate(index);
        }

        @Override
        public void redefine(String element, String tag, List<String> typeNames, String className,
                             List<String> params) {
            Template t = loadTemplate(element, tag, typeNames);
            Semantics s = className.isEmpty() ? Semantics.standard()
                : Semantics.custom(className, params.toArray(String[]::new));
            state(element, t).redefine(t, s, loader);
        }

        @Override
        public int claim(String element, int from) {
            if (from < 0 || from >= size) {
                throw new CumulusException("claim from node " + from + ", outside 0.." + (size - 1));
            }
            return claims.computeIfAbsent(element, k -> from);
        }
    }

    private static final Map<String, Class<?>> PRIMITIVES = Map.of("int", int.class, "long", long.class,
        "double", double.class, "float", float.class, "short", short.class, "byte", byte.class, "char", char.class,
        "boolean", boolean.class);

    private Template loadTemplate(String element, String tag, List<String> typeNames) {
        Class<?>[] types = new Class<?>[typeNames.size()];
        for (int i = 0; i < types.length; i++) {
            String n = typeNames.get(i);
            Class<?> p = PRIMITIVES.get(n);
            if (p != null) {
                types[i] = p;
                continue;
            }
            try {
                types[i] = Class.forName(n, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new CumulusException("element " + nameOf(element) + ": its template type " + n
                    + " is not on node " + self + "'s classpath; every node must run the same classes");
            }
        }
        Template template = Template.of(tag, types);
        codec.allow(template); // a template another node entered: its tuples are stored and decoded here
        return template;
    }
}
