package dev.cumulus.cli.standing;

import dev.cumulus.Access;
import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.cli.CumulusCli;
import dev.cumulus.cli.standing.mains.MidCallClientMain;
import dev.cumulus.cli.standing.mains.MidMigrationClientMain;
import dev.cumulus.cli.standing.mains.Tally;
import dev.cumulus.cli.standing.mains.TallyImpl;
import dev.cumulus.cli.standing.mains.Valve;
import dev.cumulus.cli.standing.mains.ValveImpl;
import dev.cumulus.internal.service.ClientCredential;
import dev.cumulus.internal.service.ClientAdmission;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that misbehave against a standing cluster of two real server processes: one that floods a server with
 * calls is told its limit while another is served, and one that dies in the middle of a call, or of a migration of
 * its object, leaves the servers serving.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class BadClientsSystemTest {
    @TempDir
    static Path tmp;
    private static String classes;

    @BeforeAll
    static void startCluster() {
        classes = TestClusters.testClasses();
        TestClusters.start(tmp.resolve("cfg"), "bad", 2, classes);
    }

    @AfterAll
    static void stopCluster() {
        TestClusters.stop("bad");
    }

    private static Path grant(String client) {
        assertEquals(0, CumulusCli.execute(new String[] {"cluster", "grant", "bad", client},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err));
        return tmp.resolve("cfg/credentials/bad/" + client + ".credential");
    }

    private static Cluster as(Path credential) {
        System.setProperty(ClientCredential.PROPERTY, credential.toString());
        try {
            return Cluster.connect("bad");
        } finally {
            System.clearProperty(ClientCredential.PROPERTY);
        }
    }

    @Test
    void aClientFloodingAServerIsToldItsLimitWhileAnotherIsServed() throws Exception {
        int limit = ClientAdmission.DEFAULT_MAX_CALLS_PER_CLIENT;
        try (Cluster flood = as(grant("flood")); Cluster other = as(grant("other"))) {
            Valve valve = flood.remoteNew(ValveImpl.class, Valve.class, "flooded", 1, Access.clients("other"));
            List<Valve> tickets = new ArrayList<>();
            for (int i = 0; i <= limit; i++) {
                Valve t = AsyncTicket.newTicket(valve);
                t.waitOpen();
                tickets.add(t);
            }
            CumulusException e = assertThrows(CumulusException.class, () -> AsyncTicket.getResult(tickets.getLast()));
            assertTrue(e.getMessage().contains("client flood") && e.getMessage().contains(limit + " calls outstanding "
                + "on server 1") && e.getMessage().contains("wait for results"), e.getMessage());

            Tally served = other.remoteNew(TallyImpl.class, Tally.class, "served-meanwhile", 1);
            assertEquals(2, served.add(2), "another client is served while the flood waits");
            other.lookup("flooded", Valve.class).open();
            for (Valve t : tickets.subList(0, limit)) {
                Object result = AsyncTicket.getResult(t);
                assertEquals(null, result, "every call within the limit ran");
            }
            assertEquals(0, valve.waiting(), "the flooding client may call again once its calls are done");
        }
    }

    @Test
    void aClientThatDiesInTheMiddleOfAMigrationOfItsObjectLeavesTheServersServing() throws Exception {
        Path mover = grant("mover");
        try (Cluster other = as(grant("bystander"))) {
            CompletableFuture<Valve> seen = CompletableFuture.supplyAsync(
                () -> other.lookup("mid-move", Valve.class, Duration.ofSeconds(120)));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = CumulusCli.execute(new String[] {"run", "--attach", "bad", "--credential", mover.toString(),
                    "-cp", classes, MidMigrationClientMain.class.getName(), "mid-move"},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            assertEquals(9, exit, out.toString(StandardCharsets.UTF_8));
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("in the move"), out.toString());
            Valve valve = seen.get(60, TimeUnit.SECONDS);
            while (true) { // the servers learn of the exit from the OS, a moment after it, and remove its objects
                try {
                    other.lookup("mid-move", Valve.class, Duration.ZERO);
                } catch (CumulusException gone) {
                    break;
                }
                Thread.onSpinWait();
            }
            CumulusException removed = assertThrows(CumulusException.class, valve::open, "its objects are gone");
            assertTrue(removed.getMessage().contains("serves no object"), removed.getMessage());
            for (int server = 0; server < 2; server++) {
                Tally after = other.remoteNew(TallyImpl.class, Tally.class, "after-mid-move-" + server, server);
                assertEquals(server + 1, after.add(server + 1), "server " + server + " serves on");
            }
        }
    }

    @Test
    void aClientThatDiesInTheMiddleOfACallLeavesTheServerServing() throws Exception {
        Path mid = grant("midcall");
        try (Cluster owner = as(grant("owner"))) {
            Valve valve = owner.remoteNew(ValveImpl.class, Valve.class, "mid-call", 0, Access.anyone());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = CumulusCli.execute(new String[] {"run", "--attach", "bad", "--credential", mid.toString(),
                    "-cp", classes, MidCallClientMain.class.getName(), "mid-call"},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            assertEquals(9, exit, out.toString(StandardCharsets.UTF_8));
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("in the call"), out.toString());
            assertEquals(1, valve.waiting(), "the dead client's call still runs on the server");
            valve.open(); // its answer has nobody to go to
            while (valve.waiting() != 0) {
                Thread.onSpinWait();
            }
            Tally after = owner.remoteNew(TallyImpl.class, Tally.class, "after-mid-call", 0);
            assertEquals(5, after.add(5), "the server serves on");
        }
    }
}
