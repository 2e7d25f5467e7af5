package dev.cumulus.cli.standing;

import dev.cumulus.Cluster;
import dev.cumulus.NodeFailedException;
import dev.cumulus.cli.CumulusCli;
import dev.cumulus.cli.standing.mains.Tally;
import dev.cumulus.cli.standing.mains.TallyImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A server of a standing cluster dies while a client uses it: the client's calls to it fail, naming it. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServerDeathSystemTest {
    @TempDir
    static Path tmp;
    private static ClusterRecord cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        System.setProperty(ClusterRegistry.CONFIG_DIR_PROPERTY, tmp.resolve("cfg").toString());
        String classes = new File(TallyImpl.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"cluster", "start", "dies", "--nodes", "2", "-cp", classes},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        cluster = ClusterRegistry.ofUser().read("dies").orElseThrow();
    }

    @AfterAll
    static void stopCluster() {
        try {
            assertEquals(0, CumulusCli.execute(new String[] {"cluster", "stop", "dies"}, System.out, System.err));
        } finally {
            System.clearProperty(ClusterRegistry.CONFIG_DIR_PROPERTY);
        }
    }

    @Test
    void aClientsCallsToAServerThatDiedFailNamingIt() throws Exception {
        try (Cluster c = Cluster.connect("dies")) {
            Tally t1 = c.remoteNew(TallyImpl.class, Tally.class, "on-one", 1);
            assertEquals(1, t1.add(1));
            ProcessHandle server1 = ProcessHandle.of(t1.pid()).orElseThrow();
            server1.destroyForcibly();
            server1.onExit().get(30, TimeUnit.SECONDS);
            NodeFailedException e = assertThrows(NodeFailedException.class, () -> t1.add(1));
            assertEquals(1, e.nodeId(), e.getMessage());
            assertTrue(e.getMessage().contains("server 1"), e.getMessage());
        }
    }
}
