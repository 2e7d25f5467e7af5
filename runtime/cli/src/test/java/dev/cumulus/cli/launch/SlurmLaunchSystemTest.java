package dev.cumulus.cli.launch;

import dev.cumulus.cli.CapturedOutput;
import dev.cumulus.cli.CumulusCli;
import dev.cumulus.cli.launch.mains.BlockMain;
import dev.cumulus.cli.launch.mains.FailingNodeMain;
import dev.cumulus.cli.launch.mains.GreetingMain;
import dev.cumulus.cli.launch.mains.RingCallsMain;
import dev.cumulus.examples.colouring.MapColouring;
import dev.cumulus.examples.matmul.MasterWorker;
import dev.cumulus.examples.tsp.ReplicatedTsp;
import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.cloud.AgentLoader;
import dev.cumulus.internal.launch.LaunchConfig;
import com.google.gson.Gson;
import dev.cumulus.profiler.report.JsonReport;
import shipped.admin.SpreadClientMain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cumulus run} inside a Slurm allocation, and {@code srun cumulus node}, on a test cluster of two nodes
 * ({@link TestSlurm}: slurmctld here, a slurmd in each of two network namespaces with their own address, /tmp,
 * /dev/shm and ~/.cache, and an empty program directory that holds a program here only). The command line runs as a user runs it, under {@code salloc}. After each test the cluster holds nothing
 * of the run: no job or step, no process in the hosts but their daemons, nothing in their /tmp and /dev/shm. Skipped
 * where this machine cannot host the cluster (not root, Slurm's or munge's packages missing).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class SlurmLaunchSystemTest {
    private static final Duration RUN_WAIT = Duration.ofSeconds(150);
    private static final Pattern GRANTED = Pattern.compile("Granted job allocation (\\d+)");
    private static TestSlurm slurm;
    private static Path work;
    private static Path agentJar;
    private final List<Process> started = new ArrayList<>();

    /** A salloc process and the threads that copy its output. */
    record Started(Process process, Thread out, Thread err) {
        boolean awaitEnd() throws InterruptedException {
            if (!process.waitFor(RUN_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                return false;
            }
            out.join(RUN_WAIT);
            err.join(RUN_WAIT);
            return true;
        }
    }

    record Run(int exitCode, String out, String err) {
    }

    @BeforeAll
    static void startCluster() throws Exception {
        Path dir = Path.of("target", "test-slurm").toAbsolutePath();
        slurm = TestSlurm.up(dir, 2);
        work = Files.createDirectories(dir.resolve("work"));
        // The hosts see this machine's files except /tmp: the agent must be a jar outside it, as in an installation.
        agentJar = dir.resolve("cumulus-agent.jar");
        Files.copy(AgentLoader.agentJar(), agentJar, StandardCopyOption.REPLACE_EXISTING);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (slurm != null) {
            slurm.close();
        }
    }

    @AfterEach
    void nothingLeftInTheCluster() throws Exception {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        // Slurm ends a job's processes and records its end on its own time after salloc returns: wait for that.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<String> left = slurm.leftovers();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            left = slurm.leftovers();
        }
        assertTrue(left.isEmpty(), "left behind: " + left);
    }

    @Test
    void anExampleRunsOverTheAllocationsTasksAndItsRecordingsComeBack() throws Exception {
        Path runDir = work.resolve("tsp");
        Run r = salloc(List.of("-N2", "-n3"), cumulus("run", "--profile", "--timeout", "120s", "--run-dir",
            runDir.toString(), "-cp", location(ReplicatedTsp.class), ReplicatedTsp.class.getName(), "10"));

        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("[0] TSP replicated, 10 cities (seed 42) on 3 nodes"), r.out());
        assertTrue(r.out().contains(": verified"), r.out());
        Properties launch = properties(runDir.resolve(RunDirectory.LAUNCH_PROPERTIES));
        List<String> names = slurm.nodeNames();
        assertEquals("0=" + names.get(0) + ",1=" + names.get(0) + ",2=" + names.get(1), launch.getProperty("hosts"),
            "the allocation's tasks in order: " + launch);
        assertEquals("hosts", launch.getProperty(LaunchConfig.TRANSPORT));
        assertTrue(launch.getProperty("slurm.job") != null, launch.toString());
        for (int i = 0; i < 3; i++) {
            Path jfr = runDir.resolve(RunDirectory.jfrFileName(i));
            assertTrue(Files.isRegularFile(jfr) && Files.size(jfr) > 0, "fetched back from its host: " + jfr);
        }
        assertTrue(r.out().contains("tsp-minimum set"), "the profile covers every host's nodes:\n" + r.out());
    }

    @Test
    void theProgramsClassesTravelThroughTheAgentStepsToHostsThatCannotSeeThem() throws Exception {
        // test-hosts.sh gives every host an empty <dir>/program: a program there exists only on this host
        Path program = Path.of("target", "test-slurm", "program").toAbsolutePath()
            .resolve("p-" + Long.toHexString(System.nanoTime()));
        try {
            Path classes = program.resolve("classes");
            String mainFile = GreetingMain.class.getName().replace('.', '/') + ".class";
            Files.createDirectories(classes.resolve(mainFile).getParent());
            Files.copy(Path.of(location(GreetingMain.class)).resolve(mainFile), classes.resolve(mainFile));
            Files.writeString(classes.resolve("greeting.txt"), "hello from srun");
            Files.writeString(classes.resolve("extra.txt"), "a resource");
            Path runDir = work.resolve("shipped");
            Run r = salloc(List.of("-N2", "-n2"), cumulus("run", "--timeout", "120s", "--run-dir", runDir.toString(),
                "-cp", classes.toString(), GreetingMain.class.getName()));

            assertEquals(0, r.exitCode(), r.out() + r.err());
            for (int i = 0; i < 2; i++) {
                assertTrue(r.out().contains("[" + i + "] node " + i + " says hello from srun and a resource"),
                    r.out() + r.err());
            }
            Properties launch = properties(runDir.resolve(RunDirectory.LAUNCH_PROPERTIES));
            assertTrue(slurm.nodeNames().stream().allMatch(h -> launch.getProperty("classes." + h + ".sent.entries")
                != null), "every host got the classes through its agent step: " + launch);
        } finally {
            DriverDirectories.deleteTree(program);
        }
    }

    /**
     * {@code cumulus run --single-vm} inside an allocation: Hyperion's map colouring, unchanged, as one JVM over a node
     * on each of the allocation's hosts (the single-VM heap's module reaches nodes that srun starts).
     */
    @Test
    void aSingleVmProgramRunsAsOneJvmOverTheAllocation() throws Exception {
        Run r = salloc(List.of("-N2", "-n2"), cumulus("run", "--single-vm", "--timeout", "120s", "--run-dir",
            work.resolve("single-vm").toString(), "-cp", location(MapColouring.class), MapColouring.class.getName(),
            "8"));

        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("[0] best cost 95 (sequential search: 95) with 8 threads"), r.out());
    }

    /**
     * A standing cluster inside an allocation: {@code cluster start} spreads its servers over the allocation's hosts
     * through srun, a client attaches and calls an object on each, and {@code cluster stop} ends them (nothing left in
     * the cluster: {@link #nothingLeftInTheCluster}).
     */
    @Test
    void aStandingClusterSpreadsItsServersOverTheAllocation() throws Exception {
        Path config = work.resolve("standing-config");
        String cp = location(SpreadClientMain.class);
        String script = String.join(" ", shell(cumulus("cluster", "start", "spread", "--nodes", "2", "-cp", cp)))
            + " && " + String.join(" ", shell(cumulus("cluster", "list", "--json")))
            + " && " + String.join(" ", shell(cumulus("run", "--attach", "spread", "-cp", cp,
                SpreadClientMain.class.getName())))
            + "; rc=$?; " + String.join(" ", shell(cumulus("cluster", "stop", "spread"))) + "; exit $rc";
        Run r = salloc(List.of("-N2", "-n2"), List.of("bash", "-c", script),
            java.util.Map.of("CUMULUS_CONFIG_DIR", config.toString()));

        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("spread: 2 servers, totals 1 2"), r.out() + r.err());
        List<String> names = slurm.nodeNames();
        assertTrue(r.out().contains("\"hosts\": \"" + names.get(0) + "," + names.get(1) + "\""),
            "one server on each of the allocation's hosts:\n" + r.out());
        assertTrue(r.out().contains("\"serving\": 2"), r.out());
    }

    private static List<String> shell(List<String> words) {
        return words.stream().map(w -> "'" + w.replace("'", "'\\''") + "'").toList();
    }

    @Test
    void theLiveProfileHasRowsFromEveryHostsNodes() throws Exception {
        Path runDir = work.resolve("live");
        Run r = salloc(List.of("-N2", "-n2"), cumulus("run", "--profile", "--live", "--timeout", "120s", "--run-dir",
            runDir.toString(), "-cp", location(MasterWorker.class), MasterWorker.class.getName(), "96"));

        assertEquals(0, r.exitCode(), r.out() + r.err());
        List<String> lines = Files.readAllLines(runDir.resolve(ClusterLauncher.LIVE_PROFILE));
        for (int node = 0; node < 2; node++) {
            String tag = "\"node\":" + node + ",";
            assertTrue(lines.stream().anyMatch(l -> l.contains(tag)), "node " + node + " streamed its summaries: "
                + lines + "\n" + r.err());
        }
    }

    @Test
    void aNodeThatFailsIsNamedWithItsExitCodeAndCause() throws Exception {
        Path runDir = work.resolve("failing");
        Run r = salloc(List.of("-N2", "-n3"), cumulus("run", "--timeout", "120s", "--run-dir", runDir.toString(),
            "-cp", location(FailingNodeMain.class), FailingNodeMain.class.getName(), "throw", "2"));

        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("cumulus: node 2 exited with code 1"), r.err());
        assertTrue(r.err().contains("cumulus: the failure began at node 2: "), "reports fetched from the hosts:\n"
            + r.err());
        assertTrue(Files.isRegularFile(runDir.resolve("node-2.failure")));
    }

    @Test
    void aTimeoutEndsTheRunOnEveryHost() throws Exception {
        Run r = salloc(List.of("-N2", "-n2"), cumulus("run", "--timeout", "5s", "--run-dir",
            work.resolve("timeout").toString(), "-cp", location(BlockMain.class), BlockMain.class.getName()));

        assertEquals(RunResult.EXIT_TIMEOUT, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("[0] ready pid=") && r.out().contains("[1] ready pid="), r.out());
    }

    @Test
    void stoppingTheLauncherStopsEveryNode() throws Exception {
        Path runDir = work.resolve("stopped");
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        Started salloc = start(List.of("-N2", "-n2"), cumulus("run", "--run-dir", runDir.toString(), "-cp",
            location(BlockMain.class), BlockMain.class.getName()), out, err);
        out.awaitContains(RUN_WAIT, "[0] ready pid=", "[1] ready pid=");

        ProcessHandle launcher = salloc.process().descendants()
            .filter(p -> p.info().arguments().map(a -> List.of(a).contains(CumulusCli.class.getName())).orElse(false))
            .findFirst().orElseThrow();
        launcher.destroy(); // SIGTERM, as Ctrl-C's shutdown path

        assertTrue(salloc.awaitEnd(), err.text());
        assertTrue(err.text().contains("cumulus: launcher stopping; stopping every node"), err.text());
        assertEquals("STOPPED", properties(runDir.resolve(RunDirectory.RESULT_PROPERTIES)).getProperty("ending"),
            err.text());
    }

    @Test
    void scancelEndsTheRun() throws Exception {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        Started salloc = start(List.of("-N2", "-n2"), cumulus("run", "--run-dir", work.resolve("cancelled").toString(),
            "-cp", location(BlockMain.class), BlockMain.class.getName()), out, err);
        out.awaitContains(RUN_WAIT, "[0] ready pid=", "[1] ready pid=");
        Matcher m = GRANTED.matcher(err.text());
        assertTrue(m.find(), err.text());

        slurm.slurm("scancel", m.group(1));

        assertTrue(salloc.awaitEnd(), err.text());
    }

    @Test
    void nodesThatSrunStartsFindTheirPeersFromTheStep() throws Exception {
        List<String> srun = new ArrayList<>(List.of("srun", "--label", "--kill-on-bad-exit=1"));
        srun.addAll(cumulus("node", "-cp", location(RingCallsMain.class), RingCallsMain.class.getName()));
        String secret = RunSecret.generate().line().substring(RunSecret.LINE_PREFIX.length());
        Run r = salloc(List.of("-N2", "-n3"), srun, java.util.Map.of(SlurmNode.SECRET_VARIABLE, secret));

        assertEquals(0, r.exitCode(), r.out() + r.err());
        for (int i = 0; i < 3; i++) {
            int right = (i + 1) % 3;
            assertTrue(r.out().contains(i + ": node " + right + " greets node " + i + " sum=" + (i + 10)), r.out());
        }
    }

    @Test
    void nodesThatSrunStartsWithoutTheRunsSecretSayWhereItGoes() throws Exception {
        List<String> srun = new ArrayList<>(List.of("srun", "--label"));
        srun.addAll(cumulus("node", "-cp", location(RingCallsMain.class), RingCallsMain.class.getName()));
        Run r = salloc(List.of("-N1", "-n2"), srun);

        assertEquals(CumulusCli.EXIT_USAGE, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("srun cumulus node needs the run's secret in " + SlurmNode.SECRET_VARIABLE),
            r.err());
    }

    @Test
    void moreNodesThanTasksIsRefusedBeforeAnythingStarts() throws Exception {
        Run r = salloc(List.of("-N1", "-n2"), cumulus("run", "--nodes", "3", "-cp", location(BlockMain.class),
            BlockMain.class.getName()));

        assertEquals(CumulusCli.EXIT_USAGE, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("--nodes 3 is more than the 2 tasks of Slurm job "), r.err());
    }

    // ---------------------------------------------------------------- helpers

    /** Runs {@code command} under {@code salloc OPTIONS} to its end. */
    private Run salloc(List<String> options, List<String> command) throws Exception {
        return salloc(options, command, java.util.Map.of());
    }

    /** {@link #salloc(List, List)} with {@code env} added to the environment salloc (and so srun) passes on. */
    private Run salloc(List<String> options, List<String> command, java.util.Map<String, String> env)
            throws Exception {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        Started s = start(options, command, out, err, env);
        assertTrue(s.awaitEnd(), "salloc did not end: " + out.text() + err.text());
        return new Run(s.process().exitValue(), out.text(), err.text());
    }

    /** Starts {@code command} under {@code salloc OPTIONS}, whose stderr names the job ("Granted job allocation N"). */
    private Started start(List<String> options, List<String> command, CapturedOutput out, CapturedOutput err)
            throws IOException {
        return start(options, command, out, err, java.util.Map.of());
    }

    private Started start(List<String> options, List<String> command, CapturedOutput out, CapturedOutput err,
                          java.util.Map<String, String> env) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("salloc"));
        cmd.addAll(options);
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile());
        pb.environment().putAll(slurm.environment());
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p);
        p.getOutputStream().close();
        return new Started(p, Thread.ofPlatform().daemon().start(() -> copy(p, out, false)),
            Thread.ofPlatform().daemon().start(() -> copy(p, err, true)));
    }

    /** The command line {@code ./cumulus} runs, on this module's classes, with the agent jar outside /tmp. */
    private static List<String> cumulus(String... args) {
        List<String> cp = new ArrayList<>();
        cp.add(location(CumulusCli.class));
        cp.add(location(CommandLine.class));
        cp.add(location(JsonReport.class));
        cp.add(location(Gson.class)); // cumulus new reads and writes its JSON with Gson
        RuntimeClasspath.entries().forEach(e -> cp.add(e.toString()));
        cp.add(RuntimeClasspath.locate(LaunchContext.SINGLE_VM_MAIN).toString()); // as ./cumulus has it
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
            "-D" + AgentLoader.JAR_PROPERTY + "=" + agentJar, "-cp",
            String.join(File.pathSeparator, cp.stream().distinct().toList()), CumulusCli.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static void copy(Process p, CapturedOutput to, boolean stderr) {
        try {
            (stderr ? p.getErrorStream() : p.getInputStream()).transferTo(to);
        } catch (IOException e) {
            // process gone
        }
    }

    private static Properties properties(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
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
