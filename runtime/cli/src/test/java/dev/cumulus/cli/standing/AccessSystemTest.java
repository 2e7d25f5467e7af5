package dev.cumulus.cli.standing;

import dev.cumulus.Access;
import dev.cumulus.AccessDeniedException;
import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.cli.CumulusCli;
import dev.cumulus.cli.standing.mains.Tally;
import dev.cumulus.cli.standing.mains.TallyImpl;
import dev.cumulus.internal.service.ClientCredential;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Access control of a standing cluster of two real server processes: clients attach with the credentials the admin
 * granted ({@code cumulus cluster grant}), objects belong to the client that made them, and another client reaches
 * them only as their owner granted; what is refused is named and logged by the server.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class AccessSystemTest {
    @TempDir
    static Path tmp;
    private static ClusterRecord cluster;

    @BeforeAll
    static void startCluster() {
        cluster = TestClusters.start(tmp.resolve("cfg"), "acl", 2, TestClusters.testClasses());
    }

    @AfterAll
    static void stopCluster() {
        TestClusters.stop("acl");
        assertTrue(!Files.exists(tmp.resolve("cfg/credentials/acl")), "the granted credentials went with it");
    }

    @AfterEach
    void noCredentialChosen() {
        System.clearProperty(ClientCredential.PROPERTY);
    }

    /** {@code cumulus cluster grant acl CLIENT}: the file it wrote. */
    private static Path grant(String client) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, CumulusCli.execute(new String[] {"cluster", "grant", "acl", client},
            new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
        Path file = tmp.resolve("cfg/credentials/acl/" + client + ".credential");
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(file.toString()), out.toString());
        return file;
    }

    /** Connects as the client whose credential is {@code file}. */
    private static Cluster as(Path file) {
        System.setProperty(ClientCredential.PROPERTY, file.toString());
        try {
            return Cluster.connect("acl");
        } finally {
            System.clearProperty(ClientCredential.PROPERTY);
        }
    }

    private static AccessDeniedException denied(Supplier<?> action) {
        return assertThrows(AccessDeniedException.class, action::get);
    }

    @Test
    void anotherClientsObjectIsReachedOnlyAsItsOwnerGranted() throws Exception {
        Path alice = grant("alice");
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(alice),
            "a credential is owner-only");
        try (Cluster a = as(alice); Cluster b = as(grant("bob")); Cluster c = as(grant("carol"));
             Cluster admin = as(grant("admin"))) {
            Tally own = a.remoteNew(TallyImpl.class, Tally.class, "alice-private", 0);
            assertEquals(1, own.add(1));
            a.remoteNew(TallyImpl.class, Tally.class, "alice-for-bob", 1, Access.clients("bob")).add(10);
            a.remoteNew(TallyImpl.class, Tally.class, "alice-read-only", 0, Access.methods("pid"));

            AccessDeniedException lookup = denied(() -> b.lookup("alice-private", Tally.class, Duration.ZERO));
            assertTrue(lookup.getMessage().contains("client bob may not look up 'alice-private'")
                && lookup.getMessage().contains("belongs to client alice"), lookup.getMessage());

            assertEquals(15, b.lookup("alice-for-bob", Tally.class).add(5), "bob was granted it");
            AccessDeniedException carol = denied(() -> c.lookup("alice-for-bob", Tally.class, Duration.ZERO));
            assertTrue(carol.getMessage().contains("client carol"), carol.getMessage());

            Tally readOnly = c.lookup("alice-read-only", Tally.class);
            assertTrue(cluster.serverPids().contains(readOnly.pid()), "a granted method runs");
            AccessDeniedException call = denied(() -> readOnly.add(1));
            assertTrue(call.getMessage().contains("client carol") && call.getMessage().contains("alice-read-only.add()")
                && call.getMessage().contains("belongs to client alice")
                && call.getMessage().contains("does not cover add()"), call.getMessage());

            Tally all = admin.lookup("alice-private", Tally.class);
            assertEquals(3, all.add(2), "the admin reaches every object");
            assertEquals(4, own.add(1), "the owner still does");
        }
        // the servers' output reaches the keeper's log through its pump: wait for the line, not for a time
        Path logFile = ClusterRegistry.ofUser().clusterDirectoryPath("acl").resolve(KeeperProcess.LOG);
        long deadline = System.nanoTime() + 20_000_000_000L;
        String log = Files.readString(logFile);
        while (!(log.contains("refused a call: client carol") && log.contains("alice-read-only.add()"))
            && System.nanoTime() - deadline < 0) {
            Thread.yield();
            log = Files.readString(logFile);
        }
        assertTrue(log.contains("refused a call: client carol") && log.contains("alice-read-only.add()"),
            "the server logs a refused call: " + log);
    }

    @Test
    void aClientWithoutAValidCredentialIsRefusedAndToldWhatToDo() throws Exception {
        AccessDeniedException missing = denied(() -> as(tmp.resolve("no-such.credential")));
        assertTrue(missing.getMessage().contains("does not exist") && missing.getMessage().contains("cluster grant acl"),
            missing.getMessage());

        Path mallory = grant("mallory");
        String text = Files.readString(mallory);
        String forged = text.replaceAll("key=([0-9a-f])", "key=" + (text.contains("key=0") ? "1" : "0"));
        assertNotEquals(text, forged);
        Path forgedFile = tmp.resolve("forged.credential");
        Files.writeString(forgedFile, forged);
        AccessDeniedException bad = denied(() -> as(forgedFile));
        assertTrue(bad.getMessage().contains("client mallory") && bad.getMessage().contains("not valid for this cluster"),
            bad.getMessage());

        Path renamed = tmp.resolve("renamed.credential");
        Files.writeString(renamed, text.replace("client=mallory", "client=alice"));
        denied(() -> as(renamed)); // a key proves only the name it was granted under

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--attach", "acl", "--credential",
                tmp.resolve("none").toString(), "-cp", tmp.toString(), "Main"},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertNotEquals(0, exit);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--credential"), err.toString());
    }

    @Test
    void aClassOfCumulusOwnPackagesIsNeverTakenFromAClient() throws Exception {
        Path src = tmp.resolve("evil/dev/cumulus/internal");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Sneaky.java"), "package dev.cumulus.internal; public class Sneaky implements "
            + Tally.class.getName() + " { public int add(int n) { return -1; } public long pid() { return -1; } }");
        Path out = Files.createDirectories(tmp.resolve("evil-classes"));
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", out.toString(), "-cp",
            System.getProperty("java.class.path"), src.resolve("Sneaky.java").toString()));
        Thread me = Thread.currentThread();
        ClassLoader before = me.getContextClassLoader();
        try (URLClassLoader classes = new URLClassLoader(new URL[] {out.toUri().toURL()}, before)) {
            me.setContextClassLoader(classes); // the client ships what its context loader finds
            try (Cluster c = Cluster.connect("acl")) {
                @SuppressWarnings("unchecked")
                Class<? extends Tally> sneaky = (Class<? extends Tally>) classes.loadClass("dev.cumulus.internal.Sneaky");
                CumulusException e = assertThrows(CumulusException.class,
                    () -> c.remoteNew(sneaky, Tally.class, "sneaky", 0));
                assertTrue(e.getMessage().contains("dev.cumulus.internal.Sneaky")
                    && e.getMessage().contains("never comes from client"), e.getMessage());
            }
        } finally {
            me.setContextClassLoader(before);
        }
    }
}
