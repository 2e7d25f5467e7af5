package dev.cumulus.internal.node;

import dev.cumulus.internal.jfr.NodeLifecycleEvent;
import dev.cumulus.internal.transport.Channel;
import dev.cumulus.internal.transport.NodeTransport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The node's duty cycle: polls the transport, answers the control protocol (hello, heartbeats, probes, barrier,
 * goodbye, failure), detects dead, wedged or hung peers ({@link Membership}), and hands data messages to the layer
 * above. Never blocks; other threads reach it through {@link #execute(Runnable)}. Time comes from an injected
 * {@link NanoClock}.
 *
 * <p>Heartbeats go out from the node's {@link HeartbeatSender}, not from here: the agent only counts its duty cycles
 * ({@link #progress()}), which every beat carries. While joining, the agent says hello (with its process id, so peers
 * on this host watch the process: {@link PeerProcesses}).
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
    /** Control messages that may wait for one destination; one more fails the destination (it takes nothing). */
    static final int OUTBOX_LIMIT = 1024;
    private static final VarHandle PROGRESS;

    static {
        try {
            PROGRESS = MethodHandles.lookup().findVarHandle(NodeAgent.class, "progress", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NodeTransport transport;
    private final NanoClock clock;
    private final Membership membership;
    private final Listener listener;
    private final int self;
    private final int size;
    private final NodeSettings.Liveness liveness;
    private final PeerProcesses processes;
    private final long pid = ProcessHandle.current().pid();
    private final long host;
    /** Duty cycles run: written under the polling role (release), read by the heartbeat thread (acquire). */
    @SuppressWarnings("unused") // through PROGRESS
    private long progress;
    private HeartbeatSender heartbeats;
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

    /**
     * @param host this node's {@link HostIdentity} (0: its process is not watched by peers, nor does it watch theirs)
     */
    NodeAgent(NodeTransport transport, NanoClock clock, Listener listener, NodeSettings.Liveness liveness,
              long joinTimeoutNs, long host) {
        this.transport = transport;
        this.clock = clock;
        this.listener = listener;
        this.self = transport.nodeId();
        this.size = transport.size();
        this.liveness = liveness;
        this.host = host;
        this.cycleStartNs = clock.nanoTime();
        this.membership = new Membership(self, size, liveness, cycleStartNs, joinTimeoutNs);
        this.coordinator = self == 0 ? new BarrierCoordinator(size) : null;
        this.processes = new PeerProcesses(host, size, peer -> execute(() -> onProcessExited(peer)));
    }

    /** This node's host identity ({@link HostIdentity}; 0 unknown). */
    long host() {
        return host;
    }

    /** The heartbeat thread that beats for this node: told when a peer leaves or fails. */
    void heartbeats(HeartbeatSender sender) {
        this.heartbeats = sender;
    }

    /** Asks the OS whether the watched peer processes live (heartbeat thread: {@link PeerProcesses#check}). */
    void checkPeerProcesses() {
        processes.check();
    }

    /** Duty cycles run so far (any thread): what every heartbeat carries as proof that the agent runs. */
    long progress() {
        return (long) PROGRESS.getAcquire(this);
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
        PROGRESS.setRelease(this, (long) PROGRESS.get(this) + 1);
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

    /** A quick cycle of a node that runs an ordered broadcast: the data and the ORDER streams. */
    int pollDataAndOrder() {
        return transport.pollDataAndOrder(FRAGMENT_LIMIT);
    }

    private void checkJoined() {
        if (!joined && membership.allJoined()) {
            joined = true;
            NodeLifecycleEvent.record(self, "joined", self, size + " nodes");
            listener.onJoined();
        }
    }

    /** The timer: hellos while joining, then every heartbeat interval the failure detector's verdicts. */
    private int onTimer(long now) {
        checkJoined();
        transport.expireIncompleteMessages();
        boolean wasJoined = joined;
        if (!wasJoined) {
            int length = ControlMessage.encode(new ControlMessage.Hello(pid, host), controlOut);
            for (int peer = 0; peer < size; peer++) {
                if (peer != self && isReachable(peer)) {
                    transport.trySend(peer, Channel.CONTROL, scratch, 0, length);
                }
            }
        }
        nextHeartbeatNs = now + (wasJoined ? liveness.heartbeatIntervalNs() : HELLO_INTERVAL_NS);
        for (Membership.Verdict v : membership.check(now)) {
            switch (v) {
                case Membership.Probe p -> {
                    if (membership.state(p.peer()) == Membership.PeerState.SUSPECT) {
                        int length = ControlMessage.encode(new ControlMessage.Probe(), controlOut);
                        transport.trySend(p.peer(), Channel.CONTROL, scratch, 0, length); // re-sent every check
                    }
                }
                case Membership.Failed f -> fail(f.peer(), f.reason(), true);
            }
        }
        return 1;
    }

    /** {@code peer} runs as process {@code pid} of host {@code peerHost}: watched once, if on this host. */
    private void onProcess(int peer, long peerPid, long peerHost) {
        if (processes.watch(peer, peerPid, peerHost)) {
            membership.onProcess(peer, peerPid);
        }
    }

    private void onProcessExited(int peer) {
        membership.onProcessExited(peer, clock.nanoTime());
        nextHeartbeatNs = cycleStartNs; // check soon: the verdict waits only for the peer's last messages
    }

    private boolean isReachable(int peer) {
        return membership.reachable(peer);
    }

    /** Control and data messages from the transport. */
    void onMessage(int source, Channel channel, DirectBuffer buffer, int offset, int length) {
        if (source >= size) {
            // a client of a standing cluster: no member (no heartbeats, barriers or ordered writes), calls only;
            // the RPC engine admits its calls once it authenticated
            if (channel == Channel.DATA) {
                listener.onData(source, buffer, offset, length);
            }
            return;
        }
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
            case ControlMessage.Hello h -> onProcess(source, h.pid(), h.host());
            case ControlMessage.Heartbeat h -> {
                onProcess(source, h.pid(), h.host());
                membership.onBeat(source, h.progress(), cycleStartNs);
            }
            case ControlMessage.Probe p -> {
                // the agent answers, not the heartbeat thread: the answer proves that this duty cycle runs, and the
                // count moves for it (a beat the heartbeat thread sent during this cycle may carry the same count)
                PROGRESS.setRelease(this, (long) PROGRESS.get(this) + 1);
                int answer = ControlMessage.encode(new ControlMessage.Heartbeat(progress(), pid, host), controlOut);
                transport.trySend(source, Channel.CONTROL, scratch, 0, answer);
            }
            case ControlMessage.BarrierEnter b -> {
                if (coordinator != null) {
                    coordinate(coordinator.onEnter(source, b.epoch(), b.kind(), b.watermark()), b.epoch());
                }
            }
            case ControlMessage.BarrierRelease b -> listener.onBarrierReleased(b.epoch(), b.watermark());
            case ControlMessage.Goodbye g -> {
                membership.onGoodbye(source);
                stopBeatsTo(source);
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
        stopBeatsTo(peer);
        transport.markFailed(peer, reason);
        NodeLifecycleEvent.record(self, peer == self ? "failed" : "peer-failed", peer, reason);
        if (tellOthers) {
            sendToAll(new ControlMessage.Failure(peer, reason), false);
        }
        listener.onFailure(peer, reason);
    }

    private void stopBeatsTo(int peer) {
        HeartbeatSender h = heartbeats;
        if (h != null && peer != self) {
            h.stopTo(peer);
        }
    }

    private void sendToAll(ControlMessage message, boolean includeSelf) {
        for (int peer = 0; peer < size; peer++) {
            if ((peer != self || includeSelf) && (peer == self || isReachable(peer))) {
                send(peer, message);
            }
        }
    }

    /**
     * Sends a control message; keeps per-destination order (a message waits behind earlier ones in the outbox). At
     * most {@link #OUTBOX_LIMIT} messages wait for one destination: one more, and the destination, which takes
     * nothing, is declared failed (fail-stop) instead of the outbox growing without end.
     */
    private void send(int destination, ControlMessage message) {
        int length = ControlMessage.encode(message, controlOut);
        int queued = queued(destination);
        if (queued == 0 && transport.trySend(destination, Channel.CONTROL, scratch, 0, length) == NodeTransport.SENT) {
            return;
        }
        if (queued >= OUTBOX_LIMIT) {
            outbox.removeIf(p -> p.destination() == destination);
            if (destination != self) {
                fail(destination, "node " + destination + " took no control messages while " + OUTBOX_LIMIT
                    + " waited for it (the control outbox to it is full): its agent is wedged or its host overloaded",
                    true);
            }
            return;
        }
        byte[] bytes = new byte[length];
        scratch.getBytes(0, bytes);
        outbox.add(new Pending(destination, bytes, clock.nanoTime() + liveness.stuckSendNs()));
    }

    private int queued(int destination) {
        int n = 0;
        for (Pending p : outbox) {
            if (p.destination() == destination) {
                n++;
            }
        }
        return n;
    }

    /** Control messages waiting in the outbox (agent thread; tests). */
    int outboxSize() {
        return outbox.size();
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
            fail(dest, "node " + dest + " did not take control messages for "
                + String.format(java.util.Locale.ROOT, "%.1f s", liveness.stuckSendNs() / 1e9)
                + " (twice the heartbeat timeout)", true);
        }
        return work;
    }

    @Override
    public void onClose() {
        transport.close();
    }
}
