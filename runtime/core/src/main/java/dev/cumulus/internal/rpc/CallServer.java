package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;
import dev.cumulus.MigrationPending;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.codec.BytesView;
import dev.cumulus.internal.codec.ValueCodec;
import dev.cumulus.internal.codec.ValueReader;
import dev.cumulus.internal.jfr.RemoteCallServedEvent;
import dev.cumulus.internal.sched.Scheduler;
import dev.cumulus.internal.sched.TimedCall;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static dev.cumulus.internal.rpc.RpcEngine.CALL_HEADER;
import static dev.cumulus.internal.rpc.RpcEngine.ONE_WAY;
import static dev.cumulus.internal.rpc.RpcEngine.REPLY_HEADER;

/**
 * The serving side of the {@link RpcEngine}: an incoming call, looked up as it is polled ({@link #onCall}), runs inline
 * after the poll, on a virtual thread, or in its object's safe-mode queue; it enters its object's {@link ObjectGate}
 * (or waits there while the object moves, or is answered with the node it moved to), is decoded, invoked and answered
 * ({@link #sendReply}, or later through its {@link DeferredReply}). {@link #onCall} runs on the polling thread and
 * decodes only simple values; the rest runs where the call runs.
 */
final class CallServer {
    /** A call that was not handed over with its object. */
    static final int NOT_HANDED = -1;
    /** See {@link #ringAfterReply}. */
    static final long PROMISE_MARGIN_NS = 1_000;
    private static final Object[] NO_ARGUMENTS = new Object[0];

    private final RpcEngine engine;
    private final int self;
    /** The cluster's nodes; higher ids are clients of a standing cluster. */
    private final int servers;
    private final RpcEngine.DataSender sender;
    private final ValueCodec codec;
    private final ExportTable exports;
    /** Where calls that are not run inline go: virtual threads of their own. */
    private final Executor callThreads;
    /** Whether each method served so far is {@link Brief}. */
    private final Map<Method, Boolean> briefMethods = new ConcurrentHashMap<>();
    /**
     * Told when a one-way call's method throws here (nobody waits to hear of it): the node ends the run. A one-way
     * call that never reaches a method (no such object or method here, arguments that do not decode) is a bad request,
     * not a failure: it is dropped and counted ({@link #droppedOneWayCalls}), and the first one is reported.
     */
    private volatile Consumer<String> oneWayFailures = reason -> System.err.println("cumulus: " + reason);
    private final AtomicLong droppedOneWayCalls = new AtomicLong();

    CallServer(RpcEngine engine, int self, int servers, RpcEngine.DataSender sender, ValueCodec codec,
               ExportTable exports, Executor callThreads) {
        this.engine = engine;
        this.self = self;
        this.servers = servers;
        this.sender = sender;
        this.codec = codec;
        this.exports = exports;
        this.callThreads = callThreads;
    }

    /** A call message came from {@code source} (polling thread): {@code header} was validated over it. */
    void onCall(int source, CallHeaderFlyweight header, DirectBuffer buffer, int offset, int length) {
        if (source < servers) {
            dispatch(new IncomingCall(source, header, buffer, offset, length, NOT_HANDED));
        } else if (admitsClient(source, header)) {
            IncomingCall call = new IncomingCall(source, header, buffer, offset, length, NOT_HANDED);
            call.counted = engine.clientService().counts(header.objectId()); // admitsClient counted it
            dispatch(call);
        }
    }

    /** Who is told when a one-way call fails on this node (the caller is not waiting to hear of it). */
    void onOneWayFailure(Consumer<String> handler) {
        this.oneWayFailures = handler;
    }

    /** Tells of a one-way call that failed in its method here (nobody waits to hear of it). */
    void oneWayFailed(int source, Throwable failure) {
        oneWayFailures.accept("a one-way call from node " + source + " failed on node " + self + ": " + failure);
    }

    /** Drops what this server remembers of the classes of {@code loader} (a departed client's). */
    void forgetClasses(ClassLoader loader) {
        briefMethods.keySet().removeIf(m -> m.getDeclaringClass().getClassLoader() == loader);
    }

    /** Whether a call from client {@code client} may run here ({@link ClientService#admit}); else it is answered why. */
    private boolean admitsClient(int client, CallHeaderFlyweight header) {
        CumulusException refusal = engine.clientService().admit(client, header.objectId(), header.methodId());
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
     * Where an incoming call runs: a {@code @SafeMode} object's calls on its queue, in arrival order; others inline
     * after the poll when the scheduler takes them, else on a virtual thread. A call that must wait for replicated
     * writes never runs inline: they come through the duty cycle it holds.
     */
    private void dispatch(IncomingCall call) {
        ObjectMover.SafeModeQueue queue = call.method == null ? null : call.target.safeMode();
        if (queue != null) {
            queue.submit(call);
        } else if (call.method == null || call.applied > engine.causality().applied() || !runInline(call)) {
            callThreads.execute(call);
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
        RpcEngine.CallerState state = engine.callerState();
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
            return engine.scheduler().runAfterPoll(call, callThreads, Scheduler.Work.BRIEF_CALL);
        }
        return !call.record.skipThisCall() && engine.scheduler().runAfterPoll(call, callThreads, Scheduler.Work.CALL);
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

        /**
         * The call is about to be answered (or its reply deferred), or leaves this node: it no longer counts among its
         * client's outstanding calls. Idempotent.
         */
        void done() {
            if (counted) {
                counted = false;
                engine.clientService().endCall(source);
            }
        }

        /**
         * Reads the call message of {@code length} bytes at {@code offset}, whose {@code header} was validated;
         * {@code handedBy} is the object's former node, for a call handed over with it, else {@link #NOT_HANDED}.
         */
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
            if (parameters.length > 1 || applied > engine.causality().applied()) {
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
                callThreads.execute(this);
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
        public void handedOver() {
            done(); // the new node answers it, and does not count it among its client's calls there
        }

        @Override
        public void fail(Throwable failure) {
            done(); // before its answer: a client that has the answer may start another call at once
            answerFailure(this, failure);
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
            RpcEngine.CallerState state = engine.callerState();
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
        RpcEngine.CallerState state = engine.callerState();
        // a method that may answer from another thread (a deferred reply) promises nothing about this thread's sends
        state.entered(gate, call.source, call.target.methods().defersReply(call.index) ? 0 : call.pollsUntilNs);
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

    /**
     * Runs a call that entered its object's gate (or has none): decodes, invokes, answers. It stops counting among its
     * client's calls ({@link IncomingCall#done}) before it is answered: a client that has its answer counts it no more
     * ({@code ClientWindow}) and may send the next one at once.
     */
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
        DeferredReply serving = null;
        Object result;
        Supplier<String> what;
        boolean delivered = false; // the call reached its method: a failure from here on is the method's
        RemoteCallServedEvent served = callId == ONE_WAY ? null : RpcEngine.begun(new RemoteCallServedEvent());
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
                engine.catchUp(call.applied);
                args = readArguments(engine.codecOf(target.target()), new UnsafeBuffer(call.bytes),
                    target.methods().parameterTypes(index));
            }
            what = target.methods().resultLabel(index);
            delivered = true;
            serving = target.methods().defersReply(index)
                ? new DeferredReply(this, source, callId, pollsUntilNs, what, call.handedBy, call::done) : null;
            if (call.objectId < ExportTable.FIRST_USER_ID && source >= servers) {
                Integer outer = RpcEngine.SYSTEM_CALLER.get(); // a system object may ask who calls: a client owns what it makes
                RpcEngine.SYSTEM_CALLER.set(source);
                try {
                    result = invoke(target, method, args, serving);
                } finally {
                    RpcEngine.SYSTEM_CALLER.set(outer);
                }
            } else { // on a standing cluster's server, a client's object runs for its owner (output, remote I/O)
                ClientService owners = engine.clientService();
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
            call.done(); // before its answer: a client that has the answer may start another call at once
            if (serving != null && serving.deferred()) {
                serving.fail(t);
            } else if (callId == ONE_WAY && !delivered) {
                dropOneWay(source, t);
            } else if (callId == ONE_WAY) {
                oneWayFailed(source, t);
            } else if (t instanceof InterruptedException && source >= servers && engine.closed()) {
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
        call.done(); // as above
        if (serving == null || !serving.deferred()) {
            sendReply(source, callId, pollsUntilNs, result, what, call.handedBy);
        }
    }

    /** Invokes a served call's method; one that may reply later ({@code serving} not null) sees its call as served. */
    private static Object invoke(ExportTable.Exported target, Method method, Object[] args, DeferredReply serving)
        throws Throwable {
        return serving == null ? invokeLocal(target.target(), method, args)
            : serving.invoke(target.target(), method, args);
    }

    private void commitServed(RemoteCallServedEvent e, IncomingCall call, DeferredReply serving, String outcome) {
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
            e.deferred = serving != null && serving.deferred();
            e.outcome = outcome;
            e.commit();
        }
    }

    /** A one-way call that reached no method: dropped and counted; the first one is reported (nobody else hears). */
    void dropOneWay(int source, Throwable why) {
        if (droppedOneWayCalls.incrementAndGet() == 1) {
            System.err.println("cumulus: node " + self + " dropped a one-way call from node " + source + ": "
                + why.getMessage() + " (later dropped one-way calls are only counted)");
        }
    }

    /** How many one-way calls reached no method here (no such object or method, undecodable arguments). */
    long droppedOneWayCalls() {
        return droppedOneWayCalls.get();
    }

    /** Decodes a call's arguments for a method with {@code parameters}, with the codec of the called object's code. */
    static Object[] readArguments(ValueCodec codec, UnsafeBuffer in, Class<?>[] parameters) {
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
    void sendReply(int source, long callId, long pollsUntilNs, Object result, Supplier<String> what,
                           int handedBy) {
        RpcEngine.CallerState state = engine.callerState();
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

    void sendError(int source, long callId, long pollsUntilNs, Throwable t, int handedBy) {
        if (t instanceof NodeFailedException && source < servers && engine.clusterFailed()) {
            // the cluster failed (fail-stop) and the call with it, whether its method threw or an answer it deferred
            // failed (a tuple-space move held at a home that broke): the caller's node fails the call itself when it
            // learns of the failure (RpcEngine.onClusterFailed), naming the node that failed. A reply would race that
            // and reach the caller as a remote exception, the failed node's id lost on the wire
            return;
        }
        RpcEngine.CallerState state = engine.callerState();
        ExpandableArrayBuffer out = state.buffer;
        int at = answerHeader(state, ReplyHeaderFlyweight.ERROR, callId, handedBy);
        sendAnswer(source, out, codec.writeThrowable(out, at, t), pollsUntilNs);
    }

    /** Writes an answer's header ({@code REPLY} or {@code ERROR}, handed or not); returns where the value goes. */
    private int answerHeader(RpcEngine.CallerState state, byte type, long callId, int handedBy) {
        if (handedBy == NOT_HANDED) {
            state.replyOut.write(type, callId, engine.causality().covered());
            return REPLY_HEADER;
        }
        state.replyOut.write((byte) (type | ReplyHeaderFlyweight.HANDED), callId, engine.causality().covered());
        state.buffer.putInt(REPLY_HEADER, handedBy, ByteOrder.LITTLE_ENDIAN);
        return ReplyHeaderFlyweight.HANDED_VALUE;
    }

    /**
     * Runs calls that waited at an object's former node and came here with the object, in the order they arrived
     * there, ahead of the calls that reached the object's arriving gate here meanwhile ({@link ObjectGate#reopenWith});
     * each is answered in the name of the node its caller sent it to ({@code sentTo}).
     */
    void dispatchHanded(ExportTable.Exported entry, int[] sentTo, int[] sources, byte[][] messages) {
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
        if (pollsUntilNs == 0 || ringAfterReply(pollsUntilNs, System.nanoTime())) { // no clock read without a promise
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

    /** Invokes {@code method} on a local object, unwrapping reflection's wrapper exception. */
    static Object invokeLocal(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    static byte[] copyOf(ExpandableArrayBuffer buffer, int length) {
        byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }
}
