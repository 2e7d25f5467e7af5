package dev.cumulus.internal.node;

import dev.cumulus.internal.jfr.NodeLifecycleEvent;
import dev.cumulus.internal.transport.Channel;
import dev.cumulus.internal.transport.NodeTransport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The node's duty cycle: polls the transport, answers the control protocol (hello, heartbeats, barrier, goodbye,
 * failure), detects dead or hung peers, and hands data messages to the layer above. Never blocks; other threads
 * reach it through {@link #execute(Runnable)}. Time comes from an injected {@link NanoClock}.
 */
final class NodeAgent implements Agent {
    /** What the node above learns from the agent. Called on the agent thread; must not block. */
    interface Listener {
        void onData(int source, DirectBuffer buffer, int offset, int length);

        void onOrder(int source, DirectBuffer buffer, int offset, int length);

        /** Every peer has been heard from. */
        void onJoined();

        void onBarrierReleased(long epoch, long watermark);

        /** {@code peer} failed (or this node, when {@code peer == self}); called once per peer. */
        void onFailure(int peer, String reason);

        /** {@code peer} left after global barrier {@code lastBarrier}, as {@code leaving} says. */
        void onPeerLeft(int peer, long lastBarrier, Leaving leaving);
    }

    private static final int FRAGMENT_LIMIT = 16;
    private static final long HELLO_INTERVAL_NS = 20_000_000L;
    private static final long OUTBOX_DEADLINE_NS = 10_000_000_000L;

    private final NodeTransport transport;
    private final NanoClock clock;
    private final Membership membership;
    private final Listener listener;
    private final int self;
    private final int size;
    private final long heartbeatIntervalNs;
    private final ManyToOneConcurrentLinkedQueue<Runnable> commands = new ManyToOneConcurrentLinkedQueue<>();
    private final ArrayDeque<Pending> outbox = new ArrayDeque<>();
    private final List<CompletableFuture<Void>> drainWaiters = new ArrayList<>();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[2048]);
    /** The control message being sent, over {@link #scratch}, and the one received (agent thread). */
    private final ControlFlyweight controlOut = new ControlFlyweight().wrap(scratch, 0);
    private final ControlFlyweight controlIn = new ControlFlyweight();
    private final BarrierCoordinator coordinator;
    private long nextHeartbeatNs;
    private volatile boolean joined;

    private record Pending(int destination, byte[] bytes, long deadlineNs) {
    }

    NodeAgent(NodeTransport transport, NanoClock clock, Listener listener, long heartbeatIntervalNs,
              long heartbeatTimeoutNs, long joinTimeoutNs) {
        this.transport = transport;
        this.clock = clock;
        this.listener = listener;
        this.self = transport.nodeId();
        this.size = transport.size();
        this.heartbeatIntervalNs = heartbeatIntervalNs;
        this.cycleStartNs = clock.nanoTime();
        this.membership = new Membership(self, size, heartbeatTimeoutNs, cycleStartNs, joinTimeoutNs);
        this.coordinator = self == 0 ? new BarrierCoordinator(size) : null;
    }

    @Override
    public String roleName() {
        return "cumulus-node-" + self;
    }

    /** True once every peer has been heard from. */
    boolean joined() {
        return joined;
    }

    /** Runs {@code command} on the agent thread. */
    void execute(Runnable command) {
        commands.offer(command);
        transport.ring(self); // the thread that runs the duty cycle may sleep on the node's doorbell
    }

    private static final int CLOCK_EVERY_MASK = 15;
    private int cycles;
    /**
     * When the running duty cycle started (at most 16 busy cycles old, never older than the polling thread's last
     * wait: see {@link #afterWait}; shared by everything the cycle does).
     */
    private long cycleStartNs;

    /**
     * The polling thread waited (slept on the doorbell, parked, took over after a park) since the last cycle: the next
     * cycle reads the clock, and runs the transport's conductor, instead of reusing a time up to 16 waits old. Called
     * under the polling role.
     */
    void afterWait() {
        cycles = -1;
        transport.conductorDue();
    }

    @Override
    public int doWork() {
        // the clock is read every 16th cycle (or while the outbox holds messages with deadlines): the timers here
        // count in tens of ms, and a clock read lengthens a busy cycle that a message waits for
        long now = (++cycles & CLOCK_EVERY_MASK) == 0 || !outbox.isEmpty() ? clock.nanoTime() : cycleStartNs;
        cycleStartNs = now;
        int work = transport.poll(FRAGMENT_LIMIT);
        Runnable command;
        while ((command = commands.poll()) != null) {
            command.run();
            work++;
        }
        if (now - nextHeartbeatNs >= 0) {
            work += onTimer(now);
        }
        if (!outbox.isEmpty()) {
            work += drainOutbox(now);
        }
        if (outbox.isEmpty() && !drainWaiters.isEmpty()) {
            drainWaiters.forEach(f -> f.complete(null));
            drainWaiters.clear();
        }
        return work;
    }

    /** A quick cycle: polls the data stream (remote calls and replies) only; see {@code DutyCycle#quickCycle}. */
    int pollData() {
        return transport.pollData(FRAGMENT_LIMIT);
    }

    private void checkJoined() {
        if (!joined && membership.allJoined()) {
            joined = true;
            NodeLifecycleEvent.record(self, "joined", self, size + " nodes");
            listener.onJoined();
        }
    }

    private int onTimer(long now) {
        checkJoined();
        transport.expireIncompleteMessages();
        boolean wasJoined = joined;
        ControlMessage beat = wasJoined ? new ControlMessage.Heartbeat() : new ControlMessage.Hello();
        int length = ControlMessage.encode(beat, controlOut);
        for (int peer = 0; peer < size; peer++) {
            if (peer != self && isReachable(peer)) {
                transport.trySend(peer, Channel.CONTROL, scratch, 0, length);
            }
        }
        nextHeartbeatNs = now + (wasJoined ? heartbeatIntervalNs : HELLO_INTERVAL_NS);
        for (Membership.Suspect s : membership.check(now)) {
            fail(s.peer(), s.reason(), true);
        }
        return 1;
    }

    private boolean isReachable(int peer) {
        Membership.PeerState s = membership.state(peer);
        return s == Membership.PeerState.ALIVE || s == Membership.PeerState.JOINING;
    }

    /** Control and data messages from the transport. */
    void onMessage(int source, Channel channel, DirectBuffer buffer, int offset, int length) {
        if (membership.state(source) == Membership.PeerState.FAILED) {
            return;
        }
        membership.onHeard(source, cycleStartNs);
        checkJoined();
        if (channel == Channel.DATA) {
            listener.onData(source, buffer, offset, length);
            return;
        }
        if (channel == Channel.ORDER) {
            listener.onOrder(source, buffer, offset, length);
            return;
        }
        ControlMessage message = ControlMessage.decode(controlIn.wrap(buffer, offset), length);
        if (message == null) {
            return;
        }
        switch (message) {
            case ControlMessage.Hello h -> { }
            case ControlMessage.Heartbeat h -> { }
            case ControlMessage.BarrierEnter b -> {
                if (coordinator != null) {
                    coordinate(coordinator.onEnter(source, b.epoch(), b.kind(), b.watermark()), b.epoch());
                }
            }
            case ControlMessage.BarrierRelease b -> listener.onBarrierReleased(b.epoch(), b.watermark());
            case ControlMessage.Goodbye g -> {
                membership.onGoodbye(source);
                NodeLifecycleEvent.record(self, "peer-left", source, "");
                listener.onPeerLeft(source, g.lastBarrier(), g.leaving());
            }
            case ControlMessage.Failure f -> {
                if (f.failedNode() >= 0 && f.failedNode() < size) {
                    fail(f.failedNode(), f.reason() + " (reported by node " + source + ")", false);
                }
            }
        }
    }

    /**
     * Sends a barrier entry to the coordinator (agent thread). {@code watermark}: the highest ordered-broadcast
     * number applied here; the release carries the maximum over all nodes.
     */
    void enterBarrier(long epoch, long watermark, BarrierKind kind) {
        if (coordinator != null) {
            coordinate(coordinator.onEnter(self, epoch, kind, watermark), epoch);
        } else {
            send(0, new ControlMessage.BarrierEnter(epoch, watermark, kind));
        }
    }

    /**
     * Acts on the coordinator's answer to an entry: releases the barrier, or, when the entries of its epoch disagree,
     * fails the node that entered the wrong barrier (fail-stop; the reason names both sides).
     */
    private void coordinate(long result, long epoch) {
        if (result == BarrierCoordinator.MISMATCH) {
            BarrierCoordinator.Mismatch m = coordinator.mismatch();
            if (m.blamed() != self) {
                send(m.blamed(), new ControlMessage.Failure(m.blamed(), m.reason())); // alive: it must hear the verdict
            }
            fail(m.blamed(), m.reason(), true);
        } else if (result != BarrierCoordinator.OPEN) {
            sendToAll(new ControlMessage.BarrierRelease(epoch, result), true);
        }
    }

    /** Tells every reachable peer this node leaves after barrier {@code lastBarrier}, as {@code leaving} says. */
    void sayGoodbye(long lastBarrier, Leaving leaving) {
        sendToAll(new ControlMessage.Goodbye(lastBarrier, leaving), false);
    }

    /** Declares {@code peer} failed: stop talking to it, tell the others, tell the node above. Agent thread. */
    void fail(int peer, String reason, boolean tellOthers) {
        if (!membership.markFailed(peer)) {
            return;
        }
        transport.markFailed(peer, reason);
        NodeLifecycleEvent.record(self, peer == self ? "failed" : "peer-failed", peer, reason);
        if (tellOthers) {
            sendToAll(new ControlMessage.Failure(peer, reason), false);
        }
        listener.onFailure(peer, reason);
    }

    private void sendToAll(ControlMessage message, boolean includeSelf) {
        for (int peer = 0; peer < size; peer++) {
            if ((peer != self || includeSelf) && (peer == self || isReachable(peer))) {
                send(peer, message);
            }
        }
    }

    /** Sends a control message; keeps per-destination order (a message waits behind earlier ones in the outbox). */
    private void send(int destination, ControlMessage message) {
        int length = ControlMessage.encode(message, controlOut);
        if (hasQueued(destination)
            || transport.trySend(destination, Channel.CONTROL, scratch, 0, length) != NodeTransport.SENT) {
            byte[] bytes = new byte[length];
            scratch.getBytes(0, bytes);
            outbox.add(new Pending(destination, bytes, clock.nanoTime() + OUTBOX_DEADLINE_NS));
        }
    }

    private boolean hasQueued(int destination) {
        for (Pending p : outbox) {
            if (p.destination() == destination) {
                return true;
            }
        }
        return false;
    }

    /** Completes {@code drained} once no control message waits to be sent (agent thread). */
    void whenOutboxDrained(CompletableFuture<Void> drained) {
        if (outbox.isEmpty()) {
            drained.complete(null);
        } else {
            drainWaiters.add(drained);
        }
    }

    private int drainOutbox(long now) {
        int work = 0;
        UnsafeBuffer view = new UnsafeBuffer(0, 0);
        BitSet blocked = new BitSet(size);
        List<Integer> stuck = new ArrayList<>(0);
        for (Iterator<Pending> it = outbox.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            int dest = p.destination();
            if (!isReachable(dest)) {
                it.remove(); // failed or left: nobody to tell
                continue;
            }
            if (blocked.get(dest)) {
                continue; // keep this destination's order: an earlier message to it is still waiting
            }
            view.wrap(p.bytes());
            if (transport.trySend(dest, Channel.CONTROL, view, 0, p.bytes().length) == NodeTransport.SENT) {
                it.remove();
                work++;
            } else {
                blocked.set(dest);
                if (now - p.deadlineNs() > 0) {
                    it.remove();
                    stuck.add(dest);
                }
            }
        }
        for (int dest : stuck) {
            outbox.removeIf(p -> p.destination() == dest);
            fail(dest, "node " + dest + " did not take control messages for " + OUTBOX_DEADLINE_NS / 1_000_000_000L
                + " s", true);
        }
        return work;
    }

    @Override
    public void onClose() {
        transport.close();
    }
}
