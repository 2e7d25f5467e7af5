package dev.cumulus.internal.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The operating system tells of a peer process's death: a real process, killed with SIGKILL. */
@Timeout(30)
class PeerProcessesTest {
    @Test
    void theExitOfAWatchedProcessOnThisHostIsToldOnce() throws Exception {
        Process peer = new ProcessBuilder("sleep", "60").start();
        try {
            List<Integer> told = new CopyOnWriteArrayList<>();
            PeerProcesses processes = new PeerProcesses(42, 3, told::add);
            assertTrue(processes.watch(2, peer.pid(), 42));
            assertFalse(processes.watch(2, peer.pid(), 42), "watched once");
            processes.check();
            assertEquals(List.of(), told, "it lives");
            peer.destroyForcibly().waitFor(); // kill -9; its parent (here, this JVM) reaps it, as a launcher would
            processes.check();
            assertEquals(List.of(2), told);
            processes.check();
            assertEquals(List.of(2), told, "told once");
        } finally {
            peer.destroyForcibly();
        }
    }

    @Test
    void aPidThatNamesNoProcessIsToldAtOnce() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        CompletableFuture<Integer> exited = new CompletableFuture<>();
        assertTrue(new PeerProcesses(42, 2, exited::complete).watch(1, gone.pid(), 42));
        assertEquals(1, exited.getNow(-1));
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
