package dev.cumulus.internal.rpc;

import dev.cumulus.MigrationPending;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.codec.ValueCodec;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.reflect.Method;

import static dev.cumulus.internal.rpc.RpcEngine.ONE_WAY;

/**
 * Calls through a proxy to an object of the caller's own node ({@link #callHere}): no transport, but the meaning of a
 * remote call. They run on the caller's thread, through the object's {@link ObjectGate} like any call; a call the gate
 * does not let in goes through the transport to this node after all. Any thread.
 */
final class LocalCalls {
    private final RpcEngine engine;
    private final int self;
    private final ExportTable exports;
    private final ValueCodec codec;

    LocalCalls(RpcEngine engine, int self, ExportTable exports, ValueCodec codec) {
        this.engine = engine;
        this.self = self;
        this.exports = exports;
        this.codec = codec;
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
        String gone = engine.goneReason(self); // after a failure of the cluster, as any call would
        if (gone != null) {
            throw engine.cannotCall(self, "#" + ref.objectId(), method, gone);
        }
        ExportTable.Exported target = exports.get(ref.objectId());
        if (target == null) {
            return ELSEWHERE; // sent to this node like any call, which answers that it serves no such object
        }
        Object[] actual = args == null ? new Object[0] : args;
        if (ref.objectId() < ExportTable.FIRST_USER_ID) {
            return CallServer.invokeLocal(target.target(), method, actual);
        }
        int index = target.methods().indexOf(MethodIds.idOf(method));
        ObjectGate gate = target.gate();
        RpcEngine.CallerState state = engine.callerState();
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

    private Object callEntered(ExportTable.Exported target, int index, Method method, Object[] actual,
                               RpcEngine.CallerState state) throws Throwable {
        // a call of this node to its own object is profiled as any other
        RemoteCallEvent event = RpcEngine.begun(new RemoteCallEvent());
        int end = engine.encodeCall(state, ONE_WAY, target.objectId(), method, MethodIds.idOf(method), actual, 0);
        // a copy of the message: decoding may run code of the program (a record's constructor) that calls again
        Object[] copied = CallServer.readArguments(engine.codecOf(target.target()),
            new UnsafeBuffer(CallServer.copyOf(state.buffer, end)), target.methods().parameterTypes(index));
        Object result;
        try {
            result = CallServer.invokeLocal(target.target(), method, copied);
        } catch (MigrationPending stopped) {
            throw stopped; // a re-entered safe-mode call stopped at a migration point: the outer call stops too
        } catch (Throwable t) {
            int length = codec.writeThrowable(state.buffer, 0, t);
            engine.commitCall(event, self, ONE_WAY, target.name(), method, end, length, "exception");
            throw engine.codecOf(method).reader(new UnsafeBuffer(CallServer.copyOf(state.buffer, length)), 0, length)
                .readThrowable(method.getExceptionTypes());
        }
        int length = codec.write(state.buffer, 0, result, target.methods().resultLabel(index));
        engine.commitCall(event, self, ONE_WAY, target.name(), method, end, length, "ok");
        return engine.codecOf(method).readValue(new UnsafeBuffer(CallServer.copyOf(state.buffer, length)), 0, length);
    }
}
