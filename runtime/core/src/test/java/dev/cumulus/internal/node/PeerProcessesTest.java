package dev.cumulus.internal.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The operating system tells of a peer process's death: a real process, killed with SIGKILL. */
@Timeout(30)
class PeerProcessesTest {
    @Test
    void theExitOfAWatchedProcessOnThisHostIsToldAtOnce() throws Exception {
        Process peer = new ProcessBuilder("sleep", "60").start();
        try {
            CompletableFuture<Integer> exited = new CompletableFuture<>();
            PeerProcesses processes = new PeerProcesses(42, 3, exited::complete);
            assertTrue(processes.watch(2, peer.pid(), 42));
            assertFalse(processes.watch(2, peer.pid(), 42), "watched once");
            assertFalse(exited.isDone());
            peer.destroyForcibly(); // kill -9
            assertEquals(2, exited.get(20, TimeUnit.SECONDS));
        } finally {
            peer.destroyForcibly();
        }
    }

    @Test
    void peersOfOtherHostsOrThisJvmOrAnUnknownHostAreNotWatched() {
        PeerProcesses processes = new PeerProcesses(42, 3, peer -> { throw new AssertionError("told of " + peer); });
        assertFalse(processes.watch(1, 12345, 43), "another host");
        assertFalse(processes.watch(1, ProcessHandle.current().pid(), 42), "a node of this JVM (LocalCluster)");
        assertFalse(new PeerProcesses(0, 3, p -> { }).watch(1, 12345, 0), "this host is unknown");
        assertFalse(processes.watch(1, 0, 42), "no pid");
    }

    @Test
    void theHostIdentityNamesTheBootAndThePidNamespace(@TempDir Path dir) throws Exception {
        Path boot = Files.writeString(dir.resolve("boot_id"), "0d7c4f9e-1\n");
        Path ns = Files.createSymbolicLink(dir.resolve("pid"), Path.of("pid:[4026531836]"));
        Path otherNs = Files.createSymbolicLink(dir.resolve("pid2"), Path.of("pid:[4026532000]"));
        long id = HostIdentity.read(boot, ns);
        assertNotEquals(0, id);
        assertEquals(id, HostIdentity.read(boot, ns));
        assertNotEquals(id, HostIdentity.read(boot, otherNs), "a container's own pid namespace is another host");
        assertEquals(0, HostIdentity.read(dir.resolve("missing"), ns), "unknown when unreadable");
        if (Files.exists(Path.of("/proc/self/ns/pid"))) {
            assertNotEquals(0, HostIdentity.current());
        }
    }
}
