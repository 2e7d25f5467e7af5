package dev.cumulus.cli.standing;

import dev.cumulus.cli.CliRun;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;
import dev.cumulus.NodeFailedException;
import dev.cumulus.cli.standing.mains.Tally;
import dev.cumulus.cli.standing.mains.TallyImpl;
import dev.cumulus.cli.standing.mains.Valve;
import dev.cumulus.cli.standing.mains.ValveImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server of a standing cluster of two real server processes is killed ({@code kill -9}) while clients use it: their
 * calls to it fail naming it, a call in flight there too; the other server serves on — the clients' objects there, a
 * new client, {@code cumulus ps} and {@code cluster list} showing the server gone — and {@code cluster stop} still
 * stops the cluster (the fixture's stop checks it).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ServerDeathSystemTest {
    @TempDir
    static Path tmp;
    private static ClusterRecord cluster;

    @BeforeAll
    static void startCluster() {
        cluster = TestClusters.start(tmp.resolve("cfg"), "dies", 2, TestClusters.testClasses());
    }

    @AfterAll
    static void stopCluster() {
        TestClusters.stop("dies");
        for (long pid : cluster.serverPids()) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "server " + pid + " ended");
        }
    }

    /** Waits until the keeper's log (the servers' output) holds {@code text}. */
    private static void awaitLog(String text) throws IOException {
        Path log = tmp.resolve("cfg/clusters/dies/keeper.log");
        while (!Files.exists(log) || !Files.readString(log).contains(text)) {
            Thread.onSpinWait();
        }
    }

    @Test
    void aServerThatDiesFailsOnlyItsOwnCallsAndTheRestOfTheClusterServesOn() throws Exception {
        try (Cluster a = Cluster.connect("dies"); Cluster b = Cluster.connect("dies")) {
            Tally onOne = a.remoteNew(TallyImpl.class, Tally.class, "on-one", 1);
            Tally onZero = a.remoteNew(TallyImpl.class, Tally.class, "on-zero", 0);
            Tally othersOnZero = b.remoteNew(TallyImpl.class, Tally.class, "others-on-zero", 0);
            Valve valve = a.remoteNew(ValveImpl.class, Valve.class, "valve-on-one", 1);
            assertEquals(1, onOne.add(1));
            Valve inFlight = AsyncTicket.newTicket(valve);
            inFlight.waitOpen();
            while (valve.waiting() != 1) {
                Thread.onSpinWait();
            }

            ProcessHandle server1 = ProcessHandle.of(onOne.pid()).orElseThrow();
            server1.destroyForcibly();
            server1.onExit().get(30, TimeUnit.SECONDS);

            NodeFailedException e = assertThrows(NodeFailedException.class, () -> AsyncTicket.getResult(inFlight));
            assertEquals(1, e.nodeId(), e.getMessage());
            assertTrue(e.getMessage().contains("server 1 (pid " + server1.pid() + ") of cluster dies ended"),
                e.getMessage());
            NodeFailedException later = assertThrows(NodeFailedException.class, () -> onOne.add(1));
            assertTrue(later.getMessage().contains("server 1"), later.getMessage());

            awaitLog("node 1 exited with code"); // the keeper runs on
            awaitLog("server 0: server 1 is gone"); // server 0 knows, and did not stop
            assertEquals(3, onZero.add(3), "the client's object on the other server serves on");
            assertEquals(4, othersOnZero.add(4), "another client's object too");
            a.remoteNew(TallyImpl.class, Tally.class, "made-after", 0);
            assertEquals(5, a.lookup("made-after", Tally.class).add(5), "names are bound and found on server 0");
        }

        try (Cluster c = Cluster.connect("dies")) {
            long server0 = cluster.serverPids().getFirst();
            Tally mine = c.remoteNew(TallyImpl.class, Tally.class, "new-client");
            assertEquals(server0, mine.pid(), "remoteNew in turn skips the server that is gone");
            assertEquals(server0, c.remoteNew(TallyImpl.class, Tally.class, "new-client-2").pid());
            assertEquals(6, mine.add(6));
            NodeFailedException e = assertThrows(NodeFailedException.class,
                () -> c.remoteNew(TallyImpl.class, Tally.class, "on-the-dead", 1));
            assertTrue(e.getMessage().contains("server 1"), e.getMessage());
        }

        JsonArray servers = JsonParser.parseString(CliRun.ok("ps", "dies", "--json").out()).getAsJsonObject()
            .getAsJsonArray("servers");
        assertEquals(2, servers.size(), servers.toString());
        JsonObject zero = servers.get(0).getAsJsonObject();
        JsonObject one = servers.get(1).getAsJsonObject();
        assertEquals("serving", zero.get("state").getAsString(), servers.toString());
        assertEquals("gone", one.get("state").getAsString(), servers.toString());
        assertEquals((long) cluster.serverPids().get(1), one.get("pid").getAsLong());
        assertTrue(CliRun.ok("ps", "dies").out().contains("gone: its process ended"), "the table says so");
        String list = CliRun.ok("cluster", "list").out();
        assertTrue(list.matches("(?s).*dies\\s+serving\\s+1/2\\s.*"), list);
    }
}
