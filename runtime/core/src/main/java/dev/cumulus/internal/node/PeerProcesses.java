package dev.cumulus.internal.node;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntConsumer;

/**
 * Asks the operating system to tell at once when the process of a peer on this host exits ({@link ProcessHandle#onExit}),
 * instead of waiting for the failure detector: a {@code kill -9} of a node is known to its peers in one heartbeat
 * interval. A peer is on this host when its hello names this node's {@link HostIdentity}; peers in this JVM
 * ({@code LocalCluster}) and on other hosts are not watched.
 *
 * <p>Threads: {@link #watch} on the agent thread; {@code exited} runs on the JDK's process reaper or a pool thread
 * and must only hand the news to the agent.
 */
final class PeerProcesses {
    private final long selfPid = ProcessHandle.current().pid();
    private final long host;
    private final AtomicLongArray watched;
    private final IntConsumer exited;

    /**
     * @param host   this node's host identity (0: unknown, nothing is watched)
     * @param size   nodes in the cluster
     * @param exited told the peer whose process exited
     */
    PeerProcesses(long host, int size, IntConsumer exited) {
        this.host = host;
        this.watched = new AtomicLongArray(size);
        this.exited = exited;
    }

    /**
     * Watches {@code peer}'s process {@code pid} if it runs on this host, once. Returns whether it is watched. A pid
     * that names no process any more counts as exited.
     */
    boolean watch(int peer, long pid, long peerHost) {
        if (host == 0 || peerHost != host || pid <= 0 || pid == selfPid || !watched.compareAndSet(peer, 0, pid)) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty()) {
            exited.accept(peer);
        } else {
            process.get().onExit().thenRun(() -> exited.accept(peer));
        }
        return true;
    }
}
