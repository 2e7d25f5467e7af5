package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;
import dev.cumulus.MigrationPending;
import dev.cumulus.NodeFailedException;
import dev.cumulus.RemoteTimeoutException;
import dev.cumulus.internal.codec.BytesView;
import dev.cumulus.internal.codec.CodecLimits;
import dev.cumulus.internal.codec.ReferenceHandler;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.codec.ValueCodec;
import dev.cumulus.internal.codec.ValueReader;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import dev.cumulus.internal.jfr.RemoteCallServedEvent;
import dev.cumulus.internal.order.BarrierWatermark;
import dev.cumulus.internal.sched.Scheduler;
import dev.cumulus.internal.sched.TimedCall;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Remote method calls between nodes: the client side (pending calls, replies, timeouts, failed nodes) and the
 * server side (an incoming call runs on the node's main thread right after the poll that brought it, or on a virtual
 * thread of its own when it blocks or runs long, so such a call never holds up others).
 *
 * <p>Wire format (docs/design/WIRE.md): a call is a {@link CallHeaderFlyweight} and the arguments, a reply or an error
 * a {@link ReplyHeaderFlyweight} and the value or throwable, in {@link ValueCodec}; anything else is dropped.
 * {@code pollsUntilNs} is the caller's promise to poll for the reply until then, so a reply sent earlier rings no
 * doorbell ({@link #ringAfterReply}). {@code applied} is the sender's replicated-write watermark
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

    /**
     * A reply as its call's future gets it: a copy of the message in {@code bytes}, or, when the polling thread decoded
     * it for its caller ({@link #replyOf}), {@code bytes} null and the result in {@code value}; {@code applied} is the
     * header's replicated-write watermark.
     */
    record Reply(byte type, byte[] bytes, Object value, int length, int from, long applied) {
    }

    /**
     * A call waiting for its reply; {@code event} is null when no recording was on as it started. A synchronous call
     * whose caller polls for its reply is sent without a doorbell ring ({@code ringDue}): an awake target answers
     * promptly, and the ring's fence stays off the round trip; the caller rings only when the reply is late.
     */
    static final class PendingCall implements Runnable {
        private final long callId;
        private final int target;
        /** The object called (a {@code moved} answer must carry this call back, not another). */
        private final long objectId;
        private final Method method;
        private final String label;
        /** Completed with the answer by the polling thread; null for an asynchronous call ({@link #result}). */
        private final CompletableFuture<Reply> reply;
        /** An asynchronous call's future (completed by {@link AsyncReplies}' drainer), else null. */
        private final AsyncResult<Object> result;
        /** An asynchronous call's timeout, or 0. */
        private final long timeoutNs;
        /** An asynchronous call's answer or failure, set before it is queued on {@link AsyncReplies}. */
        private Reply answer;
        private Throwable failure;
        /** The next call on {@link AsyncReplies}' stack. */
        PendingCall nextDone;
        private final RemoteCallEvent event;
        private final int requestBytes;
        private final long pollsUntilNs;
        /** The state of the thread that waits for the reply; null for an asynchronous call (nobody waits here). */
        private final CallerState caller;
        /** The proxy's handler that made the call (told when the object moved), or null. */
        private final RemoteInvocationHandler via;
        /** The target's doorbell is still to be rung (caller's thread only). */
        private boolean ringDue;
        /** The forwarding addresses this call followed before it was sent to its target. */
        private int hops;

        PendingCall(long callId, int target, long objectId, Method method, String label, RemoteCallEvent event,
                    int requestBytes, long pollsUntilNs, CallerState caller, RemoteInvocationHandler via) {
            this(callId, target, objectId, method, label, event, requestBytes, pollsUntilNs, caller, via, null, 0);
        }

        PendingCall(long callId, int target, long objectId, Method method, String label, RemoteCallEvent event,
                    int requestBytes, long pollsUntilNs, CallerState caller, RemoteInvocationHandler via,
                    AsyncResult<Object> result, long timeoutNs) {
            this.reply = result == null ? new CompletableFuture<>() : null;
            this.result = result;
            this.timeoutNs = timeoutNs;
            this.caller = caller;
            this.via = via;
            this.callId = callId;
            this.target = target;
            this.objectId = objectId;
            this.method = method;
            this.label = label;
            this.event = event;
            this.requestBytes = requestBytes;
            this.pollsUntilNs = pollsUntilNs;
        }

        long callId() {
            return callId;
        }

        int target() {
            return target;
        }

        Method method() {
            return method;
        }

        String label() {
            return label;
        }

        CompletableFuture<Reply> reply() {
            return reply;
        }

        /** An asynchronous call's future (tests). */
        AsyncResult<Object> resultForTest() {
            return result;
        }

        /**
         * Completes an answered asynchronous call's future on the thread that polled its answer, right after that poll
         * ({@code Scheduler.Work.ASYNC_ANSWER}).
         */
        @Override
        public void run() {
            result.replies().completeHere(this, result);
        }

        RemoteCallEvent event() {
            return event;
        }

        int requestBytes() {
            return requestBytes;
        }
    }

    private final int self;
    /** The cluster's nodes ({@code 0..servers-1}); higher ids are clients of a standing cluster. */
    private final int servers;
    /** What serves a standing cluster's clients here: which of their calls run, whose objects run for whom. */
    private volatile ClientService clients = ClientService.NONE;
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
    /** Where calls that are not run inline go: {@link #startCallThread}. */
    private final Executor serveThreads = this::startCallThread;
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
        /** The gates of the objects whose methods this thread runs, innermost last (nested local calls). */
        private ObjectGate[] running = new ObjectGate[4];
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

        void entered(ObjectGate gate) {
            if (depth == running.length) {
                running = Arrays.copyOf(running, depth * 2);
            }
            running[depth++] = gate;
        }

        void left() {
            running[--depth] = null;
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
    /** Whether each method served so far is {@link Brief}. */
    private final Map<Method, Boolean> briefMethods = new ConcurrentHashMap<>();
    /**
     * Told when a one-way call's method throws here (nobody waits to hear of it): the node ends the run. A one-way
     * call that never reaches a method (no such object or method here, arguments that do not decode) is a bad request,
     * not a failure: it is dropped and counted ({@link #droppedOneWayCalls}), and the first one is reported.
     */
    private volatile Consumer<String> oneWayFailures = reason -> System.err.println("cumulus: " + reason);
    private final AtomicLong droppedOneWayCalls = new AtomicLong();
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
        allowSignatures(target, iface);
        ExportTable.Exported e = exports.add(target, iface, name, rule);
        return new RemoteRef(self, e.objectId(), iface.getName());
    }

    /** Serves a system service under a fixed id (below {@link ExportTable#FIRST_USER_ID}). */
    public void exportSystem(long objectId, Object target, Class<?> iface) {
        allowSignatures(target, iface);
        exports.addSystem(objectId, target, iface, "cumulus." + iface.getSimpleName());
    }

    /**
     * Puts the classes of an exported interface's signatures on the codec's allow-list, and the type arguments the
     * target's class gives its generic supertypes ({@code Impl implements Worker<Point>}).
     */
    private void allowSignatures(Object target, Class<?> iface) {
        allowSignatures(target.getClass(), iface);
    }

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
    private ValueCodec codecOf(Object target) {
        return codecFor(target.getClass().getClassLoader());
    }

    /** {@link #codecFor} the loader of the interface that declares {@code method} (its result, its exceptions). */
    private ValueCodec codecOf(Method method) {
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

    /** Starts a call not made through a proxy (the runtime's own, and tests). */
    PendingCall start(RemoteRef ref, String label, Method method, Object[] args, boolean async) {
        return start(ref, label, method, MethodIds.idOf(method), args, async, null);
    }

    /**
     * Starts a call; the future completes with the raw reply (decode with {@link #decodeReply}). {@code via}, the
     * handler of the proxy called (or null), learns where the object went if it migrated.
     */
    PendingCall start(RemoteRef ref, String label, Method method, int methodId, Object[] args, boolean async,
                      RemoteInvocationHandler via) {
        return start(ref, label, method, methodId, args, null, async, via, null, 0);
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
                if (pending.remove(call)) { // no answer came: nobody else completes it
                    commit(call, "timeout", 0);
                    result.completeExceptionally(new RemoteTimeoutException("asynchronous call "
                        + describe(call.label(), call.method()) + " on node " + call.target() + " got no reply within "
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
     * {@link #start(RemoteRef, String, Method, int, Object[], boolean, RemoteInvocationHandler)} with the arguments
     * given as the bytes that go on the wire after the call's header, unchecked ({@link HandMadeCalls}); {@code args}
     * is ignored then.
     */
    PendingCall start(RemoteRef ref, String label, Method method, int methodId, Object[] args, byte[] handMade,
                      boolean async, RemoteInvocationHandler via) {
        return start(ref, label, method, methodId, args, handMade, async, via, null, 0);
    }

    private PendingCall start(RemoteRef ref, String label, Method method, int methodId, Object[] args, byte[] handMade,
                              boolean async, RemoteInvocationHandler via, AsyncResult<Object> result, long timeoutNs) {
        int target = checkReachable(ref, label, method);
        CallerState state = callers.get();
        ExpandableArrayBuffer buf = state.buffer;
        long callId = state.newCallId();
        long pollsForNs = async ? 0 : scheduler.pollBudgetNs();
        // the promise to poll for the reply until then (odd, so never 0): the caller keeps it in await
        long pollsUntilNs = pollsForNs > 0 ? (System.nanoTime() + pollsForNs) | 1 : 0;
        int end = handMade == null ? encodeCall(state, callId, ref.objectId(), method, methodId, args, pollsUntilNs)
            : encodeHandMade(state, callId, ref.objectId(), methodId, handMade, pollsUntilNs);
        RemoteCallEvent event = recording();
        PendingCall call = new PendingCall(callId, target, ref.objectId(), method, label, event, end, pollsUntilNs,
            async ? null : state, via, result, timeoutNs);
        if (event != null) {
            event.async = async;
        }
        pending.add(call);
        String gone = goneNodes.get(target); // it may have gone while we encoded
        if (gone != null) {
            pending.remove(call);
            throw cannotCall(target, label, method, gone);
        }
        try {
            sender.send(target, buf, 0, end);
        } catch (RuntimeException e) {
            pending.remove(call);
            throw e;
        }
        if (pollsUntilNs == 0) {
            sender.ring(target);
        } else {
            call.ringDue = true; // rung by await if the reply is late
        }
        return call;
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
    private NodeFailedException cannotCall(int target, String label, Method method, String gone) {
        int failed = clusterFailedBy;
        String message = "cannot call " + describe(label, method) + " on node " + target + ": " + gone;
        if (failed >= 0 && failed != target) {
            message += " (and the cluster has failed: node " + failed + " failed)";
        }
        return new NodeFailedException(failed >= 0 ? failed : target, message);
    }

    /** A started call event while a JFR recording takes them, else {@code null} (no allocation, no clock read). */
    private static RemoteCallEvent recording() {
        RemoteCallEvent event = new RemoteCallEvent();
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

    private int encodeCall(CallerState state, long callId, long objectId, Method method, int methodId,
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
        RemoteCallEvent event = recording();
        CallerState state = callers.get();
        int end = encodeCall(state, ONE_WAY, ref.objectId(), method, MethodIds.idOf(method), args, 0);
        sender.send(target, state.buffer, 0, end);
        sender.ring(target);
        if (event == null) {
            return;
        }
        event.end();
        if (event.shouldCommit()) {
            event.callerNode = self;
            event.targetNode = target;
            event.object = label;
            event.method = method.getName();
            event.requestBytes = end;
            event.async = true;
            event.outcome = "ok";
            event.commit();
        }
    }

    /** Who is told when a one-way call fails on this node (the caller is not waiting to hear of it). */
    public void onOneWayFailure(Consumer<String> handler) {
        this.oneWayFailures = handler;
    }

    /** How calls meet threads: which incoming calls run on the polling thread, and how a caller polls for its reply. */
    public void scheduler(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** Waits for a call's reply and decodes it: the result, or the remote exception rethrown. */
    Object await(PendingCall call, long timeoutNs) throws Throwable {
        Reply reply;
        if (call.pollsUntilNs != 0) {
            // the promise (see the class comment): poll until pollsUntilNs, then look once more
            scheduler.pollUntil(call.reply()::isDone, call.pollsUntilNs, Scheduler.Awaited.REPLY,
                () -> ringTarget(call));
        }
        if (!call.reply().isDone()) {
            ringTarget(call);
        }
        try {
            reply = timeoutNs > 0 ? call.reply().get(timeoutNs, TimeUnit.NANOSECONDS) : call.reply().get();
        } catch (TimeoutException e) {
            pending.remove(call);
            commit(call, "timeout", 0);
            throw new RemoteTimeoutException("call " + describe(call.label(), call.method()) + " on node "
                + call.target() + " got no reply within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms");
        } catch (ExecutionException e) {
            commit(call, "node-failed", 0);
            throw e.getCause();
        } catch (InterruptedException e) {
            pending.remove(call);
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while waiting for " + describe(call.label(), call.method()), e);
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
            if (call.pollsUntilNs != 0) {
                scheduler.pollUntil(call.reply()::isDone, call.pollsUntilNs, Scheduler.Awaited.REPLY,
                    () -> ringTarget(call));
            }
            if (!call.reply().isDone()) {
                ringTarget(call);
            }
            while (!call.reply().isDone()) {
                try {
                    call.reply().get();
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
        ValueCodec decoder = codecOf(call.method());
        if (type == ReplyHeaderFlyweight.REPLY) {
            Object value = decoder.readValue(in, valueAt, bytes.length - valueAt);
            commit(call, "ok", bytes.length);
            return value;
        }
        ValueReader reader = decoder.reader(in, valueAt, bytes.length - valueAt);
        Throwable remote = reader.readThrowable(call.method().getExceptionTypes());
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
    private static final ThreadLocal<Integer> SYSTEM_CALLER = new ThreadLocal<>();

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
        briefMethods.keySet().removeIf(m -> m.getDeclaringClass().getClassLoader() == loader);
        nameSpaceCodecs.remove(loader);
        codec.allowList().forget(loader);
    }

    /** Stops serving the user object {@code objectId} here (its owner is gone). */
    public void unexport(long objectId) {
        exports.remove(objectId);
    }

    /** Whether a call from client {@code client} may run here ({@link ClientService#admit}); else it is answered why. */
    private boolean admitsClient(int client, CallHeaderFlyweight header) {
        CumulusException refusal = clients.admit(client, header.objectId(), header.methodId());
        if (refusal == null) {
            return true;
        }
        answerRefusal(client, header, refusal);
        return false;
    }

    /** Answers a refused call from a client with {@code refusal}, never decoded (a one-way call: dropped, counted). */
    private void answerRefusal(int client, CallHeaderFlyweight header, CumulusException refusal) {
        long callId = header.callId();
        long pollsUntilNs = header.pollsUntilNs();
        if (callId == ONE_WAY) {
            droppedOneWayCalls.incrementAndGet();
            return;
        }
        try {
            sendError(client, callId, pollsUntilNs, refusal, NOT_HANDED);
        } catch (RuntimeException e) {
            droppedOneWayCalls.incrementAndGet(); // the client is gone: nobody to tell
        }
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
            || header.objectId() != call.objectId || header.methodId() != MethodIds.idOf(call.method())) {
            throw new CumulusException("call " + describe(call.label(), call.method()) + ": node " + call.target()
                + " answered that the object moved, with a malformed forwarding address (or another call than this)");
        }
        if (call.hops >= MAX_FORWARDS) {
            throw new CumulusException("call " + describe(call.label(), call.method()) + " followed "
                + MAX_FORWARDS + " forwarding addresses without reaching the object");
        }
        if (call.via != null) {
            call.via.movedTo(node);
        }
        String gone = goneNodes.get(node);
        if (gone != null) {
            throw cannotCall(node, call.label(), call.method(), gone);
        }
        long callId = callers.get().newCallId();
        long objectId = header.objectId();
        int methodId = header.methodId();
        long applied = header.applied();
        header.write(callId, objectId, methodId, applied, 0);
        PendingCall next = new PendingCall(callId, node, objectId, call.method(), call.label(), recording(),
            message.capacity(), 0, null, call.via);
        next.hops = call.hops + 1;
        pending.add(next);
        try {
            sender.send(node, message, 0, message.capacity());
        } catch (RuntimeException e) {
            pending.remove(next);
            throw e;
        }
        sender.ring(node);
        return await(next, timeoutNs);
    }

    private void commit(PendingCall call, String outcome, int replyBytes) {
        RemoteCallEvent e = call.event();
        if (e == null) {
            return; // no recording was on when the call started
        }
        e.end();
        if (e.shouldCommit()) {
            e.callerNode = self;
            e.targetNode = call.target();
            e.callId = call.callId;
            e.object = call.label();
            e.method = call.method().getName();
            e.requestBytes = call.requestBytes();
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
            if (call != null) {
                answered(call, replyOf(call, answer.type(), answer.applied(), buffer, offset, length, source));
            }
            return;
        }
        CallHeaderFlyweight header = state.callIn.wrap(buffer, offset);
        if (header.validate(length)) {
            if (source < servers) {
                dispatch(new IncomingCall(source, header, buffer, offset, length));
            } else if (admitsClient(source, header)) {
                IncomingCall call = new IncomingCall(source, header, buffer, offset, length);
                call.counted = clients.counts(header.objectId()); // admitsClient counted it
                dispatch(call);
            }
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
            call.reply().complete(reply);
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
     * reply, for its poll budget (at most {@code atMostNs}); the answers its polls bring it completes itself.
     */
    private void pollForAnswer(BooleanSupplier done, long atMostNs) {
        Scheduler s = scheduler;
        long budgetNs = Math.min(s.pollBudgetNs(), atMostNs);
        if (budgetNs > 0) {
            s.pollUntil(done, System.nanoTime() + budgetNs, Scheduler.Awaited.ASYNC_REPLY, Scheduler.NOTHING);
        }
    }

    /** A call that waits for its answer fails with {@code failure} (any thread). */
    private void failed(PendingCall call, Throwable failure) {
        if (call.result == null) {
            call.reply().completeExceptionally(failure);
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
        pending.takeAll(call -> call.target() == node, call -> failed(call,
            new NodeFailedException(node,
                "call " + describe(call.label(), call.method()) + " on node " + node + " failed: " + reason)));
    }

    /**
     * A standing cluster's client left or died: the calls this node waits for from it (its remote I/O, its classes,
     * objects it exported) fail now. Its id is not marked gone: a later client takes the slot. Any thread.
     */
    public void failCallsTo(int client, String reason) {
        pending.takeAll(call -> call.target() == client, call -> failed(call,
            new NodeFailedException(client,
                "call " + describe(call.label(), call.method()) + " on client " + client + " failed: " + reason)));
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
        pending.takeAll(call -> true, call -> failed(call, new NodeFailedException(failed,
            "call " + describe(call.label(), call.method()) + " on node " + call.target() + " failed: " + why)));
    }

    // ---------------------------------------------------------------- server side

    /**
     * Where an incoming call runs: a {@code @SafeMode} object's calls on its queue, in arrival order; others inline
     * after the poll when the scheduler takes them, else on a virtual thread. A call that must wait for replicated
     * writes never runs inline: they come through the duty cycle it holds.
     */
    private void dispatch(IncomingCall call) {
        ObjectMover.SafeModeQueue queue = call.method == null ? null : call.target.safeMode();
        if (queue != null) {
            queue.submit(call);
        } else if (call.method == null || call.applied > causality.applied() || !runInline(call)) {
            startCallThread(call);
        }
    }

    /**
     * Answers a call for an object that moved to {@code node} and did not run it: a call that wants a reply gets a
     * {@link ReplyHeaderFlyweight#MOVED} answer with the call message, which its caller sends there; a one-way call is
     * sent there from here (nobody waits to be told).
     */
    private void forward(IncomingCall call, int node) {
        call.done(); // it does not run here
        byte[] message = call.message();
        if (call.callId == ONE_WAY) {
            try {
                sender.send(node, new UnsafeBuffer(message), 0, message.length);
                sender.ring(node);
            } catch (RuntimeException e) {
                dropOneWay(call.source, e); // the object's node is gone or unreachable
            }
            return;
        }
        CallerState state = callers.get();
        ExpandableArrayBuffer out = state.buffer;
        int at = answerHeader(state, ReplyHeaderFlyweight.MOVED, call.callId, call.handedBy);
        out.putInt(at, node, ByteOrder.LITTLE_ENDIAN);
        out.putBytes(at + Integer.BYTES, message);
        sendAnswer(call.source, out, at + Integer.BYTES + message.length, call.pollsUntilNs);
    }

    /**
     * Offers a call to the polling thread. Any polling thread may run a {@link Brief} method (it never blocks; its run
     * times are not kept); other methods run inline only on the main thread, until they were slow there.
     */
    private boolean runInline(IncomingCall call) {
        if (call.objectId < ExportTable.FIRST_USER_ID && isBrief(call.method)) { // Cumulus's own services only
            return scheduler.runAfterPoll(call, serveThreads, Scheduler.Work.BRIEF_CALL);
        }
        return !call.record.skipThisCall() && scheduler.runAfterPoll(call, serveThreads, Scheduler.Work.CALL);
    }

    /** True for a system method marked {@link Brief}: any polling thread may run its calls. */
    private boolean isBrief(Method method) {
        return briefMethods.computeIfAbsent(method, m -> m.isAnnotationPresent(Brief.class));
    }

    /**
     * An incoming call, looked up as it arrived: {@code method} and its {@code index} in the target's table
     * ({@code null}, -1 when unknown); its arguments decoded as it came ({@link #argumentsAsPolled}), else a copy of the
     * message in {@code bytes}. A polling thread that runs it inline reports whether the run was slow
     * ({@link TimedCall}): a slow run (it may block, or was still being compiled) sends the method's next calls to
     * virtual threads ({@link InlineRecord}).
     */
    private final class IncomingCall implements TimedCall, ObjectGate.Held {
        final int source;
        /** The object's former node when the call was handed over with the object, else {@link #NOT_HANDED}. */
        final int handedBy;
        final long callId;
        final long objectId;
        final int methodId;
        final long applied;
        final long pollsUntilNs;
        final ExportTable.Exported target;
        final Method method;
        final int index;
        final InlineRecord record;
        final Object[] args;
        final byte[] bytes;
        /** Counted among its client's calls outstanding here until it is done ({@link ClientService#admit}). */
        private boolean counted;

        /** The call is answered, or leaves this node: it no longer counts among its client's outstanding calls. */
        void done() {
            if (counted) {
                counted = false;
                clients.endCall(source);
            }
        }

        /** Reads the call message of {@code length} bytes at {@code offset}, whose {@code header} was validated. */
        IncomingCall(int source, CallHeaderFlyweight header, DirectBuffer buffer, int offset, int length) {
            this(source, header, buffer, offset, length, NOT_HANDED);
        }

        /** @param handedBy the object's former node, for a call handed over with it; else {@link #NOT_HANDED} */
        IncomingCall(int source, CallHeaderFlyweight header, DirectBuffer buffer, int offset, int length, int handedBy) {
            this.handedBy = handedBy;
            this.source = source;
            this.callId = header.callId();
            this.objectId = header.objectId();
            this.methodId = header.methodId();
            this.applied = header.applied();
            this.pollsUntilNs = header.pollsUntilNs();
            this.target = exports.get(objectId);
            this.index = target == null ? -1 : target.methods().indexOf(methodId);
            this.method = index < 0 ? null : target.methods().method(index);
            this.record = index < 0 ? null : target.methods().record(index);
            this.args = method == null ? null : argumentsAsPolled(buffer, offset, length, index);
            if (args == null) {
                bytes = new byte[length];
                buffer.getBytes(offset, bytes);
            } else {
                bytes = null;
            }
        }

        /**
         * The arguments when they decode without program code and without waiting for replicated writes: none, or one
         * simple value for a parameter that is not a {@code BytesView} (which must view a copy that outlives the poll).
         * Else {@code null}: decoded where it runs.
         */
        private Object[] argumentsAsPolled(DirectBuffer buffer, int offset, int length, int index) {
            Class<?>[] parameters = target.methods().parameterTypes(index);
            if (parameters.length > 1 || applied > causality.applied()) {
                return null;
            }
            if (parameters.length == 0) {
                return NO_ARGUMENTS;
            }
            if (parameters[0] == BytesView.class) {
                return null;
            }
            try {
                Object value = codec.readSimple(buffer, offset + CALL_HEADER, length - CALL_HEADER);
                return value == ValueCodec.NOT_SIMPLE ? null : new Object[] {value};
            } catch (RuntimeException e) {
                return null; // decoded again where it runs, which then answers with the exception
            }
        }

        @Override
        public void run() {
            serve(this);
        }

        /**
         * Runs the call again after it waited at its object's gate: on the object's queue, or on a call thread. Never
         * inline: this thread is not polling now, and only the polling thread may take work after its poll.
         */
        @Override
        public void runHere() {
            ObjectMover.SafeModeQueue queue = method == null ? null : target.safeMode();
            if (queue != null) {
                queue.submit(this);
            } else {
                startCallThread(this);
            }
        }

        @Override
        public void runEntered() {
            serveLetIn(this, target.gate());
        }

        @Override
        public void forwardTo(int node) {
            forward(this, node);
        }

        @Override
        public void fail(Throwable failure) {
            try {
                answerFailure(this, failure);
            } finally {
                done();
            }
        }

        @Override
        public int source() {
            return source;
        }

        @Override
        public int sentTo() {
            return handedBy == NOT_HANDED ? self : handedBy;
        }

        /** The call message as it came (rebuilt from the arguments when they were decoded as it was polled). */
        @Override
        public byte[] message() {
            if (bytes != null) {
                return bytes;
            }
            CallerState state = callers.get();
            state.callOut.write(callId, objectId, methodId, applied, pollsUntilNs);
            return copyOf(state.buffer, codec.writeArguments(state.buffer, CALL_HEADER, args, method));
        }

        @Override
        public void ranQuickly() {
            if (record != null) {
                record.fastRun();
            }
        }

        @Override
        public void ranSlowly(long endNs, long tookNs) {
            if (record != null) {
                record.slowRun(endNs, tookNs);
            }
        }
    }

    private static final Object[] NO_ARGUMENTS = new Object[0];

    /** Runs a call (any thread): decodes its arguments unless they came decoded, invokes it, answers. */
    private void serve(IncomingCall call) {
        ObjectGate gate = call.method == null ? null : call.target.gate();
        if (gate == null) {
            serveEntered(call); // a system object, or a call answered with an error
            return;
        }
        if (!gate.enter()) {
            holdOrForward(call, gate);
            return;
        }
        serveLetIn(call, gate);
    }

    /** Runs a call that its object's gate let in (a safe-mode object's queue lets its calls in itself); then it leaves. */
    private void serveLetIn(IncomingCall call, ObjectGate gate) {
        gate.tally(call.source);
        CallerState state = callers.get();
        state.entered(gate);
        try {
            if (call.target.safeMode() == null) {
                serveEntered(call);
            } else {
                call.target.safeMode().serve(call, () -> serveEntered(call));
            }
        } finally {
            state.left();
            gate.exit();
        }
    }

    /** A call the object's closed gate did not let in: held for the migration, or answered with the object's node. */
    private void holdOrForward(IncomingCall call, ObjectGate gate) {
        int node = gate.holdOrForward(call);
        if (node >= 0) {
            call.forwardTo(node);
        } else if (node == -2) {
            call.runHere(); // the migration failed meanwhile and the gate opened: dispatch again
        }
    }

    /** Answers a call that did not reach its method with {@code failure} (one-way calls: dropped and counted). */
    private void answerFailure(IncomingCall call, Throwable failure) {
        if (call.callId == ONE_WAY) {
            dropOneWay(call.source, failure);
        } else {
            sendError(call.source, call.callId, call.pollsUntilNs, failure, call.handedBy);
        }
    }

    /** Runs a call that entered its object's gate (or has none): decodes, invokes, answers. */
    private void serveEntered(IncomingCall call) {
        try {
            serveEnteredOnce(call);
        } finally {
            call.done();
        }
    }

    private void serveEnteredOnce(IncomingCall call) {
        int source = call.source;
        long callId = call.callId;
        long pollsUntilNs = call.pollsUntilNs;
        ExportTable.Exported target = call.target;
        Method method = call.method;
        Serving serving = null;
        Object result;
        Supplier<String> what;
        boolean delivered = false; // the call reached its method: a failure from here on is the method's
        RemoteCallServedEvent served = callId == ONE_WAY ? null : servedRecording();
        try {
            if (target == null) {
                throw new CumulusException("node " + self + " serves no object #" + call.objectId
                    + " (it was never exported here, or the node restarted)");
            }
            if (method == null) {
                throw new CumulusException("object '" + target.name() + "' on node " + self + " has no method with id "
                    + call.methodId + " in " + target.iface().getName() + "; do all nodes run the same classes?");
            }
            int index = call.index;
            Object[] args = call.args;
            if (args == null) {
                catchUp(call.applied);
                args = readArguments(codecOf(target.target()), new UnsafeBuffer(call.bytes),
                    target.methods().parameterTypes(index));
            }
            what = target.methods().resultLabel(index);
            delivered = true;
            if (call.objectId < ExportTable.FIRST_USER_ID && source >= servers) {
                Integer outer = SYSTEM_CALLER.get(); // a system object may ask who calls: a client owns what it makes
                SYSTEM_CALLER.set(source);
                try {
                    serving = target.methods().defersReply(index)
                        ? new Serving(source, callId, pollsUntilNs, what, call.handedBy) : null;
                    result = invoke(target, method, args, serving);
                } finally {
                    SYSTEM_CALLER.set(outer);
                }
            } else { // on a standing cluster's server, a client's object runs for its owner (output, remote I/O)
                serving = target.methods().defersReply(index)
                    ? new Serving(source, callId, pollsUntilNs, what, call.handedBy) : null;
                ClientService owners = clients;
                Object outer = owners.enter(call.objectId);
                try {
                    result = invoke(target, method, args, serving);
                } finally {
                    owners.exit(outer);
                }
            }
        } catch (Throwable t) {
            if (t instanceof MigrationPending stopped && call.target.safeMode() != null
                && call.target.gate().safePointPending()) {
                throw stopped; // its queue puts the checkpoint back; the call runs again on the new node
            }
            // recorded before it is answered: a caller that has its answer finds the call in the server's recording
            commitServed(served, call, serving, "exception");
            if (serving != null && serving.deferred != null) {
                serving.deferred.fail(t);
            } else if (callId == ONE_WAY && !delivered) {
                dropOneWay(source, t);
            } else if (callId == ONE_WAY) {
                oneWayFailures.accept("a one-way call from node " + source + " failed on node " + self + ": " + t);
            } else if (t instanceof InterruptedException && source >= servers && closed()) {
                // a standing cluster's server stops (cluster stop) and interrupted the call: not the method's failure.
                // Its client learns that the server is gone (it watches the server) and fails the call, naming it
            } else {
                sendError(source, callId, pollsUntilNs, t, call.handedBy);
            }
            return;
        }
        if (callId == ONE_WAY) {
            return;
        }
        commitServed(served, call, serving, "ok"); // before the answer, as above
        if (serving == null || serving.deferred == null) {
            sendReply(source, callId, pollsUntilNs, result, what, call.handedBy);
        }
    }

    /** Invokes a served call's method; one that may reply later ({@code serving} not null) sees its call as served. */
    private static Object invoke(ExportTable.Exported target, Method method, Object[] args, Serving serving)
        throws Throwable {
        if (serving == null) {
            return invokeLocal(target.target(), method, args);
        }
        Serving outer = SERVING.get(); // a brief call may run nested on a thread that serves another call
        SERVING.set(serving);
        try {
            return invokeLocal(target.target(), method, args);
        } finally {
            SERVING.set(outer); // null mostly: cheaper than remove(), and the thread's map keeps the one entry
        }
    }

    /** A started served-call event while a JFR recording takes them, else {@code null}. */
    private static RemoteCallServedEvent servedRecording() {
        RemoteCallServedEvent event = new RemoteCallServedEvent();
        if (!event.isEnabled()) {
            return null;
        }
        event.begin();
        return event;
    }

    private void commitServed(RemoteCallServedEvent e, IncomingCall call, Serving serving, String outcome) {
        if (e == null) {
            return;
        }
        e.end();
        if (e.shouldCommit()) {
            e.callerNode = call.source;
            e.servingNode = self;
            e.callId = call.callId;
            e.object = call.target == null ? "#" + call.objectId : call.target.name();
            e.method = call.method == null ? "#" + call.methodId : call.method.getName();
            e.deferred = serving != null && serving.deferred != null;
            e.outcome = outcome;
            e.commit();
        }
    }

    /** A one-way call that reached no method: dropped and counted; the first one is reported (nobody else hears). */
    private void dropOneWay(int source, Throwable why) {
        if (droppedOneWayCalls.incrementAndGet() == 1) {
            System.err.println("cumulus: node " + self + " dropped a one-way call from node " + source + ": "
                + why.getMessage() + " (later dropped one-way calls are only counted)");
        }
    }

    /** How many one-way calls reached no method here (no such object or method, undecodable arguments). */
    public long droppedOneWayCalls() {
        return droppedOneWayCalls.get();
    }

    /** Decodes a call's arguments for a method with {@code parameters}, with the codec of the called object's code. */
    private static Object[] readArguments(ValueCodec codec, UnsafeBuffer in, Class<?>[] parameters) {
        int length = in.capacity() - CALL_HEADER;
        if (parameters.length == 1 && parameters[0] != BytesView.class) {
            return new Object[] {codec.readValue(in, CALL_HEADER, length)};
        }
        ValueReader reader = codec.reader(in, CALL_HEADER, length);
        Object[] args = new Object[parameters.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = reader.readArgument(parameters[i]);
        }
        return args;
    }

    /** @param handedBy the node that handed the call over with its object, or {@link #NOT_HANDED} */
    private void sendReply(int source, long callId, long pollsUntilNs, Object result, Supplier<String> what,
                           int handedBy) {
        CallerState state = callers.get();
        ExpandableArrayBuffer out = state.buffer;
        int end;
        try {
            end = codec.write(out, answerHeader(state, ReplyHeaderFlyweight.REPLY, callId, handedBy), result, what);
        } catch (Throwable t) {
            sendError(source, callId, pollsUntilNs, t, handedBy); // e.g. a result that cannot be transferred
            return;
        }
        sendAnswer(source, out, end, pollsUntilNs);
    }

    private void sendError(int source, long callId, long pollsUntilNs, Throwable t, int handedBy) {
        CallerState state = callers.get();
        ExpandableArrayBuffer out = state.buffer;
        int at = answerHeader(state, ReplyHeaderFlyweight.ERROR, callId, handedBy);
        sendAnswer(source, out, codec.writeThrowable(out, at, t), pollsUntilNs);
    }

    /** A call that was not handed over with its object. */
    static final int NOT_HANDED = -1;

    /** Writes an answer's header ({@code REPLY} or {@code ERROR}, handed or not); returns where the value goes. */
    private int answerHeader(CallerState state, byte type, long callId, int handedBy) {
        if (handedBy == NOT_HANDED) {
            state.replyOut.write(type, callId, causality.covered());
            return REPLY_HEADER;
        }
        state.replyOut.write((byte) (type | ReplyHeaderFlyweight.HANDED), callId, causality.covered());
        state.buffer.putInt(REPLY_HEADER, handedBy, ByteOrder.LITTLE_ENDIAN);
        return ReplyHeaderFlyweight.HANDED_VALUE;
    }

    /**
     * Runs calls that waited at an object's former node and came here with the object, in the order they arrived
     * there, ahead of the calls that reached the object's arriving gate here meanwhile ({@link ObjectGate#reopenWith});
     * each is answered in the name of the node its caller sent it to ({@code sentTo}).
     */
    public void dispatchHanded(ExportTable.Exported entry, int[] sentTo, int[] sources, byte[][] messages) {
        UnsafeBuffer view = new UnsafeBuffer(0, 0);
        CallHeaderFlyweight header = new CallHeaderFlyweight();
        List<ObjectGate.Held> handed = new ArrayList<>();
        for (int i = 0; i < messages.length; i++) {
            view.wrap(messages[i]);
            if (header.wrap(view, 0).validate(messages[i].length) && header.objectId() == entry.objectId()) {
                handed.add(new IncomingCall(sources[i], header, view, 0, messages[i].length, sentTo[i]));
            }
        }
        entry.open(() -> entry.gate().reopenWith(handed));
    }

    /** Sends a reply or an error to the caller, ringing its doorbell unless it still polls ({@link #ringAfterReply}). */
    private void sendAnswer(int destination, ExpandableArrayBuffer out, int end, long pollsUntilNs) {
        try {
            sender.send(destination, out, 0, end);
        } catch (RuntimeException e) {
            return; // the caller is gone or unreachable: nobody is left to tell
        }
        if (ringAfterReply(pollsUntilNs, System.nanoTime())) {
            sender.ring(destination);
        }
    }

    /**
     * Whether a reply sent at {@code nowNs} must ring the caller's doorbell: unless the caller promised to poll until
     * later ({@code pollsUntilNs}, 0 for none). The clock is the host's ({@code CLOCK_MONOTONIC}); only co-located
     * nodes, the only ones with doorbells, get the promise. A reply without ring also leaves the caller's doorbell line
     * alone, which the caller writes as it hands polling back to its main thread. A reply sent in the promise's last
     * {@link #PROMISE_MARGIN_NS} rings anyway: the clock is read with no fence after the send, so the message may
     * still be on its way to other cores then.
     */
    static boolean ringAfterReply(long pollsUntilNs, long nowNs) {
        return pollsUntilNs == 0 || nowNs - (pollsUntilNs - PROMISE_MARGIN_NS) >= 0;
    }

    /** See {@link #ringAfterReply}. */
    static final long PROMISE_MARGIN_NS = 1_000;

    // ---------------------------------------------------------------- replies sent later

    /** The call the current thread serves, while its method runs. */
    private static final ThreadLocal<Serving> SERVING = new ThreadLocal<>();

    private final class Serving {
        final int source;
        final long callId;
        final long pollsUntilNs;
        final Supplier<String> what;
        /** The node that handed the call over with its object, or {@link #NOT_HANDED}: its reply names it. */
        final int handedBy;
        DeferredReply deferred;

        Serving(int source, long callId, long pollsUntilNs, Supplier<String> what, int handedBy) {
            this.source = source;
            this.callId = callId;
            this.pollsUntilNs = pollsUntilNs;
            this.what = what;
            this.handedBy = handedBy;
        }

        RpcEngine engine() {
            return RpcEngine.this;
        }
    }

    /** True while the current thread runs a {@link DefersReply} method for a remote caller. */
    public static boolean servingRemoteCall() {
        return SERVING.get() != null;
    }

    /**
     * Called by a method that serves a remote call: its reply is sent later through the returned handle, from any
     * thread, and its return value is ignored. A call that must wait (PastSet's observe) then holds no thread, and the
     * thread that makes it ready sends the reply itself. Idempotent per call.
     *
     * @throws IllegalStateException when the current thread serves no remote call of a {@link DefersReply} method
     */
    public static DeferredReply deferReply() {
        Serving s = SERVING.get();
        if (s == null) {
            throw new IllegalStateException("deferReply() is for @DefersReply methods serving a remote call");
        }
        if (s.deferred == null) {
            s.deferred = s.engine().new DeferredReply(s.source, s.callId, s.pollsUntilNs, s.what, s.handedBy);
        }
        return s.deferred;
    }

    /** The reply of a call whose method returned before it was ready; the first outcome given wins. */
    public final class DeferredReply {
        private final int source;
        private final long callId;
        private final long pollsUntilNs;
        private final Supplier<String> what;
        private final int handedBy;
        private final AtomicBoolean sent = new AtomicBoolean();

        private DeferredReply(int source, long callId, long pollsUntilNs, Supplier<String> what, int handedBy) {
            this.source = source;
            this.callId = callId;
            this.pollsUntilNs = pollsUntilNs;
            this.what = what;
            this.handedBy = handedBy;
        }

        /** Sends {@code value} as the call's result (nothing for a one-way call: its caller reads no reply). */
        public void complete(Object value) {
            if (sent.compareAndSet(false, true) && callId != ONE_WAY) {
                sendReply(source, callId, pollsUntilNs, value, what, handedBy);
            }
        }

        /**
         * Sends {@code failure} as the call's exception; a one-way call's failure goes to this node's
         * {@link #onOneWayFailure} handler instead, as if the method had thrown it.
         */
        public void fail(Throwable failure) {
            if (!sent.compareAndSet(false, true)) {
                return;
            }
            if (callId == ONE_WAY) {
                oneWayFailures.accept("a one-way call from node " + source + " failed on node " + self + ": " + failure);
            } else {
                sendError(source, callId, pollsUntilNs, failure, handedBy);
            }
        }
    }

    /** Invokes {@code method} on a local object, unwrapping reflection's wrapper exception. */
    static Object invokeLocal(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Whether {@code ref}'s object lives on this node. */
    boolean servesHere(RemoteRef ref) {
        return ref.nodeId() == self && exports.get(ref.objectId()) != null;
    }

    /** What {@link #callHere} returns when the object does not live on this node. */
    static final Object ELSEWHERE = new Object();

    /**
     * A call through a proxy to an object of this node: no transport, but the meaning of a remote call — the
     * arguments and the result are copied by value through the codec (a callee that changes an argument's array does
     * not change the caller's), and an exception arrives as it would from another node. The runtime's own system
     * objects are called directly. Returns {@link #ELSEWHERE} when the object does not live here.
     */
    Object callHere(RemoteRef ref, Method method, Object[] args) throws Throwable {
        if (ref.nodeId() != self) {
            return ELSEWHERE;
        }
        String gone = goneNodes.get(self); // after a failure of the cluster, as any call would
        if (gone != null) {
            throw cannotCall(self, "#" + ref.objectId(), method, gone);
        }
        ExportTable.Exported target = exports.get(ref.objectId());
        if (target == null) {
            return ELSEWHERE; // sent to this node like any call, which answers that it serves no such object
        }
        Object[] actual = args == null ? NO_ARGUMENTS : args;
        if (ref.objectId() < ExportTable.FIRST_USER_ID) {
            return invokeLocal(target.target(), method, actual);
        }
        int index = target.methods().indexOf(MethodIds.idOf(method));
        ObjectGate gate = target.gate();
        CallerState state = callers.get();
        // a method of the object that calls it again on its own thread re-enters it, as a monitor is re-entered: a
        // migration waits for the outer call, and a safe-mode object runs one call at a time, so it would wait for good
        boolean reentry = index >= 0 && state.runs(gate);
        if (index < 0 || !reentry && (target.safeMode() != null || !gate.enter())) {
            // through the transport to this node: it answers a bad call, queues a safe-mode object's call, holds
            // or forwards a call of an object that is moving or moved
            return ELSEWHERE;
        }
        if (reentry) {
            gate.reenter();
        }
        gate.tally(self);
        state.entered(gate);
        // Migration.point() in the method sees this object's safe mode, not that of a safe-mode call it is nested in
        ObjectGate outerSafeCall = ObjectGate.runningSafeCall(target.safeMode() != null ? gate : null);
        try {
            return callEntered(target, index, method, actual, state);
        } finally {
            ObjectGate.runningSafeCall(outerSafeCall);
            state.left();
            gate.exit();
        }
    }

    private Object callEntered(ExportTable.Exported target, int index, Method method, Object[] actual, CallerState state)
        throws Throwable {
        RemoteCallEvent event = recording(); // a call of this node to its own object is profiled as any other
        int end = encodeCall(state, ONE_WAY, target.objectId(), method, MethodIds.idOf(method), actual, 0);
        // a copy of the message: decoding may run code of the program (a record's constructor) that calls again
        Object[] copied = readArguments(codecOf(target.target()), new UnsafeBuffer(copyOf(state.buffer, end)),
            target.methods().parameterTypes(index));
        Object result;
        try {
            result = invokeLocal(target.target(), method, copied);
        } catch (MigrationPending stopped) {
            throw stopped; // a re-entered safe-mode call stopped at a migration point: the outer call stops too
        } catch (Throwable t) {
            int length = codec.writeThrowable(state.buffer, 0, t);
            commitLocal(event, target, method, end, length, "exception");
            throw codecOf(method).reader(new UnsafeBuffer(copyOf(state.buffer, length)), 0, length)
                .readThrowable(method.getExceptionTypes());
        }
        int length = codec.write(state.buffer, 0, result, target.methods().resultLabel(index));
        commitLocal(event, target, method, end, length, "ok");
        return codecOf(method).readValue(new UnsafeBuffer(copyOf(state.buffer, length)), 0, length);
    }

    private void commitLocal(RemoteCallEvent event, ExportTable.Exported target, Method method, int requestBytes,
                             int replyBytes, String outcome) {
        if (event == null) {
            return;
        }
        event.end();
        if (event.shouldCommit()) {
            event.callerNode = self;
            event.targetNode = self;
            event.object = target.name();
            event.method = method.getName();
            event.requestBytes = requestBytes;
            event.replyBytes = replyBytes;
            event.outcome = outcome;
            event.commit();
        }
    }

    private static byte[] copyOf(ExpandableArrayBuffer buffer, int length) {
        byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    // ---------------------------------------------------------------- references in arguments

    /** The replicated-write watermark calls and replies carry (see the class comment). */
    public void causality(BarrierWatermark watermark) {
        this.causality = watermark;
    }

    private void catchUp(long applied) {
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
        pending.takeAll(call -> true, call -> failed(call, new CumulusException(
            "call " + describe(call.label(), call.method()) + " on node " + call.target() + " failed: " + why)));
    }
}
