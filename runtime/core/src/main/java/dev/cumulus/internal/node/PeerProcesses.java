package dev.cumulus.internal.node;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntConsumer;

/**
 * Asks the operating system whether the processes of this node's peers on the same host still live, so that a
 * {@code kill -9} of a node is known to its peers within a heartbeat interval or two instead of after the failure
 * detector's timeout. A peer is on this host when its hello names this node's {@link HostIdentity}; peers in this JVM
 * ({@code LocalCluster}) and on other hosts are not watched.
 *
 * <p>{@link #check()} runs on the heartbeat thread, once per interval: a process handle's {@code isAlive()} is one
 * read of {@code /proc} and tells a reused pid from the peer's (it compares start times). The JDK's
 * {@code onExit()} is no help here: for a process that is not its child (a sibling node) it polls with a back-off
 * that reaches seconds.
 *
 * <p>Threads: {@link #watch} on the agent thread, {@link #check} on the heartbeat thread; {@code exited} must only
 * hand the news to the agent.
 */
final class PeerProcesses {
    private final long selfPid = ProcessHandle.current().pid();
    private final long host;
    private final AtomicReferenceArray<ProcessHandle> watched;
    /** 1 once a peer was watched (or found gone) and 2 once its exit was told: each peer is told at most once. */
    private final AtomicIntegerArray state;
    private final IntConsumer exited;

    /**
     * @param host   this node's host identity (0: unknown, nothing is watched)
     * @param size   nodes in the cluster
     * @param exited told the peer whose process exited
     */
    PeerProcesses(long host, int size, IntConsumer exited) {
        this.host = host;
        this.watched = new AtomicReferenceArray<>(size);
        this.state = new AtomicIntegerArray(size);
        this.exited = exited;
    }

    /**
     * Watches {@code peer}'s process {@code pid} if it runs on this host, once. Returns whether it is watched. A pid
     * that names no process any more is told as exited at once.
     */
    boolean watch(int peer, long pid, long peerHost) {
        if (host == 0 || peerHost != host || pid <= 0 || pid == selfPid || !state.compareAndSet(peer, 0, 1)) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isPresent()) {
            watched.set(peer, process.get());
        } else if (state.compareAndSet(peer, 1, 2)) {
            exited.accept(peer);
        }
        return true;
    }

    /** Tells {@code exited} of every watched process that no longer lives (each once). */
    void check() {
        for (int peer = 0; peer < watched.length(); peer++) {
            ProcessHandle p = watched.get(peer);
            if (p != null && !p.isAlive() && state.compareAndSet(peer, 1, 2)) {
                watched.set(peer, null);
                exited.accept(peer);
            }
        }
    }
}
