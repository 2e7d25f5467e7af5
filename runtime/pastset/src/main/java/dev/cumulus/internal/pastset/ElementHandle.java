package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.RemoteCallException;
import dev.cumulus.internal.codec.PreEncodedBytes;
import dev.cumulus.internal.codec.RemoteThrowable;
import dev.cumulus.pastset.Element;
import dev.cumulus.pastset.Placement;
import dev.cumulus.pastset.Semantics;
import dev.cumulus.pastset.Template;
import dev.cumulus.pastset.Tuple;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The client side of one element. A local element (home is this node) is called directly: the fast path, no message,
 * no thread hand-off; a remote one goes to its home node's {@link PastSetService}. Any user thread.
 *
 * <p>Order of {@code moveAsync}: a local one enters the element's lock on the caller's thread before it returns (it
 * parks in the line of held moves when flow control holds it), so it is in order by itself. A remote one is numbered
 * in this node's {@link CallerSequence} of the element as it is sent, and the home runs the numbered operations in
 * number order; a move or observe sent while one is in flight is numbered too (and waits for its own answer), so it
 * does not overtake it. With none in flight, moves and observes go unnumbered, as they always went.
 */
final class ElementHandle implements Element {
    /** How long a caller told of a failed node waits to hear which one from its own node. */
    private static final long FAILURE_NOTICE_WAIT_MS = 5_000;
    private final PastSetRuntime runtime;
    private final Placement placement;
    private final Template template;
    private final String id;
    private final String name;
    private final int home;
    /** The element's state when this node holds it (fast path), else null. */
    private final ElementState local;
    /** This node's ordered operations on the element when it is remote, else null. */
    private final CallerSequence sequence;
    /** This thread's {@code moveAsync} failures that no reply reports (refused here, or of a local element). */
    private final RefusedMoves refused;

    ElementHandle(PastSetRuntime runtime, Placement placement, Template template, String id, int home,
                  ElementState local) {
        this.runtime = runtime;
        this.placement = placement;
        this.template = template;
        this.id = id;
        this.name = PastSetRuntime.nameOf(id);
        this.home = home;
        this.local = local;
        this.sequence = local == null ? runtime.sequence(id) : null;
        this.refused = runtime.refusedMoves(id);
    }

    @Override
    public Template template() {
        return template;
    }

    @Override
    public int homeNode() {
        return home;
    }

    @Override
    public boolean isLocal() {
        return local != null;
    }

    // ---------------------------------------------------------------- move

    /** A checked tuple, snapshotted for its trip: kept as is (local) or encoded (remote). */
    private record Prepared(StoredTuple local, PreEncodedBytes remote) {
    }

    /**
     * @param now the move is sent by this thread before it encodes another tuple: its encoding stays in the thread's
     *            buffer and goes straight into the call message; else it is copied out (an asynchronous move's)
     */
    private Prepared prepare(Object[] fields, boolean now) {
        try {
            template.check(fields);
        } catch (CumulusException e) {
            throw new CumulusException("move into element " + name + ": " + e.getMessage());
        }
        String label = "move into element " + name;
        if (local != null) {
            return new Prepared(runtime.codec().store(fields, label), null);
        }
        TupleCodec codec = runtime.codec();
        return new Prepared(null, now ? codec.encodeForSending(fields, label)
            : TupleCodec.Encoded.of(codec.encode(fields, label)));
    }

    /**
     * Before an operation on this node's element: the node has not left the cluster, and the thread's earlier
     * {@code moveAsync} failures that no reply reported are thrown first.
     */
    private void localOp() {
        runtime.checkOpen(name);
        refused.rethrow(name);
        runtime.localOps.increment();
    }

    private long send(Prepared p, Semantics.Caller caller) {
        if (local != null) {
            localOp();
            return local.move(p.local(), null, caller, false).index();
        }
        MoveReply r = sequence.inFlight()
            ? remote("move", p.remote().byteLength(), () -> (MoveReply) ordered(caller, p.remote()))
            : remote("move", p.remote().byteLength(), () -> runtime.move(home, id, caller, p.remote()));
        return r.index();
    }

    @Override
    public long move(Object... fields) {
        return send(prepare(fields, true), caller());
    }

    /**
     * A remote element's move is sent by this thread before it returns, as a numbered asynchronous call (no thread is
     * started or woken for it; the future completes as the reply is polled): the home runs this node's moves in the
     * order they were sent. A local one runs now on this thread, or parks in the element's line of held moves (its
     * future completed by the change that lets it in).
     */
    @Override
    @SuppressWarnings("unchecked")
    public CompletableFuture<Long> moveAsync(Object... fields) {
        Prepared p;
        try {
            p = prepare(fields, local == null);
        } catch (RuntimeException e) {
            refused.record(Thread.currentThread().threadId(), e); // nothing was sent: no reply will report it
            return CompletableFuture.failedFuture(e);
        }
        Semantics.Caller c = caller();
        if (local != null) {
            return moveLocalAsync(p.local(), c);
        }
        String gone = runtime.failure(home);
        if (gone != null) {
            return CompletableFuture.failedFuture(lost(home, gone));
        }
        runtime.remoteOps.increment();
        PastSetOperationEvent event = new PastSetOperationEvent();
        if (event.isEnabled()) {
            event.begin();
        }
        CompletableFuture<Object> sent;
        long seq = sequence.take();
        try {
            sent = runtime.moveAsync(home, id, c, seq, p.remote(), true);
        } catch (RuntimeException | Error e) {
            sequence.notSent();
            if (e instanceof Error error) {
                throw error;
            }
            return CompletableFuture.failedFuture(e instanceof NodeFailedException f && f.nodeId() == home
                ? lost(home, f.getMessage()) : e);
        }
        sequence.sent(sent, true, c.thread());
        if (event.isEnabled()) {
            // a stage of its own only while a recording takes the event: it sends the answer off the polling thread
            int bytes = p.remote().byteLength();
            sent.whenComplete((index, failure) -> {
                event.end();
                if (event.shouldCommit()) {
                    event.element = id;
                    event.operation = "move";
                    event.callerNode = runtime.self();
                    event.homeNode = home;
                    event.bytes = bytes;
                    event.outcome = failure == null ? "ok" : "error";
                    event.commit();
                }
            });
        }
        return (CompletableFuture<Long>) (CompletableFuture<?>) sent;
    }

    /** A local {@code moveAsync}: in now, or parked in the element's line of held moves (no thread waits for it). */
    private CompletableFuture<Long> moveLocalAsync(StoredTuple tuple, Semantics.Caller c) {
        runtime.checkOpen(name);
        runtime.localOps.increment();
        CompletableFuture<Long> moved = new CompletableFuture<>();
        try {
            ElementState.Outcome now = local.moveOrPark(tuple, c, -1, false, o -> moved.complete(o.index()),
                failure -> {
                    refused.record(c.thread(), failure);
                    moved.completeExceptionally(failure);
                });
            if (now != null) {
                moved.complete(now.index());
            }
        } catch (RuntimeException e) {
            refused.record(c.thread(), e);
            moved.completeExceptionally(e);
        }
        return moved;
    }

    /**
     * A move ({@code tuple} set) or observe sent numbered while an asynchronous move of this node is in flight, so that
     * the home runs it after that one; waits for its answer ({@code MoveReply} or {@code Observed} array).
     */
    private Object ordered(Semantics.Caller caller, PreEncodedBytes tuple) {
        CompletableFuture<Object> call;
        long seq = sequence.take();
        try {
            call = tuple != null ? runtime.moveAsync(home, id, caller, seq, tuple, false)
                : runtime.observeAsync(home, id, caller, seq);
        } catch (RuntimeException | Error e) {
            sequence.notSent();
            throw e;
        }
        sequence.sent(call, false, caller.thread());
        try {
            return call.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    // ---------------------------------------------------------------- observe

    private Tuple observe(Semantics.Caller caller) {
        if (local != null) {
            localOp();
            ElementState.Outcome o = local.observe(caller, false);
            return Tuple.of(o.index(), runtime.codec().fields(o.tuple(), name));
        }
        if (sequence.inFlight()) {
            return tupleOf(remote("observe", -1, () -> (byte[]) ordered(caller, null)));
        }
        return tupleOf(remote("observe", -1,
            () -> runtime.service(home).observe(id, caller.node(), caller.thread(), -1L)));
    }

    private Tuple observeIndex(long index) {
        if (local != null) {
            localOp();
            ElementState.Outcome o = local.observeAt(index, false);
            return Tuple.of(o.index(), runtime.codec().fields(o.tuple(), name));
        }
        return tupleOf(remote("observe-index", -1, () -> runtime.service(home).observeAt(id, index)));
    }

    /** The tuple of an {@code Observed} reply, decoded from the reply's array. */
    private Tuple tupleOf(byte[] reply) {
        if (reply == null || reply.length < Observed.TUPLE_AT) {
            throw new CumulusException("observe on element " + name + ": node " + home + " sent a malformed reply ("
                + (reply == null ? "none" : reply.length + " bytes") + "); every node must run the same Cumulus");
        }
        return Tuple.of(Observed.index(reply),
            runtime.codec().decode(reply, Observed.TUPLE_AT, Observed.tupleLength(reply), name));
    }

    @Override
    public Tuple observe() {
        return observe(caller());
    }

    @Override
    public CompletableFuture<Tuple> observeAsync() {
        Semantics.Caller c = caller();
        return CompletableFuture.supplyAsync(() -> observe(c), runtime.async());
    }

    @Override
    public Tuple observe(long index) {
        return observeIndex(index);
    }

    @Override
    public CompletableFuture<Tuple> observeAsync(long index) {
        return CompletableFuture.supplyAsync(() -> observeIndex(index), runtime.async());
    }

    // ---------------------------------------------------------------- pointers, delta, truncate

    private long[] pointers() {
        if (local != null) {
            localOp();
            return local.pointers();
        }
        return remote("pointers", 0, () -> runtime.service(home).pointers(id));
    }

    @Override
    public long first() {
        return pointers()[0];
    }

    @Override
    public long last() {
        return pointers()[1];
    }

    @Override
    public long delta() {
        return pointers()[2];
    }

    @Override
    public void delta(long k) {
        if (k < 1) {
            throw new CumulusException("DeltaValue of element " + name + " must be at least 1, not " + k
                + " (it bounds the unobserved tuples; 1 makes every move wait for the previous tuple's observe)");
        }
        if (local != null) {
            localOp();
            local.delta(k);
            return;
        }
        remote("delta", 0, () -> {
            runtime.service(home).delta(id, k);
            return null;
        });
    }

    @Override
    public void truncate(long index) {
        if (local != null) {
            localOp();
            local.truncate(index);
            return;
        }
        remote("truncate", 0, () -> {
            runtime.service(home).truncate(id, index);
            return null;
        });
    }

    // ---------------------------------------------------------------- remote calls and their failures

    private Semantics.Caller caller() {
        return new Semantics.Caller(runtime.self(), Thread.currentThread().threadId());
    }

    /**
     * Calls the home node; turns the failure of the home (or of the cluster) into a {@link NodeFailedException}
     * that names this element. Records a JFR event for moves and observes. First throws the failure of this thread's
     * last {@code moveAsync} on the element, if it failed and was not reported yet.
     *
     * @param requestBytes tuple bytes sent (moves), -1 for observes (the reply's bytes count)
     */
    <T> T remote(String operation, int requestBytes, Supplier<T> call) {
        String gone = runtime.failure(home);
        if (gone != null) {
            throw lost(home, gone);
        }
        sequence.rethrowFailure(name, Thread.currentThread().threadId());
        refused.rethrow(name);
        runtime.remoteOps.increment();
        boolean recorded = operation.startsWith("move") || operation.startsWith("observe");
        PastSetOperationEvent event = recorded ? new PastSetOperationEvent() : null;
        if (event != null) {
            event.begin();
        }
        String outcome = "error";
        T result = null;
        try {
            result = call.get();
            outcome = "ok";
            return result;
        } catch (NodeFailedException e) {
            if (e.nodeId() == home) {
                throw lost(home, e.getMessage());
            }
            throw new NodeFailedException(e.nodeId(), operation + " on element " + name + " failed: " + e.getMessage());
        } catch (RemoteCallException e) {
            if (e.getCause() instanceof RemoteThrowable rt
                && NodeFailedException.class.getName().equals(rt.remoteClassName())) {
                // fail-stop: this node hears of the failure too, within moments of the home's reply
                int failed = runtime.failedNodeWithin(FAILURE_NOTICE_WAIT_MS);
                throw new NodeFailedException(failed >= 0 ? failed : home, rt.getMessage());
            }
            throw e;
        } finally {
            if (event != null) {
                event.end();
                if (event.shouldCommit()) {
                    event.element = id;
                    event.operation = operation;
                    event.callerNode = runtime.self();
                    event.homeNode = home;
                    if (result instanceof MoveReply m) {
                        event.bytes = requestBytes;
                        event.blockedNs = m.blockedNs();
                    } else if (result instanceof byte[] reply && reply.length >= Observed.TUPLE_AT) {
                        event.bytes = Observed.tupleLength(reply);
                        event.blockedNs = Observed.blockedNs(reply);
                    } else {
                        event.bytes = Math.max(0, requestBytes);
                    }
                    event.outcome = outcome;
                    event.commit();
                }
            }
        }
    }

    private NodeFailedException lost(int node, String reason) {
        return new NodeFailedException(node, "element " + name + " is lost: its home node " + node
            + " failed (" + reason + "); its tuples are gone and its callers cannot go on");
    }

    @Override
    public String toString() {
        return "Element[" + name + " in the " + placement + " space on node " + home + (isLocal() ? ", local" : "") + "]";
    }
}
