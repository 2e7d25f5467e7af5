package dev.cumulus.cli.standing;

import dev.cumulus.Access;
import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.Migration;
import dev.cumulus.Remote;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that misbehave against a standing cluster of two real server processes: one that floods a server with
 * asynchronous calls is held back by its own runtime at the server's limit (its calls past it wait in their start, none
 * is refused) while another is served, and one that dies in the middle of a call, or of a migration of
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
    void aClientFloodingAServerWaitsForRoomInsteadOfBeingRefusedWhileAnotherIsServed() throws Exception {
        int limit = ClientAdmission.MAX_CALLS_PER_CLIENT;
        int calls = 3 * limit;
        try (Cluster flood = as(grant("flood")); Cluster other = as(grant("other"))) {
            Valve valve = flood.remoteNew(ValveImpl.class, Valve.class, "flooded", 1, Access.clients("other"));
            Tally moving = flood.remoteNew(TallyImpl.class, Tally.class, "moved-in-the-flood", 1);
            Valve opener = other.lookup("flooded", Valve.class);
            List<Valve> tickets = new ArrayList<>();
            AtomicInteger started = new AtomicInteger();
            AtomicBoolean opened = new AtomicBoolean();
            AtomicInteger pastLimitBeforeOpen = new AtomicInteger();
            CompletableFuture<Void> starting = new CompletableFuture<>();
            Thread starter = Thread.ofPlatform().name("flood-starter").start(() -> {
                try {
                    for (int i = 0; i < calls; i++) {
                        Valve t = AsyncTicket.newTicket(valve);
                        t.waitOpen(); // returns once started: the 1,025th once an answer makes room
                        if (i >= limit && !opened.get()) {
                            pastLimitBeforeOpen.incrementAndGet();
                        }
                        tickets.add(t);
                        started.incrementAndGet();
                    }
                    starting.complete(null);
                } catch (Throwable t) {
                    starting.completeExceptionally(t);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // the server holds the first 1,024 calls, and the 1,025th start is parked in the client
            while (opener.waiting() < limit || started.get() < limit || starter.getState() != Thread.State.WAITING) {
                assertTrue(System.nanoTime() < deadline, "the flood did not fill the window within 60 s: "
                    + opener.waiting() + " calls wait on the server, " + started.get() + " started, starter "
                    + starter.getState());
                assertFalse(starting.isDone(), "the starter ended early: " + starting);
                Thread.onSpinWait();
            }
            assertEquals(limit, started.get(), "no call past the limit started while none was answered");
            assertEquals(limit, opener.waiting(), "the server holds exactly the calls within the limit");

            Tally served = other.remoteNew(TallyImpl.class, Tally.class, "served-meanwhile", 1);
            assertEquals(2, served.add(2), "another client is served while the flood waits");
            CompletableFuture<Void> moved = CompletableFuture.runAsync(() -> Remote.migrate(moving, 0, Migration.DELAYED));
            opened.set(true);
            opener.open();
            starting.get(120, TimeUnit.SECONDS);
            moved.get(120, TimeUnit.SECONDS);
            starter.join();
            assertEquals(0, pastLimitBeforeOpen.get(), "the call past the limit started only once answers came");
            assertEquals(calls, tickets.size());
            for (Valve t : tickets) {
                assertNull(AsyncTicket.getResult(t), "every call ran: none was refused");
            }
            assertEquals(0, valve.waiting(), "every call is done");
            assertEquals(0, Remote.nodeOf(moving), "a migration made while the window was full went through");
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
