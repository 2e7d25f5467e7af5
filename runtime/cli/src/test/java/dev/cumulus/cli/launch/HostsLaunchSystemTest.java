package dev.cumulus.cli.launch;

import dev.cumulus.cli.CapturedOutput;
import dev.cumulus.cli.launch.mains.BlockMain;
import dev.cumulus.cli.launch.mains.FailingNodeMain;
import dev.cumulus.cli.launch.mains.GreetingMain;
import dev.cumulus.cli.launch.mains.RingCallsMain;
import dev.cumulus.cli.launch.mains.WedgeMain;
import dev.cumulus.examples.matmul.MasterWorker;
import dev.cumulus.examples.tsp.ReplicatedTsp;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.profiler.live.LiveView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cumulus run --hosts} over two test hosts ({@link NamespaceHosts}: network namespaces with their own sshd,
 * address, /tmp and /dev/shm): a real example over both, a stop that reaches every host, and the hosts that cannot
 * take part (unreachable, key refused, no Java 25) named in the message; the program's classes shipped to hosts that
 * cannot see them (only what changed ships again), the live profile with every host's nodes, and a host cut off from
 * the others (its datagrams dropped by its own firewall) named by the node that stopped hearing it. After each test nothing of the run is left on any host:
 * no process with its run id, nothing in the hosts' /tmp and /dev/shm. Skipped where this machine cannot host the test
 * hosts (not root, no sshd).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HostsLaunchSystemTest {
    private static NamespaceHosts hosts;
    private final LaunchedRuns launchers = new LaunchedRuns();

    @BeforeAll
    static void startHosts() throws Exception {
        Path dir = Path.of("target", "test-hosts").toAbsolutePath();
        hosts = NamespaceHosts.up(dir, 2);
    }

    @AfterAll
    static void stopHosts() throws Exception {
        if (hosts != null) {
            hosts.close();
        }
    }

    @AfterEach
    void nothingLeftOnAnyHost() throws Exception {
        List<String> left = new ArrayList<>();
        for (ClusterLauncher l : launchers) {
            String mark = "-Dcumulus.run.id=" + l.runId();
            List<ProcessHandle> procs = ProcessHandle.allProcesses()
                .filter(p -> l.runId() != null && p.info().arguments().map(a -> List.of(a).contains(mark))
                    .orElse(false)).toList();
            procs.forEach(ProcessHandle::destroyForcibly);
            procs.forEach(p -> left.add("process " + p.pid() + " of run " + l.runId()));
        }
        for (String host : hosts.names()) {
            left.addAll(hosts.leftovers(host));
        }
        for (ClusterLauncher l : launchers) { // this test's own: other launchers on this machine may have theirs
            Path control = l.sshControlDirectory();
            if (control != null && Files.exists(control)) {
                left.add("ssh connection directory " + control);
            }
        }
        assertTrue(left.isEmpty(), "left behind: " + left);
    }

    private LaunchedRuns.Run run(LaunchContext ctx) {
        return launchers.run(ctx);
    }

    private LaunchContext context(Path hostsFile, Class<?> main, String... args) {
        return new LaunchContext().hostsFile(hostsFile).sshArgs(hosts.sshArgs()).mainClass(main.getName())
            .programArgs(List.of(args)).classpath(location(main)).runsRoot(Path.of("target", "test-hosts-runs"))
            .timeout(Duration.ofSeconds(120));
    }

    @Test
    void anExampleRunsOverTwoHostsWithTwoNodesEachAndItsRecordingsComeBack() throws Exception {
        Path file = hosts.hostsFile("two-by-two", "# two test hosts\nhost1 slots=2\nhost2 slots=2  # the second\n");
        LaunchedRuns.Run r = run(context(file, ReplicatedTsp.class, "10").profile(true));

        assertEquals(0, r.result().exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("[0] TSP replicated, 10 cities (seed 42) on 4 nodes"), r.out());
        assertTrue(r.out().contains(": verified"), r.out());
        Properties launch = properties(r.result().runDir().resolve(RunDirectory.LAUNCH_PROPERTIES));
        assertEquals("hosts", launch.getProperty(LaunchConfig.TRANSPORT));
        assertEquals("0=host1,1=host1,2=host2,3=host2", launch.getProperty("hosts"));
        String[] endpoints = launch.getProperty(LaunchConfig.ENDPOINTS).split(",");
        String host1 = endpoints[0].substring(0, endpoints[0].lastIndexOf(':'));
        String host2 = endpoints[2].substring(0, endpoints[2].lastIndexOf(':'));
        assertTrue(endpoints[1].startsWith(host1 + ":") && endpoints[3].startsWith(host2 + ":")
            && !host1.equals(host2), "two nodes on each host's own address: " + launch);
        for (int i = 0; i < 4; i++) {
            Path jfr = r.result().runDir().resolve(RunDirectory.jfrFileName(i));
            assertTrue(Files.isRegularFile(jfr) && Files.size(jfr) > 0, "fetched back from its host: " + jfr);
        }
        assertTrue(r.out().contains("tsp-minimum set"), "the profile covers every host's nodes:\n" + r.out());
    }

    /**
     * {@code cumulus run --single-vm --hosts}: Hyperion's map colouring, unchanged, as one JVM over a node on each of two
     * hosts (its threads round robin over both, its objects in one heap over UDP) finds the sequential optimum.
     */
    @Test
    void aSingleVmProgramRunsAsOneJvmOverTwoHosts() throws Exception {
        Path file = hosts.hostsFile("single-vm", "host1\nhost2\n");
        LaunchedRuns.Run r = run(context(file, dev.cumulus.examples.colouring.MapColouring.class, "8").singleVm(true)
            .jvmArgs(List.of(LaunchContext.SINGLE_VM_JVM_ARG)));

        assertEquals(0, r.result().exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("[0] best cost 95 (sequential search: 95) with 8 threads"), r.out());
    }

    @Test
    void aStopReachesTheNodesOnEveryHost() throws Exception {
        Path file = hosts.hostsFile("one-each", "host1\nhost2\n");
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        ClusterLauncher launcher = new ClusterLauncher(context(file, BlockMain.class), out.stream(), err.stream());
        launchers.add(launcher);
        // A thread of its own: the processes' exit callbacks run on the common pool, which a run with a timeout there
        // would hold (its timed wait does not make the pool add a thread).
        CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(launcher::run,
            r -> Thread.ofPlatform().name("hosts-test-run").start(r));
        out.awaitContains(Duration.ofSeconds(60), "[0] ready pid=", "[1] ready pid=");

        launcher.shutdown(); // what the shutdown hook runs on Ctrl-C / SIGTERM

        RunResult result = running.get(60, TimeUnit.SECONDS);
        assertEquals(RunResult.Ending.STOPPED, result.ending(), err.text());
        assertEquals(RunResult.EXIT_STOPPED, result.exitCode());
    }

    @Test
    void aNodeThatFailsOnAnotherHostIsNamedWithItsExitCodeAndCause() throws Exception {
        Path file = hosts.hostsFile("two-one", "host1 slots=2\nhost2\n");
        LaunchedRuns.Run r = run(context(file, FailingNodeMain.class, "throw", "2"));

        assertEquals(1, r.result().exitCode(), r.out() + r.err());
        assertEquals(RunResult.Ending.NODE_FAILED, r.result().ending());
        assertEquals(2, r.result().failedNode());
        assertTrue(r.err().contains("cumulus: node 2 exited with code 1"), r.err());
        assertTrue(r.err().contains("cumulus: the failure began at node 2: "), "reports fetched from the hosts:\n"
            + r.err());
        assertTrue(Files.isRegularFile(r.result().runDir().resolve("node-2.failure")));
    }

    @Test
    void theLaunchingHostTakesPartAtTheAddressTheOtherHostsSee() throws Exception {
        Path file = hosts.hostsFile("mixed", "localhost\nhost1\nhost2\n");
        LaunchedRuns.Run r = run(context(file, RingCallsMain.class));

        assertEquals(0, r.result().exitCode(), r.out() + r.err());
        for (int i = 0; i < 3; i++) {
            int right = (i + 1) % 3;
            assertTrue(r.out().contains("[" + i + "] node " + right + " greets node " + i + " sum=" + (i + 10)), r.out());
        }
        String[] endpoints = properties(r.result().runDir().resolve(RunDirectory.LAUNCH_PROPERTIES))
            .getProperty(LaunchConfig.ENDPOINTS).split(",");
        String here = endpoints[0].substring(0, endpoints[0].lastIndexOf(':'));
        assertTrue(!here.startsWith("127.") && !endpoints[1].startsWith(here + ":")
            && !endpoints[2].startsWith(here + ":"), "this host's node at its address on the hosts' network: "
            + String.join(",", endpoints));
    }

    @Test
    void aHostCutOffFromTheOthersIsNamedByTheNodesThatStoppedHearingItAndTheRunEndsEverywhere() throws Exception {
        Path file = hosts.hostsFile("one-each", "host1\nhost2\n");
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        ClusterLauncher launcher = new ClusterLauncher(context(file, WedgeMain.class)
            .heartbeatTimeout(Duration.ofSeconds(5)), out.stream(), err.stream());
        launchers.add(launcher);
        CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(launcher::run,
            r -> Thread.ofPlatform().name("hosts-test-run").start(r));
        try {
            out.awaitContains(Duration.ofSeconds(60), "[0] ready pid=", "[1] ready pid=");
            hosts.cut("host2"); // node 1's datagrams no longer leave its host

            RunResult result = running.get(120, TimeUnit.SECONDS);
            String all = out.text() + err.text();
            assertEquals(RunResult.Ending.NODE_FAILED, result.ending(), all);
            assertEquals(1, result.failedNode(), all);
            assertTrue(all.contains("node 1 has not been heard from"), all);
            assertFalse(out.text().contains("passed barrier 2"), all);
        } finally {
            hosts.heal("host2");
        }
    }

    @Test
    void aHostThatDropsOffTheNetworkMidRunIsNamedAndTheRunEndsWithoutWaitingForIt() throws Exception {
        Path file = hosts.hostsFile("one-each", "host1\nhost2\n");
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        ClusterLauncher launcher = new ClusterLauncher(context(file, WedgeMain.class)
            .heartbeatTimeout(Duration.ofSeconds(5)), out.stream(), err.stream());
        launchers.add(launcher);
        CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(launcher::run,
            r -> Thread.ofPlatform().name("hosts-test-run").start(r));
        try {
            out.awaitContains(Duration.ofSeconds(60), "[0] ready pid=", "[1] ready pid=");
            hosts.isolate("host2"); // as a host that died: nothing comes from it, nothing reaches it

            RunResult result = running.get(120, TimeUnit.SECONDS); // ssh's keep-alives end its sessions in 15 s
            String all = out.text() + err.text();
            assertEquals(RunResult.Ending.NODE_FAILED, result.ending(), all);
            assertEquals(1, result.failedNode(), all);
            assertTrue(all.contains("node 1 has not been heard from"), all);
            assertTrue(all.contains("session to host host2 ended; the host may be down or unreachable"), all);
        } finally {
            hosts.heal("host2");
        }
        // what ran on host2 ended with its ssh sessions (its sshd's keep-alives went unanswered): nothing is left
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!hosts.leftovers("host2").isEmpty() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(200); // a poll of the host's directories, not a wait for time to pass
        }
    }

    @Test
    void aTimeoutEndsTheRunOnEveryHost() throws Exception {
        Path file = hosts.hostsFile("one-each", "host1\nhost2\n");
        LaunchedRuns.Run r = run(context(file, BlockMain.class).timeout(Duration.ofSeconds(5)));

        assertEquals(RunResult.EXIT_TIMEOUT, r.result().exitCode(), r.err());
        assertEquals(RunResult.Ending.TIMED_OUT, r.result().ending());
        assertTrue(r.out().contains("[0] ready pid=") && r.out().contains("[1] ready pid="), r.out());
    }

    @Test
    void anUnreachableHostIsNamedAndNothingStarts() throws Exception {
        String absent = hosts.absentAddress();
        Path file = hosts.hostsFile("unreachable", "host1\n" + absent + "\n");
        LaunchException e = assertThrows(LaunchException.class,
            () -> run(context(file, ReplicatedTsp.class, "10").nodes(2)));
        assertTrue(e.getMessage().startsWith("cannot start on host " + absent + ": ssh could not connect"),
            e.getMessage());
    }

    @Test
    void aRefusedKeyIsNamed() throws Exception {
        Path file = hosts.hostsFile("refused", "host2\n");
        LaunchContext ctx = context(file, ReplicatedTsp.class, "10").sshArgs(hosts.sshArgsWithRefusedKey());
        LaunchException e = assertThrows(LaunchException.class, () -> run(ctx));
        assertTrue(e.getMessage().startsWith("cannot start on host host2: ssh could not connect or log in"),
            e.getMessage());
        assertTrue(e.getMessage().contains("Permission denied"), e.getMessage());
    }

    @Test
    void theProgramsClassesTravelToHostsThatCannotSeeThemAndOnlyAChangeTravelsAgain() throws Exception {
        String nonce = Long.toHexString(System.nanoTime());
        Path program = hosts.programDir().resolve("p-" + nonce);
        try {
            Path app = program.resolve("classes");
            String mainFile = GreetingMain.class.getName().replace('.', '/') + ".class";
            Files.createDirectories(app.resolve(mainFile).getParent());
            Files.copy(Path.of(location(GreetingMain.class)).resolve(mainFile), app.resolve(mainFile));
            Files.writeString(app.resolve("greeting.txt"), "hello " + nonce, StandardCharsets.UTF_8);
            Path jar = program.resolve("extra.jar");
            try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(jar))) {
                j.putNextEntry(new JarEntry("extra.txt"));
                j.write(("extra " + nonce).getBytes(StandardCharsets.UTF_8));
            }
            for (String host : hosts.names()) {
                assertFalse(hosts.sees(host, app.resolve(mainFile)) || hosts.sees(host, jar),
                    host + " must not see the program's files, or this test proves nothing");
            }
            Path file = hosts.hostsFile("one-each", "host1\nhost2\n");
            LaunchContext ctx = context(file, GreetingMain.class).classpath(app + File.pathSeparator + jar);

            LaunchedRuns.Run first = run(ctx);
            assertEquals(0, first.result().exitCode(), first.out() + first.err());
            for (int i = 0; i < 2; i++) {
                String says = "[" + i + "] node " + i + " says hello " + nonce + " and extra " + nonce;
                assertTrue(first.out().contains(says), "classes and resources from the class directory and the jar:\n" + first.out() + first.err());
            }
            assertSent(first, 2, "both entries to each host the first time");

            LaunchedRuns.Run second = run(ctx);
            assertEquals(0, second.result().exitCode(), second.out() + second.err());
            assertSent(second, 0, "nothing again while nothing changed");

            Files.writeString(app.resolve("greeting.txt"), "hi again " + nonce, StandardCharsets.UTF_8);
            LaunchedRuns.Run third = run(ctx);
            assertEquals(0, third.result().exitCode(), third.out() + third.err());
            assertTrue(third.out().contains("[1] node 1 says hi again " + nonce + " and extra " + nonce), third.out());
            assertSent(third, 1, "only the changed class directory");
        } finally {
            DriverDirectories.deleteTree(program);
        }
    }

    private static void assertSent(LaunchedRuns.Run r, int entries, String why) throws IOException {
        Properties launch = properties(r.result().runDir().resolve(RunDirectory.LAUNCH_PROPERTIES));
        for (String host : hosts.names()) {
            assertEquals(Integer.toString(entries), launch.getProperty("classes." + host + ".sent.entries"),
                why + " (" + host + "): " + launch);
        }
    }

    @Test
    void aHostWithoutJava25IsNamedWithWhatItFoundAndNothingStarts() throws Exception {
        // A java that exists here but not on the hosts (they see an empty program directory).
        Path hidden = hosts.programDir().resolve("jdk-" + Long.toHexString(System.nanoTime()));
        Path here = hidden.resolve("bin/java");
        Files.createDirectories(here.getParent());
        Files.createSymbolicLink(here, Path.of(System.getProperty("java.home"), "bin", "java"));
        try {
            Path file = hosts.hostsFile("no-java", "host1\nhost2 java=" + here + "\n");
            LaunchException e = assertThrows(LaunchException.class, () -> run(context(file, BlockMain.class)));
            assertEquals("cannot start on host host2: there is no Java at " + here + " on it; install JDK 25 there at "
                + "that path, or name its java in the hosts file (HOST java=/path/to/bin/java)", e.getMessage());
        } finally {
            DriverDirectories.deleteTree(hidden);
        }
        Path java17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
        Assumptions.assumeTrue(Files.isExecutable(java17), "no Java 17 on this machine for the older-Java case");
        Path file = hosts.hostsFile("old-java", "host1 java=" + java17 + "\n");
        LaunchException e = assertThrows(LaunchException.class, () -> run(context(file, BlockMain.class)));
        assertTrue(e.getMessage().startsWith("cannot start on host host1: " + java17 + " there is 'openjdk version "
            + "\"17."), e.getMessage());
        assertTrue(e.getMessage().contains("and Cumulus needs Java 25 or later"), e.getMessage());
    }

    @Test
    void theLiveProfileHasRowsFromTheNodesOnEveryHost() throws Exception {
        Path file = hosts.hostsFile("one-each", "host1\nhost2\n");
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        ClusterLauncher launcher = new ClusterLauncher(context(file, MasterWorker.class, "96").profile(true),
            out.stream(), err.stream()).profileStream(true).live(true);
        launchers.add(launcher);

        RunResult result = launcher.run();

        assertEquals(0, result.exitCode(), out.text() + err.text());
        List<String> lines = Files.readAllLines(result.runDir().resolve(ClusterLauncher.LIVE_PROFILE));
        for (int node = 0; node < 2; node++) {
            String tag = "\"node\":" + node + ",";
            assertTrue(lines.stream().anyMatch(l -> l.contains(tag)), "node " + node + " on host" + (node + 1)
                + " streamed its summaries: " + lines + "\n" + err.text());
            assertTrue(out.text().lines().anyMatch(l -> l.startsWith(ClusterLauncher.PROFILE_STREAM_PREFIX)
                && l.contains(tag)), out.text());
        }
        assertTrue(err.text().contains(LiveView.HEADER), err.text());
    }

    private static Properties properties(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = new InputStreamReader(new FileInputStream(file.toFile()), StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return p;
    }

    private static String location(Class<?> c) {
        try {
            return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
