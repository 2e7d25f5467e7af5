package dev.cumulus.cli.launch;

import dev.cumulus.cli.CumulusCli;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileReport;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cumulus run --single-vm} with real node processes: an ordinary multithreaded program (src/test/singlevm,
 * compiled here with javac, no Cumulus API) gives the result it gives on one JVM, its threads spread over the nodes.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SingleVmSystemTest {
    static final Path SOURCES = Path.of(System.getProperty("basedir", "."), "src", "test", "singlevm");

    @TempDir
    Path tmp;

    @AfterEach
    void nothingLeftBehind() throws Exception {
        ChildProcesses.noneLeftBehind();
    }

    @Test
    void threadsMonitorsVolatilesAndWaitNotifyOverTwoNodesGiveTheOneJvmResult() throws Exception {
        Path classes = compile();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--timeout", "150s",
            "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp", classes.toString(), "svit.Threads", "4",
            "300"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
        assertTrue(o.contains("[0] counter=1200 handed=5050 alive=false"), o);
        Set<String> nodesOfThreads = new TreeSet<>();
        Matcher m = Pattern.compile("\\[(\\d)\\] thread (worker|lambda)-\\d done").matcher(o);
        int threads = 0;
        while (m.find()) {
            nodesOfThreads.add(m.group(1));
            threads++;
        }
        assertEquals(4, threads, o);
        assertEquals(Set.of("0", "1"), nodesOfThreads, "round robin puts threads on both nodes:\n" + o);
    }

    /** As with {@code java}: exit code 1, the trace printed once, and no failure message of the launcher. */
    @Test
    void anExceptionInMainGivesExitCodeOne() throws Exception {
        Path classes = compile();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--timeout", "150s",
            "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp", classes.toString(), "svit.Threads",
            "not-a-number", "1"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, exit, out.toString(StandardCharsets.UTF_8) + e);
        String trace = "[0] Exception in thread \"main\" java.lang.NumberFormatException";
        assertTrue(e.contains(trace), e);
        assertEquals(e.indexOf(trace), e.lastIndexOf(trace), "the trace once, as java prints it:\n" + e);
        assertFalse(e.contains("exited with code"), "the program's own end, not a node's failure:\n" + e);
    }

    /**
     * SingleVm's executor and shared collections over two nodes: the workers run on both, tasks that run anywhere
     * fill one map, list and priority queue, and a task's exception reaches main as the cause of an ExecutionException.
     */
    @Test
    void singleVmsExecutorSpreadsItsWorkersAndItsCollectionsAreShared() throws Exception {
        Path classes = compile();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--timeout", "150s",
            "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp", classes.toString(), "svit.Spread", "4"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
        Set<String> nodes = new TreeSet<>();
        Set<String> workers = new TreeSet<>();
        Matcher m = Pattern.compile("\\[(\\d)\\] gate passed by (single-vm-worker-\\d)").matcher(o);
        while (m.find()) {
            nodes.add(m.group(1));
            workers.add(m.group(2));
        }
        assertEquals(4, workers.size(), o);
        assertEquals(Set.of("0", "1"), nodes, "the workers run round robin on both nodes:\n" + o);
        assertTrue(o.contains("[0] sum=22140 map=40 k7=49 list=40 ended=true failure=java.lang.IllegalStateException "
            + "boom / java.lang.IllegalStateException: boom"), o);
        StringBuilder polled = new StringBuilder();
        for (int i = 1; i <= 40; i++) {
            polled.append(i).append(i == 40 ? "" : ",");
        }
        assertTrue(o.contains("[0] polled " + polled), o);
    }

    /**
     * Threads across two nodes: a Thread subclass's name on its running node, interrupts that wake wait and sleep on
     * the other node, and the uncaught-exception handler run on the creator with the program's Thread.
     */
    @Test
    void interruptsNamesAndUncaughtExceptionHandlersWorkAcrossNodes() throws Exception {
        Path classes = compile();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--timeout", "150s",
            "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp", classes.toString(), "svit.Interrupts"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
        assertTrue(o.contains("[1] sleeper named sleeper runs as sleeper"), o);
        assertTrue(o.contains("[1] sleeper interrupted in wait"), o);
        assertTrue(o.contains("[1] napper interrupted in sleep"), o);
        assertTrue(o.contains("[0] handler got java.lang.IllegalStateException: thrown by thrower from thrower at "
            + "lambda$main$"), o);
        assertTrue(o.contains("[0] all joined"), o);
        assertTrue(!o.contains("without an interrupt"), o);
    }

    /**
     * A deadlock across two nodes (two monitors taken in opposite orders): on --timeout the launcher has node 0 print
     * every node's threads with the monitors they hold and wait for, their homes, and the deadlock; exit 124.
     */
    /**
     * {@code getState()} of threads that run on the other node (NEW, WAITING in wait, TIMED_WAITING in sleep,
     * TERMINATED) and {@code Thread.holdsLock} of a shared object, a JDK object and a program class.
     */
    @Test
    void threadStatesAndHoldsLockAnswerAsOnOneJvm() throws Exception {
        Path classes = compile();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--timeout", "150s",
            "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp", classes.toString(), "svit.States"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
        for (String line : List.of("[0] holds a JDK object's lock inside: true", "[0] outside: false false false",
            "[0] static synchronized holds the class's lock: true", "[0] before start: NEW",
            "[1] waiter holds its lock: true", "[0] waiter WAITING seen; main holds its lock: false",
            "[0] sleeper TIMED_WAITING seen", "[1] sleeper interrupted", "[0] filler ran",
            "[1] waiter after its block holds the lock: false", "[0] after join: TERMINATED TERMINATED TERMINATED")) {
            assertTrue(o.contains(line), line + " missing:\n" + o);
        }
    }

    @Test
    void aDeadlockAcrossNodesGivesAThreadDumpOnTimeout() throws Exception {
        Path classes = compile();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--timeout", "12s",
            "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp", classes.toString(), "svit.Deadlock"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(124, exit, o + e);
        assertTrue(e.contains("cumulus: timed out after 12s; asking node 0 for a thread dump of every node"), e);
        assertTrue(o.contains("[0] === Cumulus single-VM thread dump (2 nodes) ==="), o);
        assertTrue(o.contains("[0] === end of Cumulus single-VM thread dump ==="), o);
        assertTrue(o.contains("[0]   \"mover-ab\" "), o);
        assertTrue(o.contains("[0]   \"mover-ba\" "), o);
        assertTrue(o.contains("[0]   \"main\" "), o);
        Matcher m = Pattern.compile("\\[0\\]     holds monitor svit\\.Deadlock\\$Account#\\d+@node0 \\(home node 0\\)")
            .matcher(o);
        assertTrue(m.find(), o);
        assertTrue(o.contains("[0] Deadlock across nodes:"), o);
        assertTrue(Pattern.compile("\\[0\\]   \"mover-(ab|ba)\" on node \\d waits for monitor svit\\.Deadlock\\$Account"
            + "#\\d+@node0 \\(home node 0\\), held by \"mover-(ab|ba)\" on node \\d").matcher(o).find(), o);
        assertTrue(!o.contains("no deadlock"), o);
        assertFalse((o + e).contains("\tat "), "the nodes stopped at the timeout print no stack trace:\n" + o + e);
    }

    /**
     * Node 0 ended by a signal (SIGTERM, as the launcher stops nodes one after the other at a timeout or on Ctrl-C)
     * while node 1 waits for the run's end: node 1 says in one line that it stops because node 0 left, with no stack
     * trace, and the run ends with node 0's code.
     */
    @Test
    void aNodeWhoseNodeZeroLeavesStopsWithOneLine() throws Exception {
        Path classes = compile();
        dev.cumulus.cli.CapturedOutput out = new dev.cumulus.cli.CapturedOutput();
        dev.cumulus.cli.CapturedOutput err = new dev.cumulus.cli.CapturedOutput();
        int[] exit = {-1};
        Thread run = Thread.ofPlatform().start(() -> exit[0] = CumulusCli.execute(new String[] {"run", "--single-vm",
            "--nodes", "2", "--timeout", "60s", "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp",
            classes.toString(), "svit.Deadlock"}, out.stream(), err.stream()));
        out.awaitContains(java.time.Duration.ofSeconds(60), "[0] started both movers");
        ProcessHandle node0 = ProcessHandle.current().descendants()
            .filter(p -> p.info().arguments().map(a -> List.of(a).contains("-Dcumulus.node.id=0")).orElse(false))
            .findFirst().orElseThrow(() -> new AssertionError("no node 0 process"));
        assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(node0.pid())).start().waitFor());
        run.join();
        String all = out.text() + err.text();
        assertEquals(143, exit[0], all);
        assertTrue(all.contains("[1] cumulus: node 1 stops: node 0 has left the cluster"), all);
        assertFalse(all.contains("\tat "), all);
        assertFalse(all.contains("Exception in thread"), all);
    }


    /** Ctrl-\\ (SIGQUIT, here sent to node 0 alone) gives the JVM's dump and, after it, the cluster's. */
    @Test
    void sigquitToNodeZeroGivesTheClusterThreadDump() throws Exception {
        Path classes = compile();
        dev.cumulus.cli.CapturedOutput out = new dev.cumulus.cli.CapturedOutput();
        dev.cumulus.cli.CapturedOutput err = new dev.cumulus.cli.CapturedOutput();
        int[] exit = {-1};
        Thread run = Thread.ofPlatform().start(() -> exit[0] = CumulusCli.execute(new String[] {"run", "--single-vm",
            "--nodes", "2", "--timeout", "40s", "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp",
            classes.toString(), "svit.Deadlock"}, out.stream(), err.stream()));
        out.awaitContains(java.time.Duration.ofSeconds(60), "[0] started both movers");
        ProcessHandle node0 = ProcessHandle.current().descendants()
            .filter(p -> p.info().arguments().map(a -> List.of(a).contains("-Dcumulus.node.id=0")).orElse(false))
            .findFirst().orElseThrow(() -> new AssertionError("no node 0 process"));
        assertEquals(0, new ProcessBuilder("kill", "-QUIT", Long.toString(node0.pid())).start().waitFor());
        out.awaitContains(java.time.Duration.ofSeconds(60), "[0] Full thread dump ",
            "[0] === end of Cumulus single-VM thread dump ===", "[0] Deadlock across nodes:");
        run.join();
        assertEquals(124, exit[0], out.text() + err.text());
    }

    /**
     * A node killed mid-run ({@code kill -9} of node 1's process while threads on both nodes hand a value back and
     * forth): node 0 stops too (the launcher stops it, or it stops on its own as it finds node 1 gone, whichever comes
     * first), {@code cumulus run} ends with the killed node's exit code and a message that names it, and nothing is
     * left behind (no process, no media driver directory).
     */
    @Test
    void aNodeKilledMidRunEndsTheRunOnEveryNodeNamingIt() throws Exception {
        Path classes = compile();
        dev.cumulus.cli.CapturedOutput out = new dev.cumulus.cli.CapturedOutput();
        dev.cumulus.cli.CapturedOutput err = new dev.cumulus.cli.CapturedOutput();
        int[] exit = {-1};
        Thread run = Thread.ofPlatform().start(() -> exit[0] = CumulusCli.execute(new String[] {"run", "--single-vm",
            "--nodes", "2", "--timeout", "120s", "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp",
            classes.toString(), "svit.Endless"}, out.stream(), err.stream()));
        out.awaitContains(java.time.Duration.ofSeconds(60), "[0] passer-0 passes", "[1] passer-1 passes");
        ProcessHandle node1 = nodeProcess(1);
        String driverDir = node1.info().arguments().stream().flatMap(java.util.Arrays::stream)
            .filter(a -> a.startsWith("-Dcumulus.aeron.dir=")).map(a -> a.substring("-Dcumulus.aeron.dir=".length()))
            .findFirst().orElseThrow(() -> new AssertionError("node 1 was started with no media driver directory"));
        assertTrue(node1.destroyForcibly(), "SIGKILL to node 1");
        run.join(java.time.Duration.ofSeconds(100));
        assertTrue(!run.isAlive(), "cumulus run still runs after node 1 was killed:\n" + out.text() + err.text());
        String all = out.text() + err.text();
        assertEquals(137, exit[0], "the killed node's exit code (128 + SIGKILL) is the run's:\n" + all);
        assertTrue(all.contains("cumulus: node 1 exited with code 137"), "the launcher names node 1:\n" + all);
        assertTrue(all.contains("cumulus: stopping nodes 0") || all.contains("[0] cumulus: node 0 stops: node 1's "
            + "process"), "node 0 stops, by the launcher or on its own naming node 1:\n" + all);
        assertTrue(!Files.exists(Path.of(driverDir)), "the media driver directory is left: " + driverDir);
    }

    private static ProcessHandle nodeProcess(int node) {
        return ProcessHandle.current().descendants()
            .filter(p -> p.info().arguments().map(a -> List.of(a).contains("-Dcumulus.node.id=" + node)).orElse(false))
            .findFirst().orElseThrow(() -> new AssertionError("no node " + node + " process"));
    }

    /** Hyperion's map colouring (examples module), unchanged, on two nodes: the sequential search's optimum. */
    @Test
    void mapColouringOnTwoNodesFindsTheSequentialOptimum() throws Exception {
        String classes = Path.of(dev.cumulus.examples.colouring.MapColouring.class.getProtectionDomain()
            .getCodeSource().getLocation().toURI()).toString();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--timeout", "150s",
            "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp", classes,
            "dev.cumulus.examples.colouring.MapColouring", "8"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
        assertTrue(o.contains("[0] best cost 95 (sequential search: 95) with 8 threads"), o);
    }

    /**
     * A 4,000,000-element array made on node 0 and touched at three elements by a thread on node 1 (svit.BigArray):
     * the results are right, and node 1's fetches (from its --profile recording) moved a few blocks, not the array.
     */
    @Test
    void aLargeArrayTouchedSparselyOnAnotherNodeMovesItsBlocksNotTheArray() throws Exception {
        Path classes = compile();
        Path run = tmp.resolve("run");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--timeout", "150s",
            "--no-check", "--profile", "--run-dir", run.toString(), "-cp", classes.toString(),
            "svit.BigArray"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
        assertTrue(o.contains("[0] big: seen=49 written=49"), o);
        assertTrue(o.matches("(?s).*single-VM heap: fetches and write-backs per field.*\n  \\[J\\s+\\[\\]\\s+[1-9].*"),
            "the profile shows the array's block fetches: " + o);
        long fetched = 0;
        int fetches = 0;
        for (jdk.jfr.consumer.RecordedEvent e : jdk.jfr.consumer.RecordingFile.readAllEvents(
                run.resolve(RunDirectory.jfrFileName(1)))) {
            if (e.getEventType().getName().equals("dev.cumulus.RemoteCall") && e.getString("method").startsWith("fetch")) {
                fetched += e.getLong("replyBytes");
                fetches++;
            }
        }
        assertTrue(fetches >= 2, "node 1 fetched the object and the blocks it read: " + fetches);
        assertTrue(fetched < 200_000, "node 1 fetched " + fetched + " bytes in " + fetches + " fetches; the array "
            + "alone is 32 MB, its blocks 8 KB each");
    }

    /**
     * {@code cumulus profile --json} of a profiled two-node run (svit.Threads: a wait/notify slot and statics under a
     * monitor, used from both nodes) carries the shared heap per class and field, equal to what the run's two JFR files
     * hold when read without the profiler: fetches and entries per field, write-backs per field, remote lock waits per
     * class, the largest invalidation counter per node.
     */
    @Test
    void aProfiledRunsJsonReportHasItsRecordingsHeapFiguresPerField() throws Exception {
        Path classes = compile();
        Path run = tmp.resolve("run");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--timeout", "150s",
            "--no-check", "--profile", "--run-dir", run.toString(), "-cp", classes.toString(), "svit.Threads", "2",
            "100"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        assertEquals(0, CumulusCli.execute(new String[] {"profile", "--json", "--no-html", run.toString()},
            new PrintStream(json, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)),
            err.toString(StandardCharsets.UTF_8));
        ProfileReport.SingleVm heap = ((ProfileReport) ProfileGson.read(json.toString(StandardCharsets.UTF_8).strip()))
            .singleVm();

        Map<String, List<Long>> fields = new TreeMap<>();
        Map<String, Long> locks = new TreeMap<>();
        Map<Integer, Long> invalidations = new TreeMap<>();
        for (int node = 0; node < 2; node++) {
            for (RecordedEvent e : RecordingFile.readAllEvents(run.resolve(RunDirectory.jfrFileName(node)))) {
                switch (e.getEventType().getName()) {
                    case "dev.cumulus.SingleVmFetch" -> add(fields, e.getString("className") + " "
                        + e.getString("field"), 1, e.getInt("entries"), 0);
                    case "dev.cumulus.SingleVmWriteBack" -> {
                        for (String f : e.getString("fields").split(",")) {
                            add(fields, e.getString("className") + " " + f, 0, 0, 1);
                        }
                    }
                    case "dev.cumulus.SingleVmLockWait" -> locks.merge(e.getString("className"), 1L, Long::sum);
                    case "dev.cumulus.SingleVmInvalidations" -> invalidations.merge(e.getInt("node"),
                        e.getLong("invalidations"), Math::max);
                    default -> { }
                }
            }
        }
        assertTrue(fields.getOrDefault("svit.Slot full", List.of(0L, 0L, 0L)).get(0) > 0
            && fields.get("svit.Slot full").get(2) > 0, "the slot's flag moves both ways between the nodes: " + fields);

        Map<String, List<Long>> reported = new TreeMap<>();
        heap.fields().forEach(f -> reported.put(f.className() + " " + f.field(),
            List.of(f.fetches(), f.fetchedEntries(), f.writeBacks())));
        assertEquals(fields, reported, "fetches, entries and write-backs per class and field");
        Map<String, Long> reportedLocks = new TreeMap<>();
        heap.locks().forEach(l -> reportedLocks.put(l.className(), l.waits()));
        assertEquals(locks, reportedLocks, "remote lock waits per class");
        Map<Integer, Long> reportedInvalidations = new TreeMap<>();
        heap.invalidations().forEach(i -> reportedInvalidations.put(i.node(), i.invalidations()));
        assertEquals(invalidations, reportedInvalidations, "invalidations per node");
        ProfileReport.HeapField full = heap.fields().stream().filter(f -> f.className().equals("svit.Slot")
            && f.field().equals("full")).findFirst().orElseThrow();
        assertEquals(List.of(0), full.homes(), "main made the slot on node 0: " + full);
        assertTrue(full.nodes().contains(1), "node 1's thread fetched and wrote the flag back: " + full);
    }

    private static void add(Map<String, List<Long>> to, String key, long fetches, long entries, long writeBacks) {
        List<Long> was = to.getOrDefault(key, List.of(0L, 0L, 0L));
        to.put(key, List.of(was.get(0) + fetches, was.get(1) + entries, was.get(2) + writeBacks));
    }

    /** The Jacobi relaxation (examples module), unchanged, on two nodes: bit for bit the sequential result. */
    @Test
    void jacobiOnTwoNodesEqualsTheSequentialRelaxation() throws Exception {
        String classes = Path.of(dev.cumulus.examples.jacobi.Jacobi.class.getProtectionDomain()
            .getCodeSource().getLocation().toURI()).toString();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--timeout", "150s",
            "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp", classes,
            "dev.cumulus.examples.jacobi.Jacobi", "48", "20", "4"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
        assertTrue(o.contains("[0] jacobi 48x48, 20 sweeps, 4 threads: checksum "), o);
        assertTrue(o.contains("(equal to the sequential relaxation)"), o);
    }

    private Path compile() throws IOException {
        return compile(tmp);
    }

    /** Compiles src/test/singlevm with javac into {@code tmp/classes}. */
    static Path compile(Path tmp) throws IOException {
        Path classes = tmp.resolve("classes");
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-classpath",
            System.getProperty("java.class.path")));
        try (Stream<Path> s = Files.walk(SOURCES)) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> args.add(p.toString()));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        assertEquals(0, javac.run(null, e, e, args.toArray(String[]::new)), e.toString(StandardCharsets.UTF_8));
        return classes;
    }
}
