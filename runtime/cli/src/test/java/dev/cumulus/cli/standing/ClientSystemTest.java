package dev.cumulus.cli.standing;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.cli.CumulusCli;
import dev.cumulus.cli.launch.ChildProcesses;
import dev.cumulus.cli.standing.mains.HaltingClientMain;
import dev.cumulus.cli.standing.mains.Tally;
import dev.cumulus.cli.standing.mains.TallyImpl;
import dev.cumulus.examples.matmul.MasterWorker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Clients of a standing cluster of two real server processes: this JVM connects, and {@code run --attach}. */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ClientSystemTest {
    @TempDir
    static Path tmp;
    private static ClusterRecord cluster;

    private static String classesOf(Class<?> c) throws Exception {
        return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
    }

    @BeforeAll
    static void startCluster() throws Exception {
        String cp = classesOf(TallyImpl.class) + File.pathSeparator + classesOf(MasterWorker.class);
        cluster = TestClusters.start(tmp.resolve("cfg"), "cl", 2, cp);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        try {
            TestClusters.stop("cl");
            assertFalse(Files.exists(Path.of(cluster.driverDir())), "driver directory removed");
        } finally {
            ChildProcesses.noneLeftBehind();
        }
    }

    @Test
    void aClientUsesRemoteObjectsOnTheServersWithTheNodesApi() {
        try (Cluster c = Cluster.connect("cl")) {
            assertEquals(2, c.size(), "size() counts the servers");
            assertEquals(0, c.nodeId(), "the client program's one process");
            c.barrier(); // its only member
            Tally t = c.remoteNew(TallyImpl.class, Tally.class, "tally-a", 1);
            assertEquals(2, t.add(2));
            assertEquals(5, t.add(3));
            assertEquals(cluster.serverPids().stream().filter(p -> p == t.pid()).count(), 1L,
                "the object lives in a server process");
            Tally ticket = AsyncTicket.newTicket(t);
            ticket.add(10);
            assertEquals(15, (int) AsyncTicket.getResult(ticket));
            assertEquals(16, c.lookup("tally-a", Tally.class).add(1));
            Tally mine = c.export(new TallyImpl(), Tally.class, "tally-client");
            assertEquals(ProcessHandle.current().pid(), c.lookup("tally-client", Tally.class).pid());
            assertEquals(4, mine.add(4));
            CumulusException e = assertThrows(CumulusException.class, () -> c.sharedLong("x"));
            assertTrue(e.getMessage().contains("not to a client"), e.getMessage());
        }
    }

    @Test
    void twoClientsAttachAtOnceEachWithItsOwnSlot() {
        try (Cluster a = Cluster.connect("cl"); Cluster b = Cluster.connect("cl")) {
            Tally ta = a.remoteNew(TallyImpl.class, Tally.class, "tally-1", 0);
            Tally tb = b.remoteNew(TallyImpl.class, Tally.class, "tally-2", 0);
            assertEquals(1, ta.add(1));
            assertEquals(7, tb.add(7));
            assertEquals(8, b.lookup("tally-1", Tally.class).add(7), "names are the cluster's");
            assertNotEquals(ta.pid(), ProcessHandle.current().pid());
        }
    }

    @Test
    void aClientsObjectsAndNamesGoWhenItCloses() {
        try (Cluster a = Cluster.connect("cl")) {
            a.remoteNew(TallyImpl.class, Tally.class, "tally-closed", 0).add(1);
            a.export(new TallyImpl(), Tally.class, "tally-exported");
        }
        try (Cluster b = Cluster.connect("cl")) {
            for (String name : List.of("tally-closed", "tally-exported")) {
                CumulusException e = assertThrows(CumulusException.class,
                    () -> b.lookup(name, Tally.class, Duration.ZERO));
                assertTrue(e.getMessage().contains("no remote object named '" + name + "'"), e.getMessage());
            }
            assertEquals(3, b.remoteNew(TallyImpl.class, Tally.class, "tally-closed", 1).add(3), "the name is free");
        }
    }

    @Test
    void aClientsObjectsGoWhenItsProcessDiesWithoutDetaching() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--attach", "cl", "-cp", classesOf(HaltingClientMain.class),
                HaltingClientMain.class.getName(), "tally-halted"},
            new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertEquals(9, exit);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("made tally-halted: 1"), out.toString());
        try (Cluster b = Cluster.connect("cl")) {
            while (true) { // the servers learn of the exit from the OS, a moment after it
                try {
                    b.lookup("tally-halted", Tally.class, Duration.ZERO);
                } catch (CumulusException e) {
                    break;
                }
                Thread.onSpinWait();
            }
        }
    }

    @Test
    void aClusterThatDoesNotExistIsNamedWithWhatToDo() {
        CumulusException e = assertThrows(CumulusException.class, () -> Cluster.connect("nope"));
        assertTrue(e.getMessage().contains("there is no standing cluster nope")
            && e.getMessage().contains("cumulus cluster start nope"), e.getMessage());
    }

    @Test
    void theMatmulExampleRunsUnchangedAsAnAttachedClient() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--attach", "cl", "-cp", classesOf(MasterWorker.class),
                MasterWorker.class.getName(), "64"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
        assertTrue(o.contains("C = A x B for 64x64 on 1 workers") && o.contains("verified"), o);
    }

    @Test
    void attachRefusesAClusterThatDoesNotExistAndOptionsOfRuns() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(2, CumulusCli.execute(new String[] {"run", "--attach", "nope", "Main"}, o, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no standing cluster nope"), err.toString());
        assertEquals(2, CumulusCli.execute(new String[] {"run", "--attach", "cl", "--nodes", "2", "Main"}, o, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--nodes, --hosts"), err.toString());
    }
}
