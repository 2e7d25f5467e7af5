package dev.cumulus.cli.standing;

import dev.cumulus.Cluster;
import dev.cumulus.NodeFailedException;
import dev.cumulus.cli.standing.mains.Tally;
import dev.cumulus.cli.standing.mains.TallyImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

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
    static void startCluster() {
        cluster = TestClusters.start(tmp.resolve("cfg"), "dies", 2, TestClusters.testClasses());
    }

    @AfterAll
    static void stopCluster() {
        TestClusters.stop("dies");
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
