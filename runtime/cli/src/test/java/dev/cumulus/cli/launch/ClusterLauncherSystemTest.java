package dev.cumulus.cli.launch;

import dev.cumulus.cli.CapturedOutput;
import dev.cumulus.cli.launch.mains.BlockMain;
import dev.cumulus.cli.launch.mains.ExitOnNode2Main;
import dev.cumulus.cli.launch.mains.IgnoreTermMain;
import dev.cumulus.cli.launch.mains.NoMain;
import dev.cumulus.cli.launch.mains.PrintArgsMain;
import dev.cumulus.cli.launch.mains.ProfiledMain;
import dev.cumulus.cli.launch.mains.ThrowMain;
import dev.cumulus.internal.launch.LaunchConfig.TransportMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * System tests: real node JVMs started through {@link ClusterLauncher}, running the tiny mains of
 * {@code dev.cumulus.cli.launch.mains} (they do not need the cluster runtime). After every test: no child process and
 * no driver directory is left.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterLauncherSystemTest {
    /** p50 and p99 as the report prints them: a number and its unit each ("80.0 ns", "10.2 µs"). */
    private static final String TWO_LATENCIES = "\\s+[\\d.,]+ (?:ns|µs|ms|s)\\s+[\\d.,]+ (?:ns|µs|ms|s)";

    /** Where the test mains live: the nodes' user classpath. */
    static final String TEST_CLASSES = location(PrintArgsMain.class);
    /** Faster JVM start on a small box; the nodes here do no real work. */
    static final List<String> FAST_JVM = List.of("-XX:TieredStopAtLevel=1", "-Xshare:auto");

    @TempDir
    Path tmp;

    private final LaunchedRuns launchers = new LaunchedRuns();

    @AfterEach
    void nothingLeftBehind() throws Exception {
        launchers.noneLeftBehind();
    }

    LaunchContext context(int nodes, Class<?> main, String... args) {
        return new LaunchContext()
            .nodes(nodes)
            .mainClass(main.getName())
            .programArgs(List.of(args))
            .classpath(TEST_CLASSES)
            .jvmArgs(FAST_JVM)
            .runsRoot(tmp.resolve("runs"));
    }

    LaunchedRuns.Run run(LaunchContext ctx) {
        return launchers.run(ctx);
    }

    @Test
    void everyNodesOutputIsPrefixedWholeLinesAndTheRunSucceeds() {
        LaunchedRuns.Run r = run(context(3, PrintArgsMain.class, "a", "b c"));

        assertEquals(0, r.result().exitCode(), r.err());
        assertEquals(RunResult.Ending.ALL_SUCCEEDED, r.result().ending());
        for (int i = 0; i < 3; i++) {
            assertTrue(r.out().contains("[" + i + "] node " + i + " of 3 args [a, b c]\n"), r.out());
            assertTrue(r.out().contains("[" + i + "] node " + i + " transport=ipc endpoints= aeron.dir="
                + r.result().driverDir() + "\n"), r.out());
            assertTrue(r.err().contains("[" + i + "] node " + i + " stderr\n"), r.err());
        }
        Pattern line = Pattern.compile("\\[(\\d)] node \\1 (of 3 args .*|transport=.*|line \\d+ x*)");
        List<String> lines = r.out().lines().toList();
        assertEquals(3 * (2 + PrintArgsMain.BURST_LINES), lines.size(), "one output line per node line");
        for (String l : lines) {
            assertTrue(line.matcher(l).matches(), "interleaved or unprefixed line: " + l);
        }
        assertTrue(r.err().contains("cumulus: run " + r.result().runId() + " directory: " + r.result().runDir()),
            r.err());
        assertTrue(Files.isRegularFile(r.result().runDir().resolve(RunDirectory.LAUNCH_PROPERTIES)));
        assertTrue(Files.isRegularFile(r.result().runDir().resolve(RunDirectory.RESULT_PROPERTIES)));
        assertEquals(tmp.resolve("runs").resolve(r.result().runId()).toAbsolutePath(), r.result().runDir());
        assertFalse(Files.exists(Path.of(r.result().driverDir())), "driver directory deleted");
    }

    @Test
    void udpTransportGivesEveryNodeAnEndpoint() {
        LaunchedRuns.Run r = run(context(2, PrintArgsMain.class).transport(TransportMode.UDP).basePort(41000)
            .runDir(tmp.resolve("my-run")));

        assertEquals(0, r.result().exitCode(), r.err());
        assertTrue(r.out().contains("[1] node 1 transport=udp endpoints=127.0.0.1:41000,127.0.0.1:41001 aeron.dir="),
            r.out());
        assertEquals(tmp.resolve("my-run").toAbsolutePath(), r.result().runDir());
    }

    @Test
    void theFirstFailingNodeEndsTheRunAndGivesItsExitCode() {
        long start = System.nanoTime();
        LaunchedRuns.Run r = run(context(4, ExitOnNode2Main.class));
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

        assertEquals(3, r.result().exitCode(), "the stopped nodes (exit 143) do not count:\n" + r.err());
        assertEquals(RunResult.Ending.NODE_FAILED, r.result().ending());
        assertEquals(2, r.result().failedNode());
        String report = r.err().substring(r.err().indexOf("cumulus: node 2 exited with code 3; last output:"));
        assertTrue(report.contains("  [2] node 2 line 24"), report);
        assertTrue(report.contains("  [2] node 2 line 5\n"), "the last 20 lines: " + report);
        assertFalse(report.contains("  [2] node 2 line 4\n"), "only the last 20 lines: " + report);
        assertTrue(seconds < 20, "the other nodes block forever; the run must end soon after node 2 fails, took "
            + seconds + " s");
    }

    @Test
    void anExceptionInMainFailsTheRunWithItsStackTrace() {
        LaunchedRuns.Run r = run(context(2, ThrowMain.class));

        assertEquals(1, r.result().exitCode(), r.err());
        assertEquals(0, r.result().failedNode());
        assertTrue(r.err().contains("[0] Exception in thread \"main\" java.lang.IllegalStateException: boom from node 0"),
            r.err());
        assertTrue(r.err().contains("cumulus: node 0 exited with code 1; last output:"), r.err());
    }

    @Test
    void aTimeoutEndsTheRunWith124AndNamesTheRunningNodes() {
        LaunchedRuns.Run r = run(context(2, BlockMain.class).timeout(Duration.ofSeconds(2)));

        assertEquals(RunResult.EXIT_TIMEOUT, r.result().exitCode(), r.err());
        assertEquals(RunResult.Ending.TIMED_OUT, r.result().ending());
        assertTrue(r.err().contains("cumulus: timed out after 2s; nodes still running: 0, 1"), r.err());
        assertEquals(List.of(0, 1), r.result().stillRunning());
    }

    @Test
    void aNodeThatIgnoresSigtermIsKilledAfterTheGracePeriod() throws Exception {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        Duration grace = Duration.ofSeconds(1);
        ClusterLauncher launcher = new ClusterLauncher(context(1, IgnoreTermMain.class).grace(grace), out.stream(),
            err.stream());
        launchers.add(launcher);
        CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(launcher::run);
        out.awaitContains(Duration.ofSeconds(30), "[0] ready");   // its never-ending shutdown hook is installed

        long start = System.nanoTime();
        launcher.shutdown();
        long tookNs = System.nanoTime() - start;
        RunResult result = running.get(30, TimeUnit.SECONDS);

        assertEquals(RunResult.EXIT_STOPPED, result.exitCode(), err.text());
        assertTrue(tookNs >= grace.toNanos(), "SIGTERM did not end the node; SIGKILL came after the grace period");
    }

    @Test
    void shutdownStopsEveryNodeAndCleansUp() throws Exception {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        ClusterLauncher launcher = new ClusterLauncher(context(2, BlockMain.class), out.stream(), err.stream());
        launchers.add(launcher);
        CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(launcher::run);
        out.awaitContains(Duration.ofSeconds(30), "[0] ready pid=", "[1] ready pid=");
        List<Long> pids = pids(out.text());

        launcher.shutdown();                  // what the shutdown hook runs on Ctrl-C / SIGTERM
        RunResult result = running.get(30, TimeUnit.SECONDS);

        assertEquals(RunResult.EXIT_STOPPED, result.exitCode(), err.text());
        assertEquals(RunResult.Ending.STOPPED, result.ending());
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "node pid " + pid + " alive");
        }
        assertFalse(Files.exists(Path.of(result.driverDir())));
    }

    @Test
    void anUnknownMainClassIsReportedAndNothingStarts() {
        LaunchException e = assertThrows(LaunchException.class,
            () -> run(context(2, PrintArgsMain.class).mainClass("com.example.Missing")));
        assertEquals("no class com.example.Missing on the classpath " + TEST_CLASSES, e.getMessage());
        assertNothingStarted();
    }

    @Test
    void aClassWithoutMainIsReportedAndNothingStarts() {
        LaunchException e = assertThrows(LaunchException.class, () -> run(context(2, NoMain.class)));
        assertTrue(e.getMessage().startsWith(NoMain.class.getName() + " has no main method"), e.getMessage());
        assertNothingStarted();
    }

    @Test
    void badNodeCountsAreReportedWithTheValidRange() {
        for (long n : new long[] {0, -1, 65, 1_000_000_000_000L}) {
            LaunchException e = assertThrows(LaunchException.class, () -> run(context(1, PrintArgsMain.class).nodes(n)));
            assertTrue(e.getMessage().startsWith("--nodes " + n + " "), e.getMessage());
            assertTrue(e.getMessage().contains("1..64"), e.getMessage());
        }
        assertNothingStarted();
    }

    @Test
    void aBadHostsFileIsNamedWithItsLineAndNothingStarts() throws Exception {
        Path hosts = tmp.resolve("hosts");
        Files.writeString(hosts, "alpha slots=2\nbeta slots=two\n");
        LaunchException e = assertThrows(LaunchException.class,
            () -> run(context(2, PrintArgsMain.class).hostsFile(hosts)));
        assertEquals(hosts + ":2: slots=two is not a number; expected 'HOST [slots=N] [java=PATH]' ('#' starts a comment)",
            e.getMessage());
        assertNothingStarted();
    }

    @Test
    void localhostInAHostsFileRunsItsNodesHereWithoutSsh() throws Exception {
        Path hosts = tmp.resolve("hosts");
        Files.writeString(hosts, "localhost slots=2\n");
        LaunchedRuns.Run r = run(new LaunchContext().hostsFile(hosts).mainClass(PrintArgsMain.class.getName())
            .classpath(TEST_CLASSES).jvmArgs(FAST_JVM).runsRoot(tmp.resolve("runs")));

        assertEquals(0, r.result().exitCode(), r.err());
        for (int i = 0; i < 2; i++) {
            assertTrue(r.out().contains("[" + i + "] node " + i + " of 2 args []\n"), r.out());
            assertTrue(r.out().contains("[" + i + "] node " + i + " transport=hosts endpoints=127.0.0.1:"
                + LaunchContext.DEFAULT_BASE_PORT + ",127.0.0.1:" + (LaunchContext.DEFAULT_BASE_PORT + 1)), r.out());
        }
    }

    @Test
    void aMissingClasspathEntryIsWarnedAbout() {
        String missing = tmp.resolve("missing.jar").toString();
        LaunchedRuns.Run r = run(context(1, PrintArgsMain.class).classpath(TEST_CLASSES + File.pathSeparator + missing));

        assertEquals(0, r.result().exitCode(), r.err());
        assertTrue(r.err().contains("cumulus: warning: classpath entry " + missing + " does not exist"), r.err());
    }

    @Test
    void aProfiledRunPrintsThePerObjectTable() {
        LaunchedRuns.Run r = run(context(2, ProfiledMain.class).profile(true));

        assertEquals(0, r.result().exitCode(), r.err());
        Path dir = r.result().runDir();
        assertTrue(Files.isRegularFile(dir.resolve("node-0.jfr")), "node-0.jfr");
        assertTrue(Files.isRegularFile(dir.resolve("node-1.jfr")), "node-1.jfr");
        assertTrue(Files.isRegularFile(dir.resolve(RunDirectory.PROFILE_SETTINGS)));
        String out = r.out();
        assertTrue(out.contains("2 recordings (node-0.jfr, node-1.jfr)"), out);
        Matcher add = Pattern.compile("counter\\s+add\\s+20\\s+10\\s+0" + TWO_LATENCIES + "\\s+1280\\s+320\\s+0,1 -> 0")
            .matcher(out);
        assertTrue(add.find(), out);
        assertTrue(Pattern.compile("registry\\s+lookup\\s+4\\s+0\\s+0" + TWO_LATENCIES + "\\s+400\\s+800").matcher(out).find(),
            out);
        assertTrue(out.contains("node 1  joined"), out);
        assertTrue(out.contains("node 0  left: done"), out);
        assertFalse(out.contains("Started recording"), "JFR start-up chatter is suppressed: " + out);
    }

    private void assertNothingStarted() {
        assertTrue(ProcessHandle.current().descendants().findAny().isEmpty(), "a process was started");
        for (ClusterLauncher l : launchers) {
            assertNull(l.runId(), "no run id, so no driver directory and no run directory");
        }
        assertFalse(Files.exists(tmp.resolve("runs")), "no run directory");
    }

    private static List<Long> pids(String out) {
        List<Long> pids = new ArrayList<>();
        Matcher m = Pattern.compile("ready pid=(\\d+)").matcher(out);
        while (m.find()) {
            pids.add(Long.parseLong(m.group(1)));
        }
        return pids;
    }

    static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
