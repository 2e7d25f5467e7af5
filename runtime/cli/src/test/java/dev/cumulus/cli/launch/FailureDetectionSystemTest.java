package dev.cumulus.cli.launch;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import dev.cumulus.cli.CapturedOutput;
import dev.cumulus.cli.launch.mains.RoundsMain;
import dev.cumulus.cli.launch.mains.WedgeMain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The failure detector with real node JVMs (3 nodes, a 2 s heartbeat timeout): a node whose agent is wedged while its
 * process runs is declared failed, by name, within twice the heartbeat timeout; a healthy node slowed threefold in
 * bursts of SIGSTOP and SIGCONT is never declared failed. After every test: no child process, no driver directory.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FailureDetectionSystemTest {
    static final int NODES = 3;
    static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(2);

    @TempDir
    Path tmp;

    private final LaunchedRuns launchers = new LaunchedRuns();

    @AfterEach
    void nothingLeftBehind() throws Exception {
        launchers.noneLeftBehind();
    }

    private LaunchContext context(Class<?> main, List<String> extraJvm, String... args) {
        List<String> jvm = new ArrayList<>(ClusterLauncherSystemTest.FAST_JVM);
        jvm.addAll(extraJvm);
        return new LaunchContext().nodes(NODES).mainClass(main.getName()).programArgs(List.of(args))
            .classpath(ClusterLauncherSystemTest.TEST_CLASSES).jvmArgs(jvm).heartbeatTimeout(HEARTBEAT_TIMEOUT)
            .grace(Duration.ofSeconds(2)).timeout(Duration.ofSeconds(120)).runsRoot(tmp.resolve("runs"));
    }

    /**
     * Node 1's duty-cycle threads are suspended through the debugger interface while its process, and its heartbeat
     * thread, run on: its beats carry a progress count that no longer moves, so its peers suspect it, probe it, and
     * fail-stop naming it — with the silence they measured under twice the heartbeat timeout.
     */
    @Test
    void aNodeWhoseAgentIsWedgedIsDeclaredFailedWithinTwiceTheHeartbeatTimeout() throws Exception {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        ClusterLauncher launcher = new ClusterLauncher(context(WedgeMain.class,
            List.of("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0")),
            out.stream(), err.stream());
        launchers.add(launcher);
        CompletableFuture<RunResult> running = start(launcher);
        out.awaitContains(Duration.ofSeconds(60), "[0] ready pid=", "[1] ready pid=", "[2] ready pid=");
        Matcher port = Pattern.compile("\\[1] Listening for transport dt_socket at address: (\\d+)").matcher(out.text());
        assertTrue(port.find(), out.text());

        VirtualMachine vm = attach(port.group(1));
        try {
            Set<String> wedged = Set.of("cumulus-node-1", "cumulus-node-1-standby");
            List<String> suspended = new ArrayList<>();
            for (ThreadReference t : vm.allThreads()) {
                if (wedged.contains(t.name())) {
                    t.suspend();
                    suspended.add(t.name());
                }
            }
            assertEquals(wedged.size(), suspended.size(), "threads of node 1: " + vm.allThreads());
            RunResult r = result(running, out, err);
            String all = out.text() + err.text();

            assertEquals(RunResult.Ending.NODE_FAILED, r.ending(), all);
            assertEquals(1, r.failedNode(), all);
            assertFalse(out.text().contains("passed barrier 2"), all);
            Matcher silence = Pattern.compile("node 1's heartbeats arrive but its agent has made no progress for "
                + "(\\d+\\.\\d) s").matcher(all);
            assertTrue(silence.find(), "the peers saw beats without progress:\n" + all);
            double seconds = Double.parseDouble(silence.group(1));
            assertTrue(seconds <= 2 * HEARTBEAT_TIMEOUT.toMillis() / 1000.0,
                "declared failed after " + seconds + " s of no progress:\n" + all);
        } finally {
            try {
                vm.dispose();
            } catch (RuntimeException e) {
                // the launcher stopped node 1 already
            }
        }
    }

    /**
     * Runs the launcher on a thread of its own: the common pool's one worker on a small box must stay free, since the
     * JDK completes {@code Process.onExit()}, which the launcher waits on, there.
     */
    private static CompletableFuture<RunResult> start(ClusterLauncher launcher) {
        CompletableFuture<RunResult> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(launcher.run());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "launcher");
        t.setDaemon(true);
        t.start();
        return result;
    }

    /** The run's result, once it ended; its output if it does not end in time. */
    private static RunResult result(CompletableFuture<RunResult> running, CapturedOutput out, CapturedOutput err)
        throws Exception {
        try {
            return running.get(90, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the run did not end; its output:\n" + out.text() + err.text(), e);
        }
    }

    private static VirtualMachine attach(String port) throws Exception {
        AttachingConnector socket = Bootstrap.virtualMachineManager().attachingConnectors().stream()
            .filter(c -> c.name().equals("com.sun.jdi.SocketAttach")).findFirst().orElseThrow();
        Map<String, Connector.Argument> args = socket.defaultArguments();
        args.get("hostname").setValue("127.0.0.1");
        args.get("port").setValue(port);
        return socket.attach(args);
    }

    /**
     * Node 1 is stopped 800 ms and let run 400 ms by turns — three times slower, in silences well under the heartbeat
     * timeout — for ten cycles while the nodes work in rounds (a barrier and a remote call each); then the run ends
     * normally, and nobody was declared failed.
     */
    @Test
    void aHealthyNodeSlowedThreefoldIsNeverDeclaredFailed() throws Exception {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        Path stop = tmp.resolve("stop");
        ClusterLauncher launcher = new ClusterLauncher(context(RoundsMain.class, List.of(), stop.toString()),
            out.stream(), err.stream());
        launchers.add(launcher);
        CompletableFuture<RunResult> running = start(launcher);
        out.awaitContains(Duration.ofSeconds(60), "[0] ready pid=", "[1] ready pid=", "[2] ready pid=");
        Matcher pid = Pattern.compile("\\[1] ready pid=(\\d+)").matcher(out.text());
        assertTrue(pid.find(), out.text());

        try (ProcessThrottle throttle = new ProcessThrottle(Long.parseLong(pid.group(1)), Duration.ofMillis(800),
            Duration.ofMillis(400))) {
            throttle.awaitCycles(10, Duration.ofSeconds(90));
        } catch (Exception e) {
            throw new AssertionError("the throttled node 1 did not run 10 stop-and-run cycles; the run's output:\n"
                + out.text() + err.text(), e);
        }
        Files.createFile(stop);
        RunResult r = result(running, out, err);
        String all = out.text() + err.text();

        assertEquals(RunResult.Ending.ALL_SUCCEEDED, r.ending(), all);
        assertEquals(0, r.exitCode(), all);
        for (int node = 0; node < NODES; node++) {
            assertTrue(out.text().contains("[" + node + "] done after"), all);
        }
        assertFalse(all.contains("failed"), all);
    }
}
