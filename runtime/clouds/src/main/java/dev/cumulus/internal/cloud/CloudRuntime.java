package dev.cumulus.internal.cloud;

import dev.cumulus.Cloud;
import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.capability.CloudCapability;
import dev.cumulus.internal.codec.CodecLimits;
import dev.cumulus.internal.codec.ReferenceHandler;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.codec.ValueCodec;
import dev.cumulus.internal.codec.ValueReader;
import dev.cumulus.internal.node.NodeServices;
import dev.cumulus.internal.order.BarrierWatermark;
import dev.cumulus.internal.sched.Scheduler;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static dev.cumulus.internal.sched.Scheduler.Work.DELIVERED_WRITES;
import static dev.cumulus.internal.sched.Scheduler.Work.WRITES_FOR_WAITING_CALLER;

/**
 * One node's replicated objects (Manta's clouds): creates replicas collectively, ships write calls through the
 * node's totally ordered broadcast, and applies delivered writes to the local replicas on the node's
 * {@link DeliveryScheduler}. Reads never come here: they run on the local replica.
 *
 * <p>Broadcast payloads: {@code JOIN(name, class)} when a node created its replica of a cloud (the cloud is active
 * once every node's JOIN is delivered — the same point in the total order everywhere, before any write to it), and
 * {@code WRITE(callId, name, methodKey, args...)}. Arguments and results are passed by value.
 *
 * <p>Created at node start by {@link CloudsProvider}; the {@code Cluster} reaches it as its {@link CloudCapability}.
 */
public final class CloudRuntime implements CloudCapability, BarrierWatermark, ReferenceHandler, AutoCloseable {
    private static final byte JOIN = 1;
    private static final byte WRITE = 2;
    private static final String CLOUD_REF_PREFIX = "cloud:";
    private static final ThreadLocal<DeliveryScheduler> DELIVERING = new ThreadLocal<>();

    private final NodeServices node;
    private final BroadcastEndpoint broadcast;
    /** A main-thread drain longer than this (well above a preemption) pauses them: {@link #drainOnMain}. */
    private static final long LONG_DRAIN_NS = TimeUnit.MILLISECONDS.toNanos(10);
    /** How long a long drain stops main-thread drains: a write held up by a reader, or the JIT's first runs. */
    private static final long LONG_DRAIN_PAUSE_NS = TimeUnit.SECONDS.toNanos(1);
    /** The most delivered writes a waiting caller applies after one poll ({@link #drainOnCaller}). */
    private static final int CALLER_DRAIN_MAX = 8;
    /** See {@link #afterEveryWrite}. */
    private volatile Runnable afterEveryWrite;
    /** Whether delivered writes may be applied by the main thread; false for good once a write waited. */
    private volatile boolean inlineDrains = true;
    /** {@code nanoTime} before which main-thread drains stay off after a long one. */
    private volatile long drainsPausedUntilNs = System.nanoTime();
    private final DeliveryScheduler scheduler;
    private final ValueCodec codec;
    private final Map<String, Replica> clouds = new ConcurrentHashMap<>();
    private final Map<Long, PendingWrite> pending = new ConcurrentHashMap<>();
    private final AtomicLong nextCallId = new AtomicLong();
    private final Object appliedLock = new Object();
    private volatile long applied = -1;
    /** The highest sequence number of this node's own writes whose callers returned ({@link #covered()}). */
    private final AtomicLong ownDone = new AtomicLong(-1);
    private volatile NodeFailedException failure;
    private volatile String leftReason;
    private final Consumer<CloudSummaryEvent.Emitter> summaries;

    /** A cloud as this node knows it. */
    public static final class Replica {
        private final CloudRuntime runtime;
        private final String name;
        private volatile Object root;
        private final CompletableFuture<Void> active = new CompletableFuture<>();
        private final Set<Integer> joined = new HashSet<>();
        private String className;
        final AtomicLong writes = new AtomicLong();
        final AtomicLong restarts = new AtomicLong();

        Replica(CloudRuntime runtime, String name) {
            this.runtime = runtime;
            this.name = name;
        }

        CloudRuntime runtime() {
            return runtime;
        }

        public String name() {
            return name;
        }

        public Object root() {
            return root;
        }
    }

    /**
     * A write shipped from this node. {@code polled} completes when its shipping thread's own poll delivered it
     * ({@code step} then holds it) or when it is over anyway ({@link #ship}).
     */
    private static final class PendingWrite {
        final long callId;
        final CompletableFuture<Object> result = new CompletableFuture<>();
        final CompletableFuture<Void> polled = new CompletableFuture<>();
        final BroadcastWriteEvent event;
        /** Set (on the shipping thread, during its poll) when that poll delivered the write. */
        DeliveryScheduler.Step step;

        PendingWrite(long callId, BroadcastWriteEvent event) {
            this.callId = callId;
            this.event = event;
        }

        void fail(Throwable t) {
            result.completeExceptionally(t);
            polled.complete(null);
        }
    }

    /** The write the current thread shipped and polls for ({@link #ship}); per node (in-process clusters). */
    private final ThreadLocal<PendingWrite> shippedHere = new ThreadLocal<>();

    public CloudRuntime(NodeServices node) {
        this.node = node;
        this.summaries = emitter -> clouds.values().forEach(r -> {
            Object root = r.root;
            emitter.emit(node.nodeId(), r.name, root == null ? "" : root.getClass().getName(), r.writes.get(),
                r.restarts.get());
        });
        this.broadcast = new BroadcastEndpoint(node.orderChannel(), node.nodeId(), node.size(),
            node.settings().sequencer(), 0, node.settings().liveness().stuckSendNs());
        node.orderChannel().serve(broadcast);
        this.codec = new ValueCodec(this, Thread.currentThread().getContextClassLoader(), CodecLimits.DEFAULTS);
        this.scheduler = new DeliveryScheduler("cumulus-delivery-" + node.nodeId(), this::onApplied,
            () -> inlineDrains = false);
        broadcast.delivery(this::onDelivered);
        node.barrierWatermark(this);
        node.onNodeFailure(this::onNodeFailure);
        node.onPeerLeft(this::onPeerLeft);
        node.localReferences(this);
        CloudSummaryEvent.addSource(summaries);
        scheduler.start();
    }

    /**
     * Runs {@code listener} on the applying thread right after every write applied here (null: none). The replication
     * benchmark takes Manta's t_e here, since a cloud method may not read the clock (CUM107). Brief; no cloud calls.
     */
    public void afterEveryWrite(Runnable listener) {
        afterEveryWrite = listener;
    }

    static boolean inDelivery() {
        DeliveryScheduler s = DELIVERING.get();
        return s != null && s.inExecution();
    }

    static DeliveryScheduler currentScheduler() {
        DeliveryScheduler s = DELIVERING.get();
        return s != null && s.inExecution() ? s : null;
    }

    // ------------------------------------------------------------------ creating clouds

    /**
     * Collective: every node calls it with the same name; each gets its own replica, created by {@code factory} on
     * this node. Returns once every node has created its replica.
     */
    @Override
    public <T extends Cloud.Root> T replicated(String name, Supplier<T> factory) {
        checkUsable();
        if (name == null || name.isEmpty() || name.length() > 256) {
            throw new CumulusException("cloud names have 1 to 256 characters");
        }
        AgentLoader.ensureInstalled();
        ReplicaDispatcher.install();
        // A JOIN from a faster node may have created the entry already (without a local root).
        Replica replica = clouds.computeIfAbsent(name, n -> new Replica(this, n));
        boolean joinNow = false;
        synchronized (replica) {
            if (replica.root == null) {
                T root = factory.get();
                if (root == null) {
                    throw new CumulusException("the factory of cloud '" + name + "' returned null");
                }
                checkNotRefused(root.getClass());
                codec.allowList().allowSignatures(root.getClass()); // its writes' arguments arrive from every node
                replica.root = root;
                ReplicaDispatcher.INSTANCE.register(root, replica);
                joinNow = true;
            }
        }
        if (joinNow) {
            ExpandableArrayBuffer buf = new ExpandableArrayBuffer(128);
            buf.putByte(0, JOIN);
            int end = codec.write(buf, 1, name, "cloud name");
            end = codec.write(buf, end, replica.root.getClass().getName(), "cloud class");
            broadcast.submit(copy(buf, end));
        }
        awaitActive(replica);
        @SuppressWarnings("unchecked")
        T root = (T) replica.root;
        return root;
    }

    /** A class the agent refused (rule violations) is never replicated; the message lists the findings. */
    private static void checkNotRefused(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            String refusal = CloudHooks.refusalOf(c.getName());
            if (refusal != null) {
                throw new CumulusException("cannot replicate " + type.getName() + ": " + refusal);
            }
        }
        if (!CloudHooks.isWoven(type.getName())) {
            throw new CumulusException("cannot replicate " + type.getName() + ": the Cumulus agent has not woven it "
                + "(the agent is not running, failed to start, or the class is not a Cloud.Root), so its writes would "
                + "stay on this node; run with 'cumulus run' or -javaagent:cumulus-agent.jar with cumulus-analysis on "
                + "the classpath, and look for 'Agent failed to start' above");
        }
    }

    private void awaitActive(Replica replica) {
        try {
            replica.active.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while creating cloud '" + replica.name + "'", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new CumulusException("cloud '" + replica.name + "' could not be created: " + e.getCause(),
                e.getCause());
        }
    }

    // ------------------------------------------------------------------ shipping writes

    /** Ships a write call to every replica; returns this replica's result (or throws its exception). */
    Object ship(Replica replica, String methodKey, Object[] args, Object self) throws Throwable {
        checkUsable();
        long callId = nextCallId.incrementAndGet();
        ExpandableArrayBuffer buf = new ExpandableArrayBuffer(128);
        buf.putByte(0, WRITE);
        buf.putLong(1, callId);
        int end = codec.write(buf, 9, replica.name, "cloud name");
        end = codec.write(buf, end, methodKey, "method");
        end = codec.writeArguments(buf, end, args == null ? new Object[0] : args,
            () -> replica.root.getClass().getSimpleName() + "." + methodKey);
        if (end > broadcast.maxPayloadBytes()) {
            throw new CumulusException("the write " + replica.root.getClass().getSimpleName() + "." + methodKey
                + " carries " + end + " bytes, more than the " + broadcast.maxPayloadBytes() + " a replicated write may; "
                + "send less per call");
        }
        BroadcastWriteEvent event = new BroadcastWriteEvent();
        event.begin();
        event.cloud = replica.name;
        event.method = methodKey.substring(0, methodKey.indexOf('('));
        event.bytes = end;
        PendingWrite p = new PendingWrite(callId, event);
        pending.put(callId, p);
        NodeFailedException f = failure;
        if (f != null) {
            pending.remove(callId);
            throw new NodeFailedException(f.nodeId(), f.getMessage());
        }
        broadcast.submit(copy(buf, end));
        replica.writes.incrementAndGet();
        // only a synchronized write: its caller holds the replica's monitor anyway, so running it here changes nothing
        boolean polled = Modifier.isSynchronized(Methods.find(self.getClass(), methodKey).getModifiers())
            && applyHereWhenDelivered(p);
        // a wait for the sequencer is not this method running slowly
        Runnable waited = p.result.isDone() ? Scheduler.NOTHING : node.scheduler().mayBlock();
        try {
            return awaitShipped(p, self, polled);
        } finally {
            waited.run();
        }
    }

    /** Waits for a shipped write's outcome here: its result, or its exception thrown. */
    private Object awaitShipped(PendingWrite p, Object self, boolean polled) throws Throwable {
        boolean interrupted = false;
        if (Thread.holdsLock(self)) {
            // The caller is inside a synchronized method of the replica: give the monitor up while the write runs.
            while (!p.result.isDone()) {
                try {
                    self.wait();
                } catch (InterruptedException e) {
                    interrupted = true; // the write is on its way to every replica: wait for its outcome anyway
                }
            }
        }
        if (!polled) {
            node.scheduler().pollBriefly(p.result::isDone, Scheduler.Awaited.OTHER); // its copy comes by a poll
        }
        try {
            while (true) {
                try {
                    return p.result.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            throw e.getCause();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The shipping thread polls for its write's delivery for the caller poll budget and, when its own poll delivers
     * it and it is next in line, applies it here, as plain Java runs a method on its caller's thread: no hand-off and
     * wake-up. Only this write: this thread may hold monitors a write of another origin, were it to wait, would keep
     * held. Otherwise the scheduler applies it and this thread waits for the result. Returns true (it polled).
     */
    private boolean applyHereWhenDelivered(PendingWrite p) {
        shippedHere.set(p);
        try {
            node.scheduler().pollBriefly(p.polled::isDone, Scheduler.Awaited.OTHER);
        } finally {
            shippedHere.remove();
        }
        DeliveryScheduler.Step step = p.step;
        if (step != null && !scheduler.runOwn(step)) {
            scheduler.wake(); // another runner, or earlier writes first: a drain runs it
        }
        return true;
    }

    void recordRestart(Replica replica) {
        replica.restarts.incrementAndGet();
    }

    // ------------------------------------------------------------------ applying delivered messages

    private void onDelivered(long seq, int origin, byte[] payload) {
        if (payload.length == 0) {
            return;
        }
        DeliveryScheduler.Step step;
        if (payload[0] == JOIN) {
            step = new InlineStep(seq, () -> applyJoin(origin, payload));
        } else if (payload[0] == WRITE) {
            WriteStep write = new WriteStep(seq, origin, payload);
            PendingWrite mine = origin == node.nodeId() ? shippedHere.get() : null;
            if (mine != null && mine.callId == write.callId()) {
                // its shipping thread polls for it and applies it after the poll (applyHereWhenDelivered)
                scheduler.deliver(write);
                mine.step = write;
                mine.polled.complete(null);
                return;
            }
            step = write;
        } else {
            return;
        }
        // the main thread applies it right after this poll (no thread switch); anyone else wakes the scheduler
        Scheduler threads = node.scheduler();
        if (scheduler.deliver(step)
            && !(mainDrains() && threads.runAfterPoll(this::drainOnMain, task -> scheduler.wake(), DELIVERED_WRITES))
            && !threads.runAfterPoll(this::drainOnCaller, task -> scheduler.wake(), WRITES_FOR_WAITING_CALLER)) {
            scheduler.wake();
        }
    }

    /**
     * A thread waiting for a reply polled delivered writes: it applies them itself after its poll rather than waking
     * the scheduler's thread. Only synchronized writes of wait-free cloud classes (one that waits would hold this
     * caller until another write notifies it), on replicas whose monitor this thread does not hold, at most
     * {@link #CALLER_DRAIN_MAX} per poll; the rest go to the scheduler's thread.
     */
    private void drainOnCaller() {
        scheduler.drainWhile(step -> step.inline() || step instanceof WriteStep w && w.mayRunOnCaller(),
            CALLER_DRAIN_MAX);
    }

    /** Whether the main thread may apply delivered writes now. */
    private boolean mainDrains() {
        return inlineDrains && System.nanoTime() - drainsPausedUntilNs >= 0;
    }

    /**
     * The main thread's drain. A write that waits turns these off for good, a long drain for a while: the main thread
     * (its standby polling meanwhile) would be held as long as the write waits or is held up.
     */
    private void drainOnMain() {
        long start = System.nanoTime();
        scheduler.drain();
        long end = System.nanoTime();
        if (end - start > LONG_DRAIN_NS) {
            drainsPausedUntilNs = end + LONG_DRAIN_PAUSE_NS;
        }
    }

    private record InlineStep(long seq, Runnable body) implements DeliveryScheduler.Step {
        @Override
        public boolean inline() {
            return true;
        }

        @Override
        public void run() {
            body.run();
        }
    }

    private void applyJoin(int origin, byte[] payload) {
        ValueReader r = codec.reader(new UnsafeBuffer(payload), 1, payload.length - 1);
        String name = (String) r.read();
        String className = (String) r.read();
        Replica replica = clouds.computeIfAbsent(name, n -> new Replica(this, n));
        if (replica.className == null) {
            replica.className = className;
        } else if (!replica.className.equals(className)) {
            replica.active.completeExceptionally(new CumulusException("the cloud name '" + name + "' is used for "
                + replica.className + " and for " + className + " (node " + origin + "); one name, one class"));
            return;
        }
        replica.joined.add(origin);
        if (replica.joined.size() == node.size()) {
            replica.active.complete(null);
        }
    }

    private final class WriteStep implements DeliveryScheduler.Step {
        private final long seq;
        private final int origin;
        private final byte[] payload;

        WriteStep(long seq, int origin, byte[] payload) {
            this.seq = seq;
            this.origin = origin;
            this.payload = payload;
        }

        long callId() {
            return new UnsafeBuffer(payload).getLong(1);
        }

        @Override
        public long seq() {
            return seq;
        }

        @Override
        public boolean inline() {
            return false;
        }

        @Override
        public Object monitor() {
            Replica r = target; // set by resolve(); a look from another thread may find it not yet set
            return r == null ? null : r.root;
        }

        /** Decoded by {@link #resolve} (the runner role's holder; hand-overs of the role order it). */
        private ValueReader reader;
        private Replica target;
        private Method method;
        private Throwable unresolved;

        /** Reads the target cloud and method, once; only the next write in line is resolved, so earlier JOINs are in. */
        private void resolve() {
            if (reader != null || unresolved != null) {
                return;
            }
            try {
                ValueReader r = codec.reader(new UnsafeBuffer(payload), 9, payload.length - 9);
                String name = (String) r.read();
                String methodKey = (String) r.read();
                Replica replica = clouds.get(name);
                if (replica == null || replica.root == null) {
                    throw new CumulusException("write to cloud '" + name + "', which node " + node.nodeId()
                        + " does not have");
                }
                target = replica;
                method = Methods.find(replica.root.getClass(), methodKey);
                codec.allowList().allowSignature(method); // a method of the cloud's class (once per method)
                reader = r;
            } catch (Throwable t) {
                unresolved = t;
            }
        }

        /** Whether a thread waiting for a reply may apply this write itself ({@link #drainOnCaller}). */
        boolean mayRunOnCaller() {
            resolve();
            return reader != null && Modifier.isSynchronized(method.getModifiers())
                && CloudHooks.isWaitFree(target.root.getClass()) && !Thread.holdsLock(target.root);
        }

        @Override
        public void run() {
            DELIVERING.set(scheduler);
            long callId = callId();
            Object result = null;
            Throwable thrown = null;
            Replica replica = null;
            try {
                resolve();
                if (unresolved != null) {
                    throw unresolved;
                }
                replica = target;
                Method m = method;
                Object[] args = reader.readArguments(m.getParameterCount());
                result = m.invoke(replica.root, args);
                Runnable listener = afterEveryWrite;
                if (listener != null) {
                    listener.run();
                }
            } catch (InvocationTargetException e) {
                thrown = e.getCause();
            } catch (Throwable t) {
                thrown = t;
            } finally {
                DELIVERING.remove();
            }
            if (thrown instanceof VirtualMachineError fatal) {
                node.fail("node " + node.nodeId() + " failed applying a replicated write: " + fatal);
            }
            if (origin == node.nodeId()) {
                // covered() includes this write before its caller returns, so the barrier or call it makes next
                // depends on it; applied() counts it once the scheduler marks it (at once, or after the writes it woke).
                ownDone.accumulateAndGet(seq, Math::max);
                complete(callId, seq, replica, result, thrown);
            }
        }
    }

    private void complete(long callId, long seq, Replica replica, Object result, Throwable thrown) {
        PendingWrite p = pending.remove(callId);
        if (p == null) {
            return;
        }
        BroadcastWriteEvent e = p.event;
        e.end();
        if (e.shouldCommit()) {
            e.node = node.nodeId();
            e.seq = seq;
            e.commit();
        }
        if (thrown != null) {
            p.result.completeExceptionally(thrown);
        } else {
            try {
                p.result.complete(copyByValue(result));
            } catch (RuntimeException notTransferable) {
                p.result.completeExceptionally(notTransferable);
            }
        }
        p.polled.complete(null);
        if (replica != null && replica.root != null) {
            synchronized (replica.root) {
                replica.root.notifyAll(); // a caller waiting inside a synchronized method of the replica
            }
        }
    }

    /** Results are passed by value: the caller never shares an object with its replica. */
    private Object copyByValue(Object value) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean
            || value instanceof Character || value instanceof Enum<?>) {
            return value;
        }
        ExpandableArrayBuffer buf = new ExpandableArrayBuffer(64);
        int end = codec.write(buf, 0, value, "result");
        return codec.reader(buf, 0, end).read();
    }

    private void onApplied(long seq) {
        synchronized (appliedLock) {
            if (seq > applied) {
                applied = seq;
                appliedLock.notifyAll();
            }
        }
    }

    @Override
    public long applied() {
        return applied;
    }

    @Override
    public long covered() {
        return Math.max(applied, ownDone.get());
    }

    /** How often a wait for applied writes checks that its own thread does not hold them up (ms). */
    private static final long HOLD_UP_CHECK_MS = 50;

    @Override
    public void awaitApplied(long seq) throws InterruptedException {
        synchronized (appliedLock) {
            Object heldBefore = null;
            while (applied < seq && failure == null) {
                Object held = scheduler.monitorHeldFromAWrite();
                if (held != null && held == heldBefore) { // seen twice, HOLD_UP_CHECK_MS apart
                    throw new CumulusException("this thread holds the monitor of a replicated "
                        + held.getClass().getName() + ", which a replicated write on this node needs to go on, and"
                        + " waits for that write (at a barrier, or for the writes a remote call depends on): leave the"
                        + " synchronized block before the barrier or the call");
                }
                heldBefore = held;
                appliedLock.wait(HOLD_UP_CHECK_MS);
            }
        }
        NodeFailedException f = failure;
        if (f != null) {
            throw new NodeFailedException(f.nodeId(), f.getMessage());
        }
    }

    private void onNodeFailure(int failed, String reason) {
        NodeFailedException f = new NodeFailedException(failed, reason);
        failure = f;
        pending.values().forEach(p -> p.fail(f));
        pending.clear();
        clouds.values().forEach(r -> r.active.completeExceptionally(f));
        // callers inside a synchronized method of a replica wait on its monitor: wake them off the agent thread
        Thread.ofVirtual().name("cumulus-cloud-failure").start(() -> clouds.values().forEach(r -> {
            Object root = r.root;
            if (root != null) {
                synchronized (root) {
                    root.notifyAll();
                }
            }
        }));
        synchronized (appliedLock) {
            appliedLock.notifyAll();
        }
    }

    private void onPeerLeft(int peer, String reason) {
        CumulusException gone = new CumulusException(reason + "; replicated writes need every node — call close() "
            + "on all nodes only after their last write");
        leftReason = gone.getMessage();
        pending.values().forEach(p -> p.fail(gone));
        pending.clear();
        synchronized (appliedLock) {
            appliedLock.notifyAll();
        }
    }

    private void checkUsable() {
        String left = leftReason;
        if (left != null) {
            throw new CumulusException(left);
        }
        NodeFailedException f = failure;
        if (f != null) {
            throw new NodeFailedException(f.nodeId(), f.getMessage());
        }
    }

    // ------------------------------------------------------------------ clouds passed by reference

    /** A replica root passed in a call or write travels as its cloud name and arrives as the local replica. */
    @Override
    public RemoteRef toRef(Object value) {
        Replica r = ReplicaDispatcher.INSTANCE.replicaOf(value);
        return r == null ? null : new RemoteRef(node.nodeId(), 0, CLOUD_REF_PREFIX + r.name);
    }

    @Override
    public Object fromRef(RemoteRef ref) {
        return localReplica(ref.interfaceName());
    }

    /** For a reference naming a cloud ({@code cloud:NAME}): this node's replica; else {@code null}. */
    public Object localReplica(String refName) {
        if (!refName.startsWith(CLOUD_REF_PREFIX)) {
            return null;
        }
        String name = refName.substring(CLOUD_REF_PREFIX.length());
        Replica r = clouds.get(name);
        if (r == null || r.root == null) {
            throw new CumulusException("a reference to cloud '" + name + "' arrived at node " + node.nodeId()
                + ", which has not created it; call cluster.replicated(\"" + name + "\", ...) on every node first");
        }
        return r.root;
    }

    @Override
    public void close() {
        CloudSummaryEvent.removeSource(summaries);
        scheduler.stop();
        clouds.values().forEach(r -> {
            if (r.root != null) {
                ReplicaDispatcher.INSTANCE.unregister(r.root);
            }
        });
    }

    private static byte[] copy(ExpandableArrayBuffer buf, int length) {
        byte[] bytes = new byte[length];
        buf.getBytes(0, bytes);
        return bytes;
    }
}
