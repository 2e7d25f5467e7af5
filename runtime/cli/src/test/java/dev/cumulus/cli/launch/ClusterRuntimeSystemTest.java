package dev.cumulus.cli.launch;

import testapps.ReplicatedMinimumMain;
import dev.cumulus.cli.launch.mains.RingCallsMain;
import dev.cumulus.examples.matmul.MasterWorker;
import dev.cumulus.examples.tsp.ReplicatedTsp;
import dev.cumulus.internal.launch.LaunchConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * System tests of the cluster runtime: real node JVMs started by the launcher, joined with {@code Cluster.join()},
 * talking over Aeron through the launcher's shared driver. After every test: no child process, no driver directory.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ClusterRuntimeSystemTest {
    @TempDir
    Path tmp;

    private final LaunchedRuns launchers = new LaunchedRuns();

    @AfterEach
    void nothingLeftBehind() throws Exception {
        launchers.noneLeftBehind();
    }

    private LaunchedRuns.Run run(LaunchContext ctx) {
        return launchers.run(ctx.runsRoot(tmp.resolve("runs")));
    }

    private static String location(Class<?> c) {
        try {
            return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theReadmeJobReplicatedTspOnFourNodesIsVerifiedAndProfiled() {
        LaunchedRuns.Run r = run(new LaunchContext().nodes(4).mainClass(ReplicatedTsp.class.getName())
            .programArgs(List.of("10")).classpath(location(ReplicatedTsp.class)).profile(true));

        assertEquals(0, r.result().exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("[0] TSP replicated, 10 cities"), r.out());
        assertTrue(r.out().contains(": verified"), r.out());
        String all = r.out() + r.err();
        assertTrue(all.contains("replicated writes by cloud and method"), "the profile shows the cloud:\n" + all);
        assertTrue(all.contains("tsp-minimum set"), all);
    }

    @Test
    void masterWorkerOnFourNodesIsVerifiedAndProfiled() {
        LaunchedRuns.Run r = run(new LaunchContext().nodes(4).mainClass(MasterWorker.class.getName())
            .programArgs(List.of("128")).classpath(location(MasterWorker.class)).profile(true));

        assertEquals(0, r.result().exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("[0] C = A x B for 128x128 on 3 workers"), r.out());
        assertTrue(r.out().contains(": verified"), r.out());
        for (int i = 0; i < 4; i++) {
            assertTrue(Files.isRegularFile(r.result().runDir().resolve("node-" + i + ".jfr")), "node-" + i + ".jfr");
        }
        assertTrue(r.out().contains("matrix-worker-0 multiply") || r.err().contains("matrix-worker-0 multiply"),
            "the profile table names the worker objects:\n" + r.out() + r.err());
    }

    @Test
    void remoteCallsAroundARingOfRealProcesses() {
        LaunchedRuns.Run r = run(new LaunchContext().nodes(3).mainClass(RingCallsMain.class.getName())
            .classpath(location(RingCallsMain.class)));

        assertEquals(0, r.result().exitCode(), r.out() + r.err());
        for (int i = 0; i < 3; i++) {
            int right = (i + 1) % 3;
            assertTrue(r.out().contains("[" + i + "] node " + right + " greets node " + i + " sum=" + (i + 10)), r.out());
            assertTrue(r.out().contains("[" + i + "] node " + right + " greets ticket of " + i + " sum=6"), r.out());
        }
    }

    @Test
    void aReplicatedObjectAcrossRealProcessesConvergesAfterABarrier() {
        LaunchedRuns.Run r = run(new LaunchContext().nodes(3).mainClass(ReplicatedMinimumMain.class.getName())
            .classpath(location(ReplicatedMinimumMain.class)).profile(true));

        assertEquals(0, r.result().exitCode(), r.out() + r.err());
        for (int i = 0; i < 3; i++) {
            assertTrue(r.out().contains("[" + i + "] node " + i + " sees minimum 751"), r.out());
        }
    }

    @Test
    void theAgentOptionsReachTheNodesAgent() {
        Path woven = tmp.resolve("woven");
        LaunchedRuns.Run r = run(new LaunchContext().nodes(1).mainClass(ReplicatedMinimumMain.class.getName())
            .classpath(location(ReplicatedMinimumMain.class)).agentOptions("verbose,dumpDir=" + woven));

        assertEquals(0, r.result().exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("[0] node 0 sees minimum 951"), r.out());
        assertTrue(r.err().contains("[0] cumulus-agent: wove testapps.ReplicatedMinimumMain$Minimum\n"), r.err());
        assertTrue(Files.isRegularFile(woven.resolve("testapps/ReplicatedMinimumMain$Minimum.class")),
            "dumpDir holds the woven class");
    }

    @Test
    void aBusyUdpPortIsNamedBeforeAnythingStarts() throws Exception {
        try (DatagramSocket busy = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            int port = busy.getLocalPort();
            LaunchException e = Assertions.assertThrows(LaunchException.class, () -> run(
                new LaunchContext().nodes(2).mainClass(RingCallsMain.class.getName())
                    .classpath(location(RingCallsMain.class)).transport(
                        LaunchConfig.TransportMode.UDP).basePort(port)));
            assertTrue(e.getMessage().contains("UDP port " + port) && e.getMessage().contains("--base-port"),
                e.getMessage());
        }
    }
}
