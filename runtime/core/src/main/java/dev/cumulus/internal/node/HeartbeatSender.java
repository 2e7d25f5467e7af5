package dev.cumulus.internal.node;

import dev.cumulus.internal.transport.Channel;
import dev.cumulus.internal.transport.NodeTransport;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Beats for its node, on a small platform thread of its own ({@code cumulus-node-N-heartbeat}): a user's work on the
 * node's other threads — long calls, busy loops, a polling thread that spins in a decoder — cannot hold its beats back
 * (the operating system schedules it like any thread; nothing of the node runs on it). Each beat carries the agent's
 * progress count, so peers tell a node whose agent runs from one whose process runs but whose agent does not
 * ({@link Membership}). It stops when the node closes or its agent is dead ({@code agentAlive} false: the duty cycle
 * ended, or the thread that ran it died). After each beat it asks the operating system whether the peers' processes on
 * this host live ({@link PeerProcesses#check}).
 *
 * <p>Threads: {@link #beat()} on the heartbeat thread (tests call it directly); {@link #stopTo} from the agent.
 */
final class HeartbeatSender implements AutoCloseable {
    private final NodeTransport transport;
    private final LongSupplier progress;
    private final BooleanSupplier agentAlive;
    private final long intervalNs;
    private final Runnable eachInterval;
    private final long pid = ProcessHandle.current().pid();
    private final long host;
    private final int self;
    private final int size;
    /** 1 for peers that left or failed: nothing more is sent to them. */
    private final AtomicIntegerArray stopped;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ControlFlyweight.HEARTBEAT_LENGTH]);
    private final ControlFlyweight out = new ControlFlyweight().wrap(buffer, 0);
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param progress   the agent's progress count
     * @param agentAlive   whether the agent can still run a duty cycle
     * @param host         this node's {@link HostIdentity}, named in every beat
     * @param eachInterval run after each beat on this thread (asks the OS about peer processes: {@link PeerProcesses});
     *                     must not block
     */
    HeartbeatSender(NodeTransport transport, LongSupplier progress, BooleanSupplier agentAlive, long intervalNs,
                    long host, Runnable eachInterval, String threadName) {
        this.host = host;
        this.eachInterval = eachInterval;
        this.transport = transport;
        this.progress = progress;
        this.agentAlive = agentAlive;
        this.intervalNs = intervalNs;
        this.self = transport.nodeId();
        this.size = transport.size();
        this.stopped = new AtomicIntegerArray(size);
        this.thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
        thread.setPriority(Thread.MAX_PRIORITY);
    }

    void start() {
        thread.start();
    }

    /** Sends nothing more to {@code peer} (it left or failed). */
    void stopTo(int peer) {
        stopped.set(peer, 1);
    }

    /**
     * Sends one heartbeat with the agent's progress to every peer still in the cluster; returns false (and sends
     * nothing) once the agent is dead or the sender closed: the node's silence tells its peers.
     */
    boolean beat() {
        if (!running || !agentAlive.getAsBoolean()) {
            return false;
        }
        int length = out.writeHeartbeat(progress.getAsLong(), pid, host);
        for (int peer = 0; peer < size; peer++) {
            if (peer != self && stopped.get(peer) == 0) {
                transport.trySend(peer, Channel.CONTROL, buffer, 0, length); // a beat not taken is not retried
            }
        }
        return true;
    }

    private void run() {
        long next = System.nanoTime();
        while (running) {
            try {
                if (!beat()) {
                    return;
                }
                eachInterval.run();
            } catch (RuntimeException | OutOfMemoryError e) {
                // a beat that could not go out is a missed beat; the detector is built for those
            }
            next += intervalNs;
            long now = System.nanoTime();
            if (now - next > intervalNs) {
                next = now; // the process was stopped or starved: beat at once, then keep the interval from here
            }
            LockSupport.parkNanos(this, next - now);
        }
    }

    /** Stops beating and waits briefly for the thread. Idempotent. */
    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        if (thread.isAlive() && thread != Thread.currentThread()) {
            try {
                thread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
