package dev.cumulus.internal.singlevm;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.node.NodeServices;
import dev.cumulus.internal.rpc.DeferredReply;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One node's part of the single-VM shared heap (Hyperion §4, docs/design/SINGLEVM.md): the objects this node created
 * (their home), its cache of the others', and the cluster-wide monitors. The explicit API the agent's woven code
 * calls: every shared object is a vector of 64-bit slots (longs, doubles by their bits, references as object ids,
 * {@code 0} for {@code null}), named by a cluster-wide id whose top bits name its home.
 *
 * <ul>
 *   <li>{@link #getLong}/{@link #putLong} (and the double and reference forms) go through the node's cache with a
 *   dirty bitmap per slot; an object homed here is read and written in place.</li>
 *   <li>{@link #monitorEnter}: acquire the monitor at the object's home, then invalidate the node's cache.
 *   {@link #monitorExit}: write every dirty slot back to its home and wait for the acknowledgements, then release.
 *   {@link #await}, {@link #notifyOne}, {@link #notifyAll} work across nodes; a wait releases as an exit does and
 *   re-acquires as an enter does.</li>
 *   <li>{@link #getVolatile}/{@link #putVolatile} go to the home: a volatile write writes back first (a release), a
 *   volatile read invalidates after (an acquire).</li>
 *   <li>{@link #release} and {@link #acquire} are the same two halves for {@code Thread.start} (release before,
 *   acquire in the new thread) and {@code join} (release at the thread's end, acquire after the join).</li>
 * </ul>
 *
 * <p>Threads: any thread of this node; a thread holds monitors as itself (recursion is counted here, per thread).
 * Protocol messages from other nodes run on whichever thread polls them ({@link HeapService} is all brief).
 */
public final class SharedHeap {
    /** Slots per cache block: a small object is one block; an array is fetched a block at a time. */
    public static final int DEFAULT_BLOCK_SLOTS = 512;

    private final NodeServices node;
    private final int self;
    private final HomeStore home;
    private final NodeCache cache;
    private final Peers peers;
    private final ThreadLocal<Map<Long, int[]>> held = ThreadLocal.withInitial(HashMap::new);
    private final ConcurrentHashMap<Long, CompletableFuture<Void>> grants = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Long> staticsIds = new ConcurrentHashMap<>();
    private volatile NodeFailedException failure;
    /** Counted down when this node learns that the cluster failed ({@link #onNodeFailure}). */
    private final CountDownLatch clusterFailed = new CountDownLatch(1);
    private volatile ObjectSpace objects;

    SharedHeap(NodeServices node, int blockSlots) {
        this.node = node;
        this.self = node.nodeId();
        this.home = new HomeStore(self);
        this.peers = new Peers(node);
        this.cache = new NodeCache(new NodeCache.Homes() {
            @Override
            public Block fetch(long id, int block, int slots) {
                return peers.fetch(ObjectIds.home(id), id, block, slots);
            }

            @Override
            public void writeBack(int to, long[] updates) {
                peers.writeBack(to, updates);
            }
        }, blockSlots);
        node.exportSystem(NodeServices.SINGLE_VM_ID, new Server(), HeapService.class);
        node.onNodeFailure(this::onNodeFailure);
    }

    /** The number of nodes. */
    public int size() {
        return node.size();
    }

    /** This node's id. */
    public int nodeId() {
        return self;
    }

    /** A new object of {@code slots} slots homed on this node; {@code finalSlots} are its final fields. */
    public long allocate(int slots, int... finalSlots) {
        long[] finals = new long[finalSlots.length == 0 ? 0 : (slots + 63) >>> 6];
        for (int f : finalSlots) {
            if (f < 0 || f >= slots) {
                throw new IllegalArgumentException("final slot " + f + " is not one of the object's " + slots);
            }
            finals[f >>> 6] |= 1L << f;
        }
        return home.allocate(slots, finals).id;
    }

    /** A new array of {@code length} elements homed on this node (all zero). */
    public long allocateArray(int length) {
        return home.allocate(length, null).id;
    }

    /** The object holding the static fields of {@code className} ({@code slots} of them), homed on node 0. */
    public long statics(String className, int slots) {
        Long id = staticsIds.get(className);
        if (id == null) {
            id = self == 0 ? home.statics(className, slots) : peers.statics(0, className, slots);
            staticsIds.put(className, id);
        }
        return id;
    }

    /** The length in slots of object {@code ref} (an array's length). */
    public int length(long ref) {
        return isHere(ref) ? home.object(ref).length() : cache.length(ref);
    }

    public long getLong(long ref, int slot) {
        return isHere(ref) ? home.object(ref).get(slot) : cache.get(ref, slot);
    }

    public void putLong(long ref, int slot, long value) {
        if (isHere(ref)) {
            home.object(ref).put(slot, value);
        } else {
            cache.put(ref, slot, value);
        }
    }

    public double getDouble(long ref, int slot) {
        return Double.longBitsToDouble(getLong(ref, slot));
    }

    public void putDouble(long ref, int slot, double value) {
        putLong(ref, slot, Double.doubleToRawLongBits(value));
    }

    /** A reference slot: the id of the object it refers to, {@code 0} for {@code null}. */
    public long getRef(long ref, int slot) {
        return getLong(ref, slot);
    }

    public void putRef(long ref, int slot, long target) {
        putLong(ref, slot, target);
    }

    /** Reads volatile slot {@code slot} at its home, then invalidates this node's cache (an acquire). */
    public long getVolatile(long ref, int slot) {
        long value = isHere(ref) ? home.object(ref).getVolatile(slot) : peers.getVolatile(ObjectIds.home(ref), ref,
            slot);
        invalidateAll();
        return value;
    }

    /** Writes this node's dirty slots back (a release), then writes volatile slot {@code slot} at its home. */
    public void putVolatile(long ref, int slot, long value) {
        flushAll();
        if (isHere(ref)) {
            home.object(ref).putVolatile(slot, value);
        } else {
            peers.putVolatile(ObjectIds.home(ref), ref, slot, value);
        }
    }

    public double getVolatileDouble(long ref, int slot) {
        return Double.longBitsToDouble(getVolatile(ref, slot));
    }

    public void putVolatileDouble(long ref, int slot, double value) {
        putVolatile(ref, slot, Double.doubleToRawLongBits(value));
    }

    /** The release half of a synchronization: every dirty slot of this node is at its home when this returns. */
    public void release() {
        flushAll();
    }

    /** The acquire half: nothing this node fetched before is read from its cache again. */
    public void acquire() {
        invalidateAll();
    }

    /** The used monitors of the objects homed on this node, by object id (for thread dumps). */
    java.util.Map<Long, HomeMonitor> homedMonitors() {
        return home.usedMonitors();
    }

    /** {@code synchronized (ref)} entry: acquires the cluster-wide monitor at its home, then invalidates the cache. */
    public void monitorEnter(long ref) {
        requireRef(ref);
        Map<Long, int[]> mine = held.get();
        int[] count = mine.get(ref);
        if (count != null) {
            count[0]++;
            return;
        }
        long thread = Thread.currentThread().threadId();
        CompletableFuture<Void> grant = expectGrant(thread);
        boolean now;
        try {
            now = isHere(ref) ? home.object(ref).monitor().enter(new Waiter(self, thread))
                : peers.monitorEnter(ObjectIds.home(ref), ref, self, thread);
        } catch (RuntimeException e) {
            grants.remove(thread);
            throw e;
        }
        if (now) {
            grants.remove(thread);
        } else {
            awaitGrant(grant, ref);
        }
        invalidateAll();
        mine.put(ref, new int[] {1});
    }

    /** {@code synchronized (ref)} exit: writes back every dirty slot and waits for the acks, then releases. */
    public void monitorExit(long ref) {
        Map<Long, int[]> mine = held.get();
        int[] count = owned(mine, ref, "release");
        if (--count[0] > 0) {
            return;
        }
        mine.remove(ref);
        flushAll();
        long thread = Thread.currentThread().threadId();
        if (isHere(ref)) {
            grant(ref, home.object(ref).monitor().exit(new Waiter(self, thread)));
        } else {
            peers.monitorExit(ObjectIds.home(ref), ref, self, thread);
        }
    }

    /** {@code ref.wait()}: releases as {@link #monitorExit} does, waits for a notify, re-acquires as an enter does. */
    public void await(long ref) throws InterruptedException {
        await(ref, 0);
    }

    /**
     * {@code ref.wait(timeoutMs)} ({@code 0}: no timeout). An interrupt or the timeout ends the wait early; either way
     * the thread holds the monitor again when this returns or throws {@link InterruptedException}.
     */
    public void await(long ref, long timeoutMs) throws InterruptedException {
        if (timeoutMs < 0) {
            throw new IllegalArgumentException("timeout value is negative: " + timeoutMs);
        }
        Map<Long, int[]> mine = held.get();
        int[] count = owned(mine, ref, "wait on");
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        mine.remove(ref);
        flushAll();
        long thread = Thread.currentThread().threadId();
        Waiter me = new Waiter(self, thread);
        CompletableFuture<Void> grant = expectGrant(thread);
        if (isHere(ref)) {
            grant(ref, home.object(ref).monitor().await(me));
        } else {
            peers.monitorWait(ObjectIds.home(ref), ref, self, thread);
        }
        boolean interrupted = false;
        try {
            if (timeoutMs == 0) {
                grant.get();
            } else {
                grant.get(timeoutMs, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            interrupted = cancelWait(ref, me);
            if (!interrupted) {
                Thread.currentThread().interrupt(); // notified first: the interrupt stays pending
            }
        } catch (TimeoutException e) {
            cancelWait(ref, me);
        } catch (ExecutionException e) {
            throw failed(e, ref);
        }
        awaitGrant(grant, ref);
        invalidateAll();
        mine.put(ref, count);
        if (interrupted) {
            throw new InterruptedException();
        }
    }

    /** {@code ref.notify()}: moves one waiter of the monitor, which this thread holds, to its entry queue. */
    public void notifyOne(long ref) {
        notifyWaiters(ref, false);
    }

    /** {@code ref.notifyAll()}: moves every waiter of the monitor, which this thread holds, to its entry queue. */
    public void notifyAll(long ref) {
        notifyWaiters(ref, true);
    }

    /** Whether the monitor of {@code ref} is homed here and no thread holds it, queues for it or waits in it now. */
    boolean monitorIdleHere(long ref) {
        if (!isHere(ref)) {
            return false;
        }
        HomeMonitor m = home.monitorIfUsed(ref);
        if (m == null) {
            return true;
        }
        HomeMonitor.State s = m.state();
        return s.owner() == null && s.entries().isEmpty() && s.waitSet().isEmpty();
    }

    /** Whether the current thread holds the monitor of {@code ref} ({@code Thread.holdsLock}). */
    public boolean holdsLock(long ref) {
        return held.get().containsKey(ref);
    }

    /** Makes {@code space}'s copies part of this node's cache: every acquire invalidates them, every release flushes. */
    void attach(ObjectSpace space) {
        if (objects != null && objects != space) {
            throw new IllegalStateException("node " + self + " already runs a single-VM program");
        }
        objects = space;
    }

    Peers peers() {
        return peers;
    }

    private void flushAll() {
        cache.flush();
        ObjectSpace o = objects;
        if (o != null) {
            o.flush();
        }
    }

    private void invalidateAll() {
        cache.invalidate();
        ObjectSpace o = objects;
        if (o != null) {
            o.invalidate();
        }
    }

    private ObjectSpace objects() {
        ObjectSpace o = objects;
        if (o == null) {
            throw new IllegalStateException("node " + self + " runs no single-VM program (its objects were asked for)");
        }
        return o;
    }

    /** Blocks fetched, write-backs sent and invalidations made by this node so far. */
    long fetches() {
        return cache.fetches();
    }

    long writeBacks() {
        return cache.writeBacks();
    }

    long invalidations() {
        return cache.invalidations();
    }

    private void notifyWaiters(long ref, boolean all) {
        owned(held.get(), ref, all ? "notifyAll on" : "notify on");
        long thread = Thread.currentThread().threadId();
        if (isHere(ref)) {
            home.object(ref).monitor().notifyWaiters(new Waiter(self, thread), all);
        } else {
            peers.monitorNotify(ObjectIds.home(ref), ref, self, thread, all);
        }
    }

    /** Ends a wait early at the home; true if the thread was still waiting (not notified). */
    private boolean cancelWait(long ref, Waiter me) {
        if (isHere(ref)) {
            boolean[] wasWaiting = new boolean[1];
            grant(ref, home.object(ref).monitor().cancelWait(me, wasWaiting));
            return wasWaiting[0];
        }
        return peers.cancelWait(ObjectIds.home(ref), ref, self, me.thread());
    }

    private int[] owned(Map<Long, int[]> mine, long ref, String what) {
        int[] count = mine.get(ref);
        if (count == null) {
            throw new IllegalMonitorStateException("the current thread cannot " + what + " the monitor of shared "
                + "object " + ObjectIds.describe(ref) + ": it does not hold it");
        }
        return count;
    }

    private CompletableFuture<Void> expectGrant(long thread) {
        CompletableFuture<Void> grant = new CompletableFuture<>();
        if (grants.putIfAbsent(thread, grant) != null) {
            throw new IllegalStateException("thread " + thread + " on node " + self + " already waits for a monitor");
        }
        NodeFailedException f = failure;
        if (f != null) {
            grants.remove(thread);
            throw f;
        }
        return grant;
    }

    /** Waits, not interruptibly (as monitor entry does not), for the grant of {@code ref}'s monitor. */
    private void awaitGrant(CompletableFuture<Void> grant, long ref) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    grant.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw failed(e, ref);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private RuntimeException failed(ExecutionException e, long ref) {
        if (e.getCause() instanceof RuntimeException r) {
            return r;
        }
        return new CumulusException("waiting for the monitor of shared object " + ObjectIds.describe(ref) + " failed",
            e.getCause());
    }

    /** Tells {@code to} (if any) that it holds the monitor of {@code ref} now: here directly, elsewhere one-way. */
    private void grant(long ref, Waiter to) {
        if (to == null) {
            return;
        }
        if (to.node() == self) {
            onGranted(ref, to.thread());
            return;
        }
        try {
            peers.granted(to.node(), ref, to.thread());
        } catch (RuntimeException e) {
            if (failure == null) {
                node.fail("single VM: node " + self + " could not grant the monitor of shared object "
                    + ObjectIds.describe(ref) + " to " + to + ": " + e);
            }
        }
    }

    private void onGranted(long ref, long thread) {
        CompletableFuture<Void> grant = grants.remove(thread);
        if (grant == null) {
            node.fail("single VM: node " + self + " was granted the monitor of shared object " + ObjectIds.describe(ref)
                + " for thread " + thread + ", which waits for none");
            return;
        }
        grant.complete(null);
    }

    private void onNodeFailure(int failed, String reason) {
        NodeFailedException f = new NodeFailedException(failed, "node " + failed + " failed (" + reason
            + "): the shared heap's objects and monitors homed there are gone");
        failure = f;
        grants.values().forEach(g -> g.completeExceptionally(f));
        clusterFailed.countDown();
    }

    /** Ends the run, fail-stop for every node, because of {@code reason} (what the nodes print); returns at once. */
    void failRun(String reason) {
        node.fail(reason);
    }

    /**
     * Waits up to {@code timeoutMs} until this node knows that the cluster failed (its own failure is then on its way
     * to the peers); false if it did not within that time.
     */
    boolean awaitFailure(long timeoutMs) throws InterruptedException {
        return clusterFailed.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    private boolean isHere(long ref) {
        requireRef(ref);
        return ObjectIds.home(ref) == self;
    }

    private static void requireRef(long ref) {
        if (ref == ObjectIds.NULL) {
            throw new NullPointerException("a shared reference is null");
        }
    }

    /** The home side, and the grants for this node's threads, as the other nodes call them. */
    private final class Server implements HeapService {
        @Override
        public Block fetch(long id, int block, int blockSlots) {
            return home.object(id).block(block, blockSlots);
        }

        @Override
        public void writeBack(long[] updates) {
            home.writeBack(updates);
        }

        @Override
        public boolean monitorEnter(long id, int from, long thread) {
            return home.object(id).monitor().enter(new Waiter(from, thread));
        }

        @Override
        public void monitorExit(long id, int from, long thread) {
            grant(id, home.object(id).monitor().exit(new Waiter(from, thread)));
        }

        @Override
        public void monitorWait(long id, int from, long thread) {
            grant(id, home.object(id).monitor().await(new Waiter(from, thread)));
        }

        @Override
        public boolean cancelWait(long id, int from, long thread) {
            boolean[] wasWaiting = new boolean[1];
            grant(id, home.object(id).monitor().cancelWait(new Waiter(from, thread), wasWaiting));
            return wasWaiting[0];
        }

        @Override
        public void monitorNotify(long id, int from, long thread, boolean all) {
            home.object(id).monitor().notifyWaiters(new Waiter(from, thread), all);
        }

        @Override
        public void granted(long id, long thread) {
            onGranted(id, thread);
        }

        @Override
        public long getVolatile(long id, int slot) {
            return home.object(id).getVolatile(slot);
        }

        @Override
        public void putVolatile(long id, int slot, long value) {
            home.object(id).putVolatile(slot, value);
        }

        @Override
        public long statics(String className, int slots) {
            return home.statics(className, slots);
        }

        @Override
        public void startThread(long id, String className, String name, int creator, long handle, boolean daemon) {
            ObjectSpace o = objects();
            o.serving(() -> {
                o.threads().run(id, className, name, creator, handle, daemon);
                return null;
            });
        }

        @Override
        public void threadEnded(long handle) {
            objects().threads().ended(handle);
        }

        @Override
        public void threadFailed(long handle, String failure) {
            objects().threads().failed(handle, new ThreadFailure(failure));
        }

        @Override
        public String threadDump() {
            return ThreadDump.local(objects());
        }

        @Override
        public void interruptThread(long handle) {
            objects().threads().interrupt(handle);
        }

        @Override
        public String threadState(long handle) {
            return objects().threads().localState(handle).name();
        }

        @Override
        public int threadStarted(int delta) {
            return objects().threads().counted(delta);
        }

        @Override
        public void programExit(int origin, int status, boolean halt) {
            ProgramExit.onPeerExit(SharedHeap.this, origin, status, halt);
        }

        @Override
        public ObjectImage fetchObject(long id) {
            ObjectSpace o = objects();
            return o.serving(() -> o.serveFetch(id));
        }

        @Override
        public ObjectImage fetchStatics(String className) {
            ObjectSpace o = objects();
            return o.serving(() -> o.serveStatics(className));
        }

        @Override
        public ObjectImage initialiseStatics(String className, String threadName) {
            ObjectSpace o = objects();
            DeferredReply reply = DeferredReply.defer();
            Thread.ofPlatform().daemon().name(threadName).start(() -> {
                try {
                    reply.complete(o.serving(() -> o.serveInitialisation(className)));
                } catch (RuntimeException | Error e) {
                    reply.fail(e);
                }
            });
            return null;
        }

        @Override
        public ObjectImage fetchElements(long id, int from, int count) {
            ObjectSpace o = objects();
            return o.serving(() -> o.serveElements(id, from, count));
        }

        @Override
        public void writeObjects(long[] ids, int[] offsets, ObjectImage[] images) {
            ObjectSpace o = objects();
            if (o.nodeId() != 0) {
                List<Class<?>> classes = o.uninitialisedFor(offsets, images);
                if (!classes.isEmpty()) {
                    DeferredReply reply = DeferredReply.defer();
                    o.storeInitialising(classes, () -> storeAndReply(o, ids, offsets, images, reply));
                    return;
                }
            }
            o.serving(() -> {
                o.serveWrites(ids, offsets, images);
                return null;
            });
        }

        private static void storeAndReply(ObjectSpace o, long[] ids, int[] offsets, ObjectImage[] images,
                                          DeferredReply reply) {
            try {
                o.serving(() -> {
                    o.serveWrites(ids, offsets, images);
                    return null;
                });
                reply.complete(null);
            } catch (RuntimeException | Error e) {
                reply.fail(e);
            }
        }
    }
}
