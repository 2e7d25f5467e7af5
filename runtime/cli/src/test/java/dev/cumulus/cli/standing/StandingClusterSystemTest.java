package dev.cumulus.cli.standing;

import dev.cumulus.cli.CliRun;
import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.cli.launch.ChildProcesses;
import dev.cumulus.cli.standing.mains.Tally;
import dev.cumulus.cli.standing.mains.TallyImpl;
import dev.cumulus.cli.standing.mains.Valve;
import dev.cumulus.cli.standing.mains.ValveImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cumulus cluster start|list|stop} with a real keeper and real server processes, also stopped while a client
 * is attached.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StandingClusterSystemTest {
    @TempDir
    Path tmp;
    private ClusterRegistry registry;

    @BeforeEach
    void ownConfigDirectory() {
        registry = TestClusters.useConfigDir(tmp.resolve("cfg"));
    }

    @AfterEach
    void nothingLeftBehind() throws Exception {
        TestClusters.forgetConfigDir();
        ChildProcesses.noneLeftBehind();
    }

    @Test
    void aClusterServesInTheBackgroundUntilStoppedAndLeavesNothing() throws Exception {
        CliRun started = CliRun.of("cluster", "start", "demo", "--nodes", "2");
        assertEquals(0, started.exit(), started.out() + started.err());
        ClusterRecord r = registry.read("demo").orElseThrow();
        assertTrue(r.alive());
        assertEquals(2, r.size());
        for (long pid : r.serverPids()) {
            ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
            assertTrue(KeeperProcess.isServer(server), "server " + pid + " runs StandingServer");
            assertEquals(r.keeperPid(), server.parent().orElseThrow().pid(), "servers are the keeper's children");
        }
        assertTrue(Files.isDirectory(Path.of(r.driverDir())));
        assertEquals(64, r.adminCredential().length());
        assertFalse(started.out().contains(r.adminCredential()), "the credential stays in the state file");

        CliRun again = CliRun.of("cluster", "start", "demo", "--nodes", "1");
        assertEquals(1, again.exit());
        assertTrue(again.err().contains("already serves"), again.err());

        CliRun listed = CliRun.of("cluster", "list");
        assertTrue(listed.out().matches("(?s).*demo\\s+serving\\s+2\\s+" + r.keeperPid() + ".*"), listed.out());

        CliRun stopped = CliRun.of("cluster", "stop", "demo");
        assertEquals(0, stopped.exit(), stopped.err());
        assertFalse(ProcessHandle.of(r.keeperPid()).map(ProcessHandle::isAlive).orElse(false));
        for (long pid : r.serverPids()) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "server " + pid);
        }
        assertFalse(Files.exists(Path.of(r.driverDir())), "driver directory removed");
        assertFalse(Files.exists(registry.stateFile("demo")));
        assertFalse(Files.exists(registry.stateFile("demo").resolveSibling("demo")));
        assertEquals("no standing clusters", CliRun.of("cluster", "list").out().strip());
        CliRun none = CliRun.of("cluster", "stop", "demo");
        assertEquals(1, none.exit());
        assertTrue(none.err().contains("there is no cluster demo"), none.err());
    }

    @Test
    void aClusterWhoseKeeperDiedIsListedStaleAndStopCleansIt() throws Exception {
        assertEquals(0, CliRun.of("cluster", "start", "s", "--nodes", "1").exit());
        ClusterRecord r = registry.read("s").orElseThrow();
        ProcessHandle keeper = ProcessHandle.of(r.keeperPid()).orElseThrow();
        keeper.destroyForcibly();
        keeper.onExit().get(10, TimeUnit.SECONDS);
        for (long pid : r.serverPids()) { // a server ends with its keeper: its stdin pipe ends
            ProcessHandle.of(pid).ifPresent(p -> p.onExit().join());
        }
        CliRun listed = CliRun.of("cluster", "list");
        assertTrue(listed.out().matches("(?s).*s\\s+stale\\s+1.*"), listed.out());
        assertEquals(0, CliRun.of("cluster", "stop", "s").exit());
        assertFalse(Files.exists(Path.of(r.driverDir())), "the dead keeper's driver directory is removed");
        assertFalse(Files.exists(registry.stateFile("s")));
    }

    @Test
    void stoppingAClusterWithClientsAttachedGivesThemAClearErrorAndNothingHangs() throws Exception {
        String classes = TestClusters.testClasses();
        assertEquals(0, CliRun.of("cluster", "start", "busy", "--nodes", "2", "-cp", classes).exit());
        ClusterRecord r = registry.read("busy").orElseThrow();
        ByteArrayOutputStream clientErr = new ByteArrayOutputStream();
        PrintStream testErr = System.err;
        System.setErr(new PrintStream(clientErr, true, StandardCharsets.UTF_8)); // what the client prints of it
        try (Cluster c = Cluster.connect("busy")) {
            Tally tally = c.remoteNew(TallyImpl.class, Tally.class, "tally", 0);
            Valve valve = c.remoteNew(ValveImpl.class, Valve.class, "valve", 1);
            assertEquals(1, tally.add(1));
            Valve inFlight = AsyncTicket.newTicket(valve);
            inFlight.waitOpen();
            while (valve.waiting() != 1) {
                Thread.onSpinWait();
            }

            CliRun stopped = CliRun.of("cluster", "stop", "busy");
            assertEquals(0, stopped.exit(), stopped.err());
            for (long pid : r.serverPids()) {
                assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "server " + pid);
            }
            NodeFailedException waiting = assertThrows(NodeFailedException.class,
                () -> AsyncTicket.getResult(inFlight));
            assertTrue(waiting.getMessage().contains("server 1 (pid " + r.serverPids().get(1) + ") of cluster busy "
                + "ended: it was stopped or died"), waiting.getMessage());
            NodeFailedException next = assertThrows(NodeFailedException.class, () -> tally.add(1));
            assertTrue(next.getMessage().contains("server 0"), next.getMessage());
        } finally { // closing the client does not wait for servers that are gone
            System.setErr(testErr);
        }
        assertTrue(clientErr.toString(StandardCharsets.UTF_8).isEmpty()
            || clientErr.toString(StandardCharsets.UTF_8).strip().matches("cumulus: client \\d+: the standing "
            + "cluster's media driver \\(.*\\) is gone: the cluster was stopped, or its keeper died; .*"),
            "at most one line about the driver: " + clientErr);
        CumulusException again = assertThrows(CumulusException.class, () -> Cluster.connect("busy"));
        assertTrue(again.getMessage().contains("there is no standing cluster busy"), again.getMessage());
        assertFalse(Files.exists(Path.of(r.driverDir())), "driver directory removed");
    }

    @Test
    void badNamesAndCountsAreRefusedBeforeAnythingStarts() {
        CliRun badName = CliRun.of("cluster", "start", "../x", "--nodes", "1");
        assertEquals(1, badName.exit());
        assertTrue(badName.err().contains("is not valid"), badName.err());
        CliRun badCount = CliRun.of("cluster", "start", "x", "--nodes", "0");
        assertEquals(2, badCount.exit());
        assertTrue(badCount.err().contains("--nodes must be 1..64"), badCount.err());
        assertFalse(Files.exists(registry.stateFile("x").getParent()));
    }
}
