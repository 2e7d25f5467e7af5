package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.RemoteTimeoutException;
import dev.cumulus.internal.codec.CodecLimits;
import dev.cumulus.internal.codec.ReferenceHandler;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.codec.ValueCodec;
import dev.cumulus.internal.codec.ValueReader;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import dev.cumulus.internal.order.BarrierWatermark;
import dev.cumulus.internal.rpc.PendingCall.Reply;
import dev.cumulus.internal.sched.Scheduler;
import jdk.jfr.Event;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * Remote method calls between nodes: the client side here (pending calls, replies, timeouts, failed nodes, the
 * asynchronous calls' answers), the serving side in {@link CallServer} (an incoming call runs on the node's main thread
 * right after the poll that brought it, or on a virtual thread of its own when it blocks or runs long, so such a call
 * never holds up others; its reply may come later, {@link DeferredReply}), calls to this node's own objects in
 * {@link LocalCalls}.
 *
 * <p>Wire format (docs/design/WIRE.md): a call is a {@link CallHeaderFlyweight} and the arguments, a reply or an error
 * a {@link ReplyHeaderFlyweight} and the value or throwable, in {@link ValueCodec}; anything else is dropped.
 * {@code pollsUntilNs} is the caller's promise to poll for the reply until then, so a reply sent earlier rings no
 * doorbell ({@link CallServer#ringAfterReply}). {@code applied} is the sender's replicated-write watermark
 * ({@link BarrierWatermark#covered}); the receiver applies writes up to it before it runs the call or returns the
 * reply, so calls, replies and replicated writes are causally ordered.
 *
 * <p>Threads: {@link #onData} runs on the polling thread; it copies bytes, completes futures and decodes only simple
 * values ({@link ValueCodec#readSimple}: no program code runs). Everything else is decoded on the caller's thread
 * (replies) or where the call runs: inline after the poll when the {@link Scheduler} takes it, else on a virtual
 * thread of its own.
 */
public final class RpcEngine implements ReferenceHandler, AutoCloseable {
    /** Where a call's arguments start. */
    static final int CALL_HEADER = CallHeaderFlyweight.LENGTH;
    /** The call id of a one-way call: the target sends no reply. */
    static final long ONE_WAY = 0;
    /** Where an answer's value starts. */
    static final int REPLY_HEADER = ReplyHeaderFlyweight.LENGTH;

    /** Sends messages on the data channel. */
    @FunctionalInterface
    public interface DataSender {
        /** Sends one message to {@code destination}, waiting out back-pressure; it does not ring its doorbell. */
        void send(int destination, DirectBuffer buffer, int offset, int length);

        /** Wakes {@code node} if it sleeps on its doorbell (co-located nodes; nothing elsewhere). */
        default void ring(int node) {
        }

        /** A standing cluster's client attached over UDP: where it receives, and its session (the transport's). */
        default void clientAttached(int client, String endpoint, byte[] session) {
        }
    }

    private final int self;
    /** The cluster's nodes ({@code 0..servers-1}); higher ids are clients of a standing cluster. */
    private final int servers;
    /** What serves a standing cluster's clients here: which of their calls run, whose objects run for whom. */
    private volatile ClientService clients = ClientService.NONE;
    /** On a standing cluster's client, its window of calls outstanding per server; null elsewhere. */
    private volatile ClientWindow window;
    private final DataSender sender;
    private final ValueCodec codec;
    private final ClassLoader loader;
    private final ExportTable exports;
    private final PendingCalls pending = new PendingCalls();
    private final AtomicLong nextCallId = new AtomicLong();
    private final AtomicReferenceArray<String> goneNodes;
    /** The node whose failure ended the cluster, or -1: then every node counts as gone, for that reason. */
    private volatile int clusterFailedBy = -1;
    private final ExecutorService callThreads;
    /** The serving side: incoming calls, their answers, deferred replies. */
    private final CallServer server;
    /** Calls to objects of this node through their proxies. */
    final LocalCalls local;
    private final ThreadLocal<CallerState> callers = ThreadLocal.withInitial(() -> new CallerState(nextCallId));
    /** Asynchronous calls answered, waiting for their futures to be completed off the polling thread. */
    private final AsyncReplies asyncReplies = new AsyncReplies(this::completeAsync, this::startOrRun,
        this::pollForAnswer);

    /** What a thread keeps between the calls it makes and the replies it sends: one thread-local look-up per call. */
    static final class CallerState {
        /** Call ids a thread takes from the engine's counter at a time: no atomic update per call. */
        static final int IDS_AT_A_TIME = 256;
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256);
        /** The headers of the calls and answers this thread sends, over {@link #buffer}. */
        final CallHeaderFlyweight callOut = new CallHeaderFlyweight().wrap(buffer, 0);
        final ReplyHeaderFlyweight replyOut = new ReplyHeaderFlyweight().wrap(buffer, 0);
        /** The headers of the messages this thread receives (as it polls) or decodes. */
        final CallHeaderFlyweight callIn = new CallHeaderFlyweight();
        final ReplyHeaderFlyweight replyIn = new ReplyHeaderFlyweight();
        /** The thread whose state this is (a thread-local's initial value is made on its thread). */
        final Thread thread = Thread.currentThread();
        private final AtomicLong engineIds;
        private long nextId;
        private long idLimit;
        /** When this thread last sent a call it polls for (the clock read right after the send), or 0. */
        private long lastSentNs;
        /** The id of the last asynchronous call this thread started, or 0 (ids count up per thread). */
        private long lastAsyncCallId;
        /** The gates of the objects whose methods this thread runs, innermost last (nested local calls). */
        private ObjectGate[] running = new ObjectGate[4];
        /**
         * Per entry of {@link #running}: the node of the remote call it serves (a nested local call inherits its
         * enclosing call's), or -1; and that caller's promise to poll ({@code pollsUntilNs}), or 0 for none.
         */
        private int[] servedFrom = new int[4];
        private long[] callerPollsUntilNs = new long[4];
        private int depth;

        CallerState(AtomicLong engineIds) {
            this.engineIds = engineIds;
        }

        /** A call id no other call of this engine has (never {@link #ONE_WAY}). */
        long newCallId() {
            if (nextId == idLimit) {
                nextId = engineIds.getAndAdd(IDS_AT_A_TIME) + 1;
                idLimit = nextId + IDS_AT_A_TIME;
            }
            return nextId++;
        }

        /** A nested local call enters {@code gate}: it serves the remote call its thread serves, if any. */
        void entered(ObjectGate gate) {
            entered(gate, depth == 0 ? -1 : servedFrom[depth - 1], depth == 0 ? 0 : callerPollsUntilNs[depth - 1]);
        }

        /**
         * A call from {@code source} enters {@code gate}; {@code pollsUntilNs} is its caller's promise to poll for the
         * answer (0: none, or the answer may come from another thread: {@link #callerPolls}).
         */
        void entered(ObjectGate gate, int source, long pollsUntilNs) {
            if (depth == running.length) {
                running = Arrays.copyOf(running, depth * 2);
                servedFrom = Arrays.copyOf(servedFrom, depth * 2);
                callerPollsUntilNs = Arrays.copyOf(callerPollsUntilNs, depth * 2);
            }
            servedFrom[depth] = source;
            callerPollsUntilNs[depth] = pollsUntilNs;
            running[depth++] = gate;
        }

        void left() {
            running[--depth] = null;
        }

        /** See {@link RpcEngine#callerPolls}. */
        boolean callerPolls(int node, long nowNs) {
            return depth > 0 && servedFrom[depth - 1] == node && callerPollsUntilNs[depth - 1] != 0
                && !CallServer.ringAfterReply(callerPollsUntilNs[depth - 1], nowNs);
        }

        /** Whether this thread serves a call from another node (perhaps under nested local calls). */
        boolean servesRemoteCall() {
            return depth > 0 && servedFrom[depth - 1] >= 0;
        }

        /** Whether this thread runs a method of the object behind {@code gate} (perhaps under a nested call). */
        boolean runs(ObjectGate gate) {
            for (int i = 0; i < depth; i++) {
                if (running[i] == gate) {
                    return true;
                }
            }
            return false;
        }
    }
    private final long defaultTimeoutNs;
    private volatile Scheduler scheduler = Scheduler.NONE;
    private volatile ReferenceHandler localReferences = ReferenceHandler.NONE;
    private volatile BarrierWatermark causality = BarrierWatermark.NONE;

    /**
     * @param defaultTimeoutNs timeout of calls through new proxies; 0 waits as long as the target node lives
     */
    public RpcEngine(int self, int size, DataSender sender, ClassLoader loader, long defaultTimeoutNs) {
        this(self, size, size, sender, loader, defaultTimeoutNs);
    }

    /**
     * An engine of a standing cluster's server or client: nodes {@code 0..size-1} are the servers, the ids up to
     * {@code capacity - 1} its clients'. A server runs a client's calls only as its {@link #clientService} admits
     * them.
     */
    public RpcEngine(int self, int size, int capacity, DataSender sender, ClassLoader loader, long defaultTimeoutNs) {
        this.servers = size;
        this.self = self;
        this.sender = sender;
        this.loader = loader;
        this.defaultTimeoutNs = defaultTimeoutNs;
        this.goneNodes = new AtomicReferenceArray<>(capacity);
        this.codec = new ValueCodec(this, loader, CodecLimits.DEFAULTS);
        this.callThreads = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("cumulus-call-" + self + "-", 0).factory());
        this.exports = new ExportTable(self, this::migrations);
        this.server = new CallServer(this, self, size, sender, codec, exports, this::startCallThread);
        this.local = new LocalCalls(this, self, exports, codec);
    }

    public int nodeId() {
        return self;
    }

    // ---------------------------------------------------------------- exporting

    /** Serves {@code target} under a fresh object id; returns its reference. */
    public RemoteRef export(Object target, Class<?> iface, String name) {
        return export(target, iface, name, null);
    }

    /**
     * Serves {@code target} under a fresh object id, reachable by a standing cluster's clients as {@code rule} says
     * (null: the cluster's own object, which every admitted client reaches); returns its reference.
     */
    RemoteRef export(Object target, Class<?> iface, String name, AccessRule rule) {
        allowSignatures(target.getClass(), iface);
        ExportTable.Exported e = exports.add(target, iface, name, rule);
        return new RemoteRef(self, e.objectId(), iface.getName());
    }

    /** Serves a system service under a fixed id (below {@link ExportTable#FIRST_USER_ID}). */
    public void exportSystem(long objectId, Object target, Class<?> iface) {
        allowSignatures(target.getClass(), iface);
        exports.addSystem(objectId, target, iface, "cumulus." + iface.getSimpleName());
    }

    /**
     * Puts the classes of an exported interface's signatures on the codec's allow-list, and the type arguments the
     * implementation gives its generic supertypes ({@code Impl implements Worker<Point>}).
     */
    public void allowSignatures(Class<?> implementation, Class<?> iface) {
        codec.allowList().allowSignatures(iface);
        codec.allowList().allowSignatures(implementation);
    }

    // ---------------------------------------------------------------- for migrations (runtime/migration)

    /** Moves objects of this node elsewhere and takes in others' ({@code Remote.migrate}). */
    private volatile ObjectMover migrations;

    void migrations(ObjectMover migrations) {
        this.migrations = migrations;
    }

    ObjectMover migrations() {
        ObjectMover m = migrations;
        if (m == null) {
            throw new IllegalStateException("node " + self + " has no migration service");
        }
        return m;
    }

    /** The objects this node serves. */
    public ExportTable exports() {
        return exports;
    }

    /** Whether the cluster failed (fail-stop; {@link #onClusterFailed}): every pending call has failed or will. */
    boolean clusterFailed() {
        return clusterFailedBy >= 0;
    }

    /** Whether the engine was closed (the node left). */
    public boolean closed() {
        return callThreads.isShutdown();
    }

    public ValueCodec codec() {
        return codec;
    }

    /** The codec of each client's name space whose classes this server decodes ({@link #codecFor}). */
    private final Map<ClassLoader, ValueCodec> nameSpaceCodecs = new ConcurrentHashMap<>();

    /**
     * The codec that decodes values for code of {@code loader}: the engine's, except for a client's name space on a
     * standing cluster's server ({@link ClientNameSpace}), which has its own, so the class names in a message for
     * that client's object resolve in that client's loader (and its cache of resolved names is that client's alone).
     * The allow-list is the same: a class decodes only if it was allowed by identity (a class of that client's
     * loader reached from its objects' signatures, or the runtime's).
     */
    public ValueCodec codecFor(ClassLoader loader) {
        if (!(loader instanceof ClientNameSpace)) {
            return codec;
        }
        return nameSpaceCodecs.computeIfAbsent(loader,
            l -> new ValueCodec(this, l, codec.limits(), codec.allowList()));
    }

    /** {@link #codecFor} the loader of the class of {@code target} (the object a call runs on). */
    ValueCodec codecOf(Object target) {
        return codecFor(target.getClass().getClassLoader());
    }

    /** {@link #codecFor} the loader of the interface that declares {@code method} (its result, its exceptions). */
    ValueCodec codecOf(Method method) {
        return codecFor(method.getDeclaringClass().getClassLoader());
    }

    /** Why {@code node} can no longer be called, or null while it is part of the cluster. */
    public String goneReason(int node) {
        return goneNodes.get(node);
    }

    /** Whether the current thread runs a method of the object behind {@code gate}. */
    public boolean currentThreadRuns(ObjectGate gate) {
        return callers.get().runs(gate);
    }

    /**
     * Whether a message the current thread has just sent to {@code node} needs no ring of its doorbell: the thread
     * serves a call from {@code node} (perhaps under nested local calls) that this thread will answer, and whose caller
     * promised to poll for the answer until after now, as a reply sent now would ring nobody
     * ({@link CallServer#ringAfterReply}; reads the clock). Only for a message the caller's node must take before the
     * call can be answered (the call's replicated write, which the sequencer must stamp before it is delivered): the
     * caller's wait then ends only once its node took the message, or by its deadline, whose last looks take it as they
     * take an unrung reply.
     */
    public boolean callerPolls(int node) {
        return callers.get().callerPolls(node, System.nanoTime());
    }

    /** A proxy for the object behind {@code ref}. */
    public <T> T proxy(RemoteRef ref, Class<T> iface, String label) {
        return proxy(ref, iface, label, defaultTimeoutNs);
    }

    /** A proxy with its own call timeout (0: as long as the target lives), e.g. for system services that wait. */
    public <T> T proxy(RemoteRef ref, Class<T> iface, String label, long timeoutNs) {
        codec.allowList().allowSignatures(iface); // its results and exceptions come back here
        RemoteInvocationHandler h = new RemoteInvocationHandler(this, ref, label, timeoutNs);
        return iface.cast(Proxy.newProxyInstance(iface.getClassLoader(), new Class<?>[] {iface}, h));
    }

    // ---------------------------------------------------------------- client side

    /**
     * Starts a call; the future completes with the raw reply (decode with {@link #decodeReply}). {@code via}, the
     * handler of the proxy called (or null), learns where the object went if it migrated.
     */
    PendingCall start(RemoteRef ref, String label, Method method, int methodId, Object[] args, boolean async,
                      RemoteInvocationHandler via) {
        return start(ref, label, method, methodId, args, null, async, via, null, 0);
    }

    /**
     * As {@link #start}, for a synchronous call with a timeout ({@code timeoutNs}, 0 for none), which also bounds how
     * long the call waits for room in a client's window ({@link #limitCallsPerServer}).
     */
    PendingCall start(RemoteRef ref, String label, Method method, int methodId, Object[] args,
                      RemoteInvocationHandler via, long timeoutNs) {
        return start(ref, label, method, methodId, args, null, false, via, null, timeoutNs);
    }

    /**
     * Starts an asynchronous call whose future completes off the polling thread ({@link AsyncReplies}): no thread
     * waits for it and none is started for it. {@code via} as for {@link #start}; {@code timeoutNs} 0 for none.
     */
    CompletableFuture<Object> startAsync(RemoteRef ref, String label, Method method, int methodId, Object[] args,
                                         RemoteInvocationHandler via, long timeoutNs) {
        AsyncResult<Object> result = new AsyncResult<>(asyncReplies);
        PendingCall call = start(ref, label, method, methodId, args, null, true, via, result, timeoutNs);
        if (timeoutNs > 0) {
            CompletableFuture.delayedExecutor(timeoutNs, TimeUnit.NANOSECONDS).execute(() -> {
                if (abandon(call)) { // no answer came: nobody else completes it
                    commit(call, "timeout", 0);
                    result.completeExceptionally(new RemoteTimeoutException("asynchronous call "
                        + describe(call.label, call.method) + " on node " + call.target + " got no reply within "
                        + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms"));
                }
            });
        }
        return result;
    }

    /** A new future for a call's result, of the kind whose waits help complete asynchronous answers. */
    CompletableFuture<Object> newAsyncResult() {
        return new AsyncResult<>(asyncReplies);
    }

    /**
     * Starts a call; {@code handMade}, when not null, is the bytes that go on the wire after the call's header,
     * unchecked, in place of {@code args} ({@link RemoteInvocationHandler#invokeHandMade}); {@code result} an
     * asynchronous call's future; {@code timeoutNs} the call's timeout (0: none), which also bounds its wait for room in
     * a client's window ({@link #limitCallsPerServer}).
     */
    PendingCall start(RemoteRef ref, String label, Method method, int methodId, Object[] args, byte[] handMade,
                              boolean async, RemoteInvocationHandler via, AsyncResult<Object> result, long timeoutNs) {
        int target = checkReachable(ref, label, method);
        boolean counted = takeSlot(target, ref.objectId(), timeoutNs, label, method);
        return start(target, counted, ref, label, method, methodId, args, handMade, async, via, result, timeoutNs);
    }

    /** Starts a call to {@code target}, {@code counted} in the client's window there (a slot it took for it). */
    private PendingCall start(int target, boolean counted, RemoteRef ref, String label, Method method, int methodId,
                              Object[] args, byte[] handMade, boolean async, RemoteInvocationHandler via,
                              AsyncResult<Object> result, long timeoutNs) {
        CallerState state = callers.get();
        long callId = state.newCallId();
        long pollsForNs = async ? 0 : scheduler.pollBudgetNs();
        // the promise (odd, never 0) counts from this thread's previous send (its first: now), so no clock is read
        // before the send; the caller keeps it, polling until the budget after this send
        long pollsUntilNs = pollsForNs == 0 ? 0
            : ((state.lastSentNs != 0 ? state.lastSentNs : System.nanoTime()) + pollsForNs) | 1;
        int end;
        try {
            end = handMade == null ? encodeCall(state, callId, ref.objectId(), method, methodId, args, pollsUntilNs)
                : encodeHandMade(state, callId, ref.objectId(), methodId, handMade, pollsUntilNs);
        } catch (RuntimeException | Error e) {
            if (counted) {
                window.release(target); // it never went
            }
            throw e;
        }
        RemoteCallEvent event = begun(new RemoteCallEvent());
        PendingCall call = new PendingCall(callId, target, ref.objectId(), method, label, event, end,
            async ? null : state, via, result, timeoutNs);
        if (result != null) {
            result.callId = callId;
            state.lastAsyncCallId = callId;
        }
        if (event != null) {
            event.async = async;
        }
        call.counted = counted; // before the call is pending: its answer may come before this thread goes on
        pending.add(call);
        send(call, state.buffer, end);
        if (pollsForNs == 0) {
            sender.ring(target);
        } else {
            call.ringDue = true; // rung by await if the reply is late
            state.lastSentNs = System.nanoTime(); // after the send: the call is on its way meanwhile
            call.pollsUntilNs = (state.lastSentNs + pollsForNs) | 1;
        }
        return call;
    }

    /**
     * On a standing cluster's client, takes a slot of its window on {@code target} for a call of {@code objectId} that
     * the server counts, waiting for one while the window is full; true when it took one (the call then counts until it
     * is answered). False where nothing is counted. A call this thread makes while it serves a call (a server's call
     * of one of the client's objects) does not wait: that server's calls may be waiting for it, and would never free a
     * slot; it counts past the limit, and the server may refuse it.
     */
    private boolean takeSlot(int target, long objectId, long timeoutNs, String label, Method method) {
        ClientWindow w = window;
        if (w == null || !w.counts(target, objectId)) {
            return false;
        }
        if (!w.tryAcquire(target)) {
            if (callers.get().servesRemoteCall()) {
                w.acquirePastLimit(target);
            } else {
                waitForSlot(w, target, timeoutNs, label, method);
            }
        }
        return true;
    }

    /**
     * Waits until a slot of the window on {@code target} is free and takes it: the answers that free slots are polled
     * by another thread (or by this one first, within its poll budget, where it polls while it waits); a main thread
     * that waits inside a call lets the standby poll in its place. Fails as a call to a gone server does when the
     * server goes meanwhile, and with a {@link RemoteTimeoutException} when the call's timeout passes first.
     */
    private void waitForSlot(ClientWindow w, int target, long timeoutNs, String label, Method method) {
        long startNs = System.nanoTime();
        BooleanSupplier stop = () -> goneNodes.get(target) != null || closed();
        Scheduler s = scheduler;
        s.pollBriefly(() -> w.free(target) || stop.getAsBoolean(), Scheduler.Awaited.OTHER);
        Runnable resumed = s.mayBlock();
        boolean taken;
        try {
            taken = w.await(target, timeoutNs > 0 ? startNs + timeoutNs : 0, stop);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while " + describe(label, method) + " waited for one of the "
                + w.limit() + " calls this client may have outstanding on server " + target + " to be answered", e);
        } finally {
            resumed.run();
        }
        if (taken) {
            return;
        }
        String gone = goneNodes.get(target);
        if (gone != null) {
            throw cannotCall(target, label, method, gone);
        }
        if (closed()) {
            throw new CumulusException("call " + describe(label, method) + " on node " + target + " failed: node "
                + self + " left the cluster (close() was called) while the call waited to be sent");
        }
        throw new RemoteTimeoutException("call " + describe(label, method) + " on node " + target + " got no reply "
            + "within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms: it waited all that time for one of the "
            + w.limit() + " calls this client may have outstanding on server " + target + " to be answered");
    }

    /**
     * Makes this engine a standing cluster's client that keeps at most {@code limit} calls outstanding on each server,
     * counting the calls of the object ids {@code counts} accepts, as the servers do: a call that would pass the
     * limit waits in its start until an answer frees a slot ({@link ClientWindow}). Set before the first call.
     */
    public void limitCallsPerServer(int limit, LongPredicate counts) {
        this.window = new ClientWindow(servers, limit, counts);
    }

    /**
     * Stops waiting for {@code call} (its timeout passed, or its caller was interrupted); true when it was still
     * pending, so no answer completes it now. A counted call stays counted until its late answer comes, as the server
     * counts it until it answers.
     */
    private boolean abandon(PendingCall call) {
        ClientWindow w = call.counted ? window : null;
        if (w != null) {
            w.abandon(call.callId, call.target); // before it leaves the pending calls: a late answer finds it here
        }
        boolean removed = pending.remove(call);
        if (!removed && w != null) {
            w.forget(call.callId); // answered meanwhile: its answer freed the slot
        }
        return removed;
    }

    /** Sends a call just added to the pending calls; forgets it again if it cannot go. */
    private void send(PendingCall call, ExpandableArrayBuffer buf, int end) {
        String gone = goneNodes.get(call.target); // it may have gone while we encoded
        try {
            if (gone != null) {
                throw cannotCall(call.target, call.label, call.method, gone);
            }
            sender.send(call.target, buf, 0, end);
        } catch (RuntimeException e) {
            if (pending.remove(call)) {
                released(call); // it never went (else it failed meanwhile, and was released there)
            }
            throw e;
        }
    }

    /** The target node of {@code ref}; throws if it is known to be gone. */
    private int checkReachable(RemoteRef ref, String label, Method method) {
        int target = ref.nodeId();
        String gone = goneNodes.get(target);
        if (gone != null) {
            throw cannotCall(target, label, method, gone);
        }
        return target;
    }

    /** The exception for a call to a gone node: it names the node whose failure ended the cluster, if one did. */
    NodeFailedException cannotCall(int target, String label, Method method, String gone) {
        int failed = clusterFailedBy;
        String message = "cannot call " + describe(label, method) + " on node " + target + ": " + gone;
        if (failed >= 0 && failed != target) {
            message += " (and the cluster has failed: node " + failed + " failed)";
        }
        return new NodeFailedException(failed >= 0 ? failed : target, message);
    }

    /** {@code event} begun while a JFR recording takes it, else {@code null} (no clock read). */
    static <E extends Event> E begun(E event) {
        if (!event.isEnabled()) {
            return null;
        }
        event.begin();
        return event;
    }

    /** Writes a call's header and arguments into the thread's buffer; returns its length. */
    private int encodeHandMade(CallerState state, long callId, long objectId, int methodId, byte[] arguments,
                               long pollsUntilNs) {
        state.callOut.write(callId, objectId, methodId, causality.covered(), pollsUntilNs);
        state.buffer.putBytes(CALL_HEADER, arguments);
        return CALL_HEADER + arguments.length;
    }

    int encodeCall(CallerState state, long callId, long objectId, Method method, int methodId,
                           Object[] args, long pollsUntilNs) {
        state.callOut.write(callId, objectId, methodId, causality.covered(), pollsUntilNs);
        return codec.writeArguments(state.buffer, CALL_HEADER, args == null ? new Object[0] : args, method);
    }

    /**
     * Sends a call that wants no reply ({@link #ONE_WAY}); returns once it is on its way. An exception the target does
     * not handle goes to the target's {@link #onOneWayFailure} handler. Throws at once if the target is known to be
     * gone or the call cannot be sent.
     */
    public void sendOneWay(RemoteRef ref, String label, Method method, Object[] args) {
        int target = checkReachable(ref, label, method);
        RemoteCallEvent event = begun(new RemoteCallEvent());
        CallerState state = callers.get();
        int end = encodeCall(state, ONE_WAY, ref.objectId(), method, MethodIds.idOf(method), args, 0);
        sender.send(target, state.buffer, 0, end);
        sender.ring(target);
        if (event != null) {
            event.async = true;
            commitCall(event, target, ONE_WAY, label, method, end, 0, "ok");
        }
    }

    /** Who is told when a one-way call fails on this node (the caller is not waiting to hear of it). */
    public void onOneWayFailure(Consumer<String> handler) {
        server.onOneWayFailure(handler);
    }

    /** How calls meet threads: which incoming calls run on the polling thread, and how a caller polls for its reply. */
    public void scheduler(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** Waits for a call's reply and decodes it: the result, or the remote exception rethrown. */
    Object await(PendingCall call, long timeoutNs) throws Throwable {
        Reply reply = pollForReply(call);
        try {
            if (reply == null) {
                reply = timeoutNs > 0 ? call.reply.get(timeoutNs, TimeUnit.NANOSECONDS) : call.reply.get();
            }
        } catch (TimeoutException e) {
            abandon(call);
            commit(call, "timeout", 0);
            throw new RemoteTimeoutException("call " + describe(call.label, call.method) + " on node "
                + call.target + " got no reply within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms");
        } catch (ExecutionException e) {
            commit(call, "node-failed", 0);
            throw e.getCause();
        } catch (InterruptedException e) {
            abandon(call);
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while waiting for " + describe(call.label, call.method), e);
        }
        return decodeReply(call, reply, timeoutNs);
    }

    /**
     * As {@link #await} with no timeout, but an interrupt neither ends the wait nor abandons the call: the thread's
     * interrupt status is set again when the reply is in. For steps a Java thread cannot be interrupted out of (the
     * single-VM heap's monitor entry and memory traffic), which must not be left half done.
     */
    Object awaitUninterruptibly(PendingCall call) throws Throwable {
        boolean interrupted = Thread.interrupted();
        try {
            pollForReply(call);
            while (!call.answered()) {
                try {
                    call.reply.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    break; // await reports it
                }
            }
            return await(call, 0);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Keeps the promise (see the class comment): polls for the reply until {@code pollsUntilNs}, then looks once more;
     * rings the target if it is not in. Returns the reply if this thread polled it ({@link #answered}), else null.
     */
    private Reply pollForReply(PendingCall call) {
        if (call.pollsUntilNs != 0) {
            scheduler.pollUntil(call::answered, call.pollsUntilNs, Scheduler.Awaited.REPLY, () -> ringTarget(call));
        }
        if (!call.answered()) {
            ringTarget(call);
        }
        return call.answer;
    }

    /** Rings the target of a call sent without a ring, once (caller's thread). */
    private void ringTarget(PendingCall call) {
        if (call.ringDue) {
            call.ringDue = false;
            sender.ring(call.target);
        }
    }

    /**
     * Decodes a reply: returns the result or throws the remote exception as the interface declares it. When the object
     * had moved, sends the call where it went and waits up to {@code timeoutNs} for that reply ({@link #followMove}).
     */
    Object decodeReply(PendingCall call, Reply reply, long timeoutNs) throws Throwable {
        byte[] bytes = reply.bytes();
        if (bytes == null) {
            commit(call, "ok", reply.length()); // decoded as it came (replyOf)
            return reply.value();
        }
        UnsafeBuffer in = new UnsafeBuffer(bytes);
        long applied = callers.get().replyIn.wrap(in, 0).applied();
        BarrierWatermark w = causality;
        if (applied > w.applied()) {
            // the reply may have come before the writes it depends on were polled here: poll for them rather than
            // wait for a delivery thread's wake-up
            scheduler.pollBriefly(() -> w.applied() >= applied, Scheduler.Awaited.APPLIED_WRITES);
        }
        catchUp(applied);
        int valueAt = REPLY_HEADER;
        byte type = reply.type();
        if ((type & ReplyHeaderFlyweight.HANDED) != 0) {
            if (call.via != null) {
                call.via.movedTo(reply.from()); // the object moved while the call waited: it lives there now
            }
            valueAt = ReplyHeaderFlyweight.HANDED_VALUE;
            type = (byte) (type & ~ReplyHeaderFlyweight.HANDED);
        }
        if (type == ReplyHeaderFlyweight.MOVED) {
            return followMove(call, bytes, valueAt, timeoutNs);
        }
        ValueCodec decoder = codecOf(call.method);
        if (type == ReplyHeaderFlyweight.REPLY) {
            Object value = decoder.readValue(in, valueAt, bytes.length - valueAt);
            commit(call, "ok", bytes.length);
            return value;
        }
        ValueReader reader = decoder.reader(in, valueAt, bytes.length - valueAt);
        Throwable remote = reader.readThrowable(call.method.getExceptionTypes());
        commit(call, "exception", bytes.length);
        throw remote;
    }

    /** The most forwarding addresses one call follows: a longer chain means the nodes disagree, not a move. */
    public static final int MAX_FORWARDS = 64;

    /** The cluster's nodes (servers of a standing cluster); higher ids are its clients. */
    public int servers() {
        return servers;
    }

    /** Tells the transport where client {@code client} receives over UDP and its session, as it attaches. */
    public void clientAttached(int client, String endpoint, byte[] session) {
        sender.clientAttached(client, endpoint, session);
    }

    /** The node ids this engine reaches: the servers' and, on a standing cluster, its clients' after them. */
    public int capacity() {
        return goneNodes.length();
    }

    /**
     * Serves a standing cluster's clients: their calls run here as {@code clients} admits them, and their objects'
     * calls run for their owners (their output, their I/O).
     */
    public void clientService(ClientService clients) {
        this.clients = clients;
    }

    /** What serves the clients here ({@link ClientService#NONE} on a node of a run). */
    public ClientService clientService() {
        return clients;
    }

    /** The client of a standing cluster whose call of a system object this thread serves, if any. */
    static final ThreadLocal<Integer> SYSTEM_CALLER = new ThreadLocal<>();

    /**
     * Notes that the object {@code objectId}, just exported under {@code name} for the system call this thread serves,
     * belongs to that call's client, if a client made the call: it goes when the client goes.
     */
    void noteOwner(long objectId, String name) {
        Integer client = SYSTEM_CALLER.get();
        if (client != null) {
            clients.own(client, objectId, name);
        }
    }

    /** The client whose call of a system object this thread serves, or {@code null}. */
    public static Integer systemCaller() {
        return SYSTEM_CALLER.get();
    }

    /**
     * The principal (the name its credential was granted under) of the client whose call of a system object this
     * thread serves, or {@code null} when no client made it (a node of the cluster did, or this is no server).
     */
    public String callingPrincipal() {
        Integer client = SYSTEM_CALLER.get();
        return client == null ? null : clients.principal(client);
    }

    /** Drops what this engine remembers of the classes of {@code loader} (a departed client's), so it can go. */
    public void forgetClasses(ClassLoader loader) {
        server.forgetClasses(loader);
        nameSpaceCodecs.remove(loader);
        codec.allowList().forget(loader);
    }

    /** Stops serving the user object {@code objectId} here (its owner is gone). */
    public void unexport(long objectId) {
        exports.remove(objectId);
    }

    /**
     * The object of {@code call} had moved and the call did not run: sends the call message that came back in the
     * {@link ReplyHeaderFlyweight#MOVED} answer to the node the object went to (under a new call id) and waits for
     * that reply. The proxy that made the call learns the node, so its next call goes there directly.
     */
    private Object followMove(PendingCall call, byte[] answer, int valueAt, long timeoutNs) throws Throwable {
        commit(call, "moved", answer.length);
        int node = -1;
        UnsafeBuffer message = null;
        if (answer.length >= valueAt + Integer.BYTES + CALL_HEADER) {
            node = new UnsafeBuffer(answer).getInt(valueAt, ByteOrder.LITTLE_ENDIAN);
            message = new UnsafeBuffer(Arrays.copyOfRange(answer, valueAt + Integer.BYTES, answer.length));
        }
        CallHeaderFlyweight header = message == null ? null : new CallHeaderFlyweight().wrap(message, 0);
        if (node < 0 || node >= servers || !header.validate(message.capacity())
            || header.objectId() != call.objectId || header.methodId() != MethodIds.idOf(call.method)) {
            throw new CumulusException("call " + describe(call.label, call.method) + ": node " + call.target
                + " answered that the object moved, with a malformed forwarding address (or another call than this)");
        }
        if (call.hops >= MAX_FORWARDS) {
            throw new CumulusException("call " + describe(call.label, call.method) + " followed "
                + MAX_FORWARDS + " forwarding addresses without reaching the object");
        }
        if (call.via != null) {
            call.via.movedTo(node);
        }
        String gone = goneNodes.get(node);
        if (gone != null) {
            throw cannotCall(node, call.label, call.method, gone);
        }
        long callId = callers.get().newCallId();
        long objectId = header.objectId();
        int methodId = header.methodId();
        long applied = header.applied();
        header.write(callId, objectId, methodId, applied, 0);
        PendingCall next = new PendingCall(callId, node, objectId, call.method, call.label,
            begun(new RemoteCallEvent()), message.capacity(), null, call.via, null, 0);
        next.hops = call.hops + 1;
        next.counted = takeSlot(node, objectId, timeoutNs, call.label, call.method); // the new node counts it
        pending.add(next);
        try {
            sender.send(node, message, 0, message.capacity());
        } catch (RuntimeException e) {
            if (pending.remove(next)) {
                released(next);
            }
            throw e;
        }
        sender.ring(node);
        return await(next, timeoutNs);
    }

    private void commit(PendingCall call, String outcome, int replyBytes) {
        commitCall(call.event, call.target, call.callId, call.label, call.method, call.requestBytes, replyBytes,
            outcome);
    }

    /** Commits a call's event begun by {@link #begun} (null: no recording was on when the call started). */
    void commitCall(RemoteCallEvent e, int target, long callId, String object, Method method, int requestBytes,
                    int replyBytes, String outcome) {
        if (e == null) {
            return;
        }
        e.end();
        if (e.shouldCommit()) {
            e.callerNode = self;
            e.targetNode = target;
            e.callId = callId;
            e.object = object;
            e.method = method.getName();
            e.requestBytes = requestBytes;
            e.replyBytes = replyBytes;
            e.outcome = outcome;
            e.commit();
        }
    }

    /** Runs {@code task} on a call thread (virtual). */
    public void runAsync(Runnable task) {
        startCallThread(task);
    }

    /**
     * Starts {@code task} on a virtual thread of its own. Once the engine is closed (the node left) tasks are dropped:
     * their callers learn that this node left, and the refusal must not reach the node's error handler as a failure.
     */
    private void startCallThread(Runnable task) {
        try {
            callThreads.execute(task);
        } catch (RejectedExecutionException e) {
            if (!callThreads.isShutdown()) {
                throw e;
            }
        }
    }

    // ---------------------------------------------------------------- polling thread

    /** A data message arrived (polling thread): never blocks and runs no program code. */
    public void onData(int source, DirectBuffer buffer, int offset, int length) {
        CallerState state = callers.get(); // this thread's flyweights: header fields are read before handing on
        ReplyHeaderFlyweight answer = state.replyIn.wrap(buffer, offset);
        if (answer.validate(length)) {
            // a call handed over with its object is answered by the object's new node in the name of the old one
            PendingCall call = pending.takeReplyFrom(answer.handed() ? answer.handedBy() : source, answer.callId());
            ClientWindow w = window;
            if (call != null) {
                if (call.counted) {
                    w.release(call.target); // the server ended its count before it answered
                }
                answered(call, replyOf(call, answer.type(), answer.applied(), buffer, offset, length, source));
            } else if (w != null) {
                w.lateAnswer(answer.callId());
            }
            return;
        }
        CallHeaderFlyweight header = state.callIn.wrap(buffer, offset);
        if (header.validate(length)) {
            server.onCall(source, header, buffer, offset, length);
        }
        // anything else is not an RPC message: dropped
    }

    /**
     * What the future of {@code call} gets. When this thread is the caller's own (or the call is asynchronous: its
     * future is completed by another thread anyway), the reply depends on no writes still
     * to apply here, and its value is simple ({@link ValueCodec#readSimple}), the value is decoded here from the
     * transport's buffer: no copy, and the caller returns at once. Otherwise a copy of the bytes, which the caller
     * decodes (and throws from, if it does not decode).
     */
    private Reply replyOf(PendingCall call, byte type, long applied, DirectBuffer buffer, int offset, int length,
                          int from) {
        if (type == ReplyHeaderFlyweight.REPLY
            && (call.result != null || call.caller != null && call.caller.thread == Thread.currentThread())
            && applied <= causality.applied()) {
            try {
                Object value = codec.readSimple(buffer, offset + REPLY_HEADER, length - REPLY_HEADER);
                if (value != ValueCodec.NOT_SIMPLE) {
                    return new Reply(type, null, value, length, -1, applied);
                }
            } catch (RuntimeException e) {
                // the copy below: the caller decodes it again and gets the exception there
            }
        }
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return new Reply(type, bytes, null, length, from, applied);
    }

    /**
     * A call's answer came (polling thread): its waiting caller gets it or, for an asynchronous call, the drainer — or,
     * when its future has no callbacks and no drainer runs, this thread completes it right after its poll: that runs
     * no program code and wakes nobody ({@link AsyncReplies}).
     */
    private void answered(PendingCall call, Reply reply) {
        if (call.result == null) {
            if (call.caller != null && call.caller.thread == Thread.currentThread()) {
                call.answer = reply; // the caller polled it: it reads it next on this thread, no future to complete
            } else {
                call.reply.complete(reply);
            }
        } else {
            call.answer = reply;
            if (asyncReplies.draining() || call.result.getNumberOfDependents() != 0
                || !scheduler.runAfterPoll(call, asyncReplies, Scheduler.Work.ASYNC_ANSWER)) {
                asyncReplies.add(call);
            }
        }
    }

    /**
     * A thread about to wait for an asynchronous result polls for it first, as a synchronous caller polls for its
     * reply, for its poll budget (at most {@code atMostNs}); the answers its polls bring it completes itself. When it
     * has started later asynchronous calls, it may keep its node's bell as it stops ({@code ASYNC_REPLY_MORE_DUE}).
     */
    private void pollForAnswer(BooleanSupplier done, long atMostNs) {
        Scheduler s = scheduler;
        long budgetNs = Math.min(s.pollBudgetNs(), atMostNs);
        if (budgetNs > 0) {
            // a thread that started later calls will poll again soon: it may keep its node's bell as it stops
            Scheduler.Awaited awaited = done instanceof AsyncResult<?> r && r.callId != 0
                && callers.get().lastAsyncCallId > r.callId
                ? Scheduler.Awaited.ASYNC_REPLY_MORE_DUE : Scheduler.Awaited.ASYNC_REPLY;
            s.pollUntil(done, System.nanoTime() + budgetNs, awaited, Scheduler.NOTHING);
        }
    }

    /** A call that waits for its answer fails with {@code failure} (any thread). */
    private void failed(PendingCall call, Throwable failure) {
        if (call.result == null) {
            call.reply.completeExceptionally(failure);
        } else {
            call.failure = failure;
            asyncReplies.add(call);
        }
    }

    /**
     * Completes an asynchronous call's future with its answer or failure ({@link AsyncReplies}' drainer). A value the
     * polling thread decoded, or a plain answer that depends on no replicated writes still to apply here, is decoded
     * and completed here; an answer that may block (it waits for replicated writes, or the object moved and the call
     * must follow it) is decoded on a virtual thread of its own.
     */
    private void completeAsync(PendingCall call) {
        AsyncResult<Object> result = call.result;
        Throwable failure = call.failure;
        if (failure != null) {
            commit(call, "node-failed", 0);
            result.completeExceptionally(failure);
            return;
        }
        Reply reply = call.answer;
        call.answer = null;
        try {
            if (reply.bytes() != null && !decodesWithoutWaiting(reply)) {
                startOrRun(() -> completeWithReply(call, result, reply));
            } else {
                completeWithReply(call, result, reply);
            }
        } catch (RuntimeException e) { // e.g. no thread could be started: the drainer goes on with the next answer
            result.completeExceptionally(e);
        }
    }

    private void completeWithReply(PendingCall call, AsyncResult<Object> result, Reply reply) {
        Object value;
        try {
            value = decodeReply(call, reply, call.timeoutNs);
        } catch (Throwable t) {
            result.completeExceptionally(t);
            return;
        }
        result.complete(value);
    }

    /** Whether a copied answer is a plain reply or error that needs no replicated write this node has not applied. */
    private boolean decodesWithoutWaiting(Reply reply) {
        byte type = reply.type();
        return (type == ReplyHeaderFlyweight.REPLY || type == ReplyHeaderFlyweight.ERROR)
            && reply.applied() <= causality.applied();
    }

    /**
     * Starts {@code task} (a drainer of {@link #asyncReplies}, or an answer's decoding) on a call thread; once the engine
     * is closed, the current thread runs it: the futures of asynchronous calls still complete (or fail, with the reason
     * the close gave them).
     */
    private void startOrRun(Runnable task) {
        try {
            callThreads.execute(task);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }

    /** {@code node} failed or left: its pending calls fail now, and new calls fail at once. Any thread. */
    public void onNodeGone(int node, String reason) {
        goneNodes.compareAndSet(node, null, reason);
        failPending(node, "node", reason);
        ClientWindow w = window;
        if (w != null && node < servers) {
            w.gone(node); // its waiting calls fail as calls to it do
        }
    }

    /**
     * A standing cluster's client left or died: the calls this node waits for from it (its remote I/O, its classes,
     * objects it exported) fail now. Its id is not marked gone: a later client takes the slot. Any thread.
     */
    public void failCallsTo(int client, String reason) {
        failPending(client, "client", reason);
    }

    /** The pending calls to {@code target} fail with a {@link NodeFailedException} naming it ({@code what}: node...). */
    private void failPending(int target, String what, String reason) {
        pending.takeAll(call -> call.target == target, call -> failed(released(call), new NodeFailedException(target,
            "call " + describe(call.label, call.method) + " on " + what + " " + target + " failed: " + reason)));
    }

    /**
     * The cluster failed (fail-stop) because node {@code failed} did: every pending call fails now, whichever node it
     * waits for, and new calls fail at once; else a call to a live node could wait forever for a handler blocked on
     * the failed node. Any thread.
     */
    public void onClusterFailed(int failed, String reason) {
        clusterFailedBy = failed;
        String why = "the cluster failed (node " + failed + "): " + reason;
        for (int node = 0; node < goneNodes.length(); node++) {
            goneNodes.compareAndSet(node, null, why);
        }
        pending.takeAll(call -> true, call -> failed(released(call), new NodeFailedException(failed,
            "call " + describe(call.label, call.method) + " on node " + call.target + " failed: " + why)));
        ClientWindow w = window;
        if (w != null) {
            for (int server = 0; server < servers; server++) {
                w.gone(server);
            }
        }
    }

    /** {@code call}, taken from the pending calls without an answer: it no longer counts in a client's window. */
    private PendingCall released(PendingCall call) {
        if (call.counted) {
            window.release(call.target);
        }
        return call;
    }

    // ---------------------------------------------------------------- references in arguments

    /** The replicated-write watermark calls and replies carry (see the class comment). */
    public void causality(BarrierWatermark watermark) {
        this.causality = watermark;
    }

    BarrierWatermark causality() {
        return causality;
    }

    Scheduler scheduler() {
        return scheduler;
    }

    /** The current thread's buffers and flyweights, and the gates of the objects whose methods it runs. */
    CallerState callerState() {
        return callers.get();
    }

    /** How many one-way calls reached no method here (no such object or method, undecodable arguments). */
    public long droppedOneWayCalls() {
        return server.droppedOneWayCalls();
    }

    /**
     * Runs calls that waited at an object's former node and came here with the object, in the order they arrived
     * there, ahead of the calls that reached the object's arriving gate here meanwhile ({@link ObjectGate#reopenWith});
     * each is answered in the name of the node its caller sent it to ({@code sentTo}).
     */
    public void dispatchHanded(ExportTable.Exported entry, int[] sentTo, int[] sources, byte[][] messages) {
        server.dispatchHanded(entry, sentTo, sources, messages);
    }

    void catchUp(long applied) {
        BarrierWatermark w = causality;
        if (applied > w.applied()) {
            try {
                w.awaitApplied(applied);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CumulusException("interrupted while applying replicated writes before a remote call", e);
            }
        }
    }

    /** Objects passed by reference that are not remote objects (replica roots travel as their cloud's name). */
    public void localReferences(ReferenceHandler handler) {
        this.localReferences = handler;
    }

    @Override
    public RemoteRef toRef(Object value) {
        RemoteRef local = localReferences.toRef(value);
        if (local != null) {
            return local;
        }
        if (value instanceof Proxy && Proxy.isProxyClass(value.getClass())
            && Proxy.getInvocationHandler(value) instanceof RemoteInvocationHandler h) {
            return h.ref();
        }
        return null;
    }

    @Override
    public Object fromRef(RemoteRef ref) {
        if (ref.interfaceName().startsWith("cloud:")) {
            return localReferences.fromRef(ref);
        }
        if (!codec.allowList().permitsName(ref.interfaceName())) {
            // checked before the name is loaded: a message must not make this node load (and initialise, when the
            // proxy is made) an interface no signature of its own mentions, nor widen the allow-list with it
            throw new CumulusException("a remote reference names interface " + ref.interfaceName() + ", which no "
                + "exported interface, cloud or registered type of node " + self + " mentions (Transfers.allow "
                + "registers it)");
        }
        Class<?> iface;
        try {
            iface = Class.forName(ref.interfaceName(), false, loader);
        } catch (ClassNotFoundException e) {
            throw new CumulusException("a remote reference names interface " + ref.interfaceName()
                + ", which is not on this node's classpath");
        }
        if (!iface.isInterface()) {
            throw new CumulusException("a remote reference names " + ref.interfaceName() + ", which is not an interface");
        }
        return proxy(ref, iface, "#" + ref.objectId() + "@node" + ref.nodeId());
    }

    static String describe(String label, Method method) {
        return label + "." + method.getName() + "()";
    }

    @Override
    public void close() {
        callThreads.shutdownNow();
        // a call still waiting now would wait for good (nothing polls for its reply any more)
        String why = "node " + self + " left the cluster (close() was called) while the call waited for its reply";
        pending.takeAll(call -> true, call -> failed(released(call), new CumulusException(
            "call " + describe(call.label, call.method) + " on node " + call.target + " failed: " + why)));
        ClientWindow w = window;
        if (w != null) {
            for (int server = 0; server < servers; server++) {
                w.wake(server); // its waiting calls see the engine closed
            }
        }
    }
}
