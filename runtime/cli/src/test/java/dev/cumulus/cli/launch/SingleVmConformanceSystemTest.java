package dev.cumulus.cli.launch;

import dev.cumulus.cli.CumulusCli;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Conformance of {@code cumulus run --single-vm} with one JVM: the data-race-free programs of
 * src/test/singlevm/conform (class hierarchies, inner classes and lambdas, enums, records and sealed types, arrays of
 * every kind, records' generated methods and {@code Object.clone} on copies, JDK methods given array copies, strings
 * (interned as they arrive) and boxes, statics, exceptions with monitors, JDK and program exceptions read on another
 * node, the Thread API, JDK thread builders, a Thread subclass's fields, monitor corners, classes first used on
 * another node, shadowed and protected fields, volatile longs and doubles, bridge methods, classic concurrent programs,
 * objects and statics holding JDK objects that other nodes never read, and large shapes) print on 2, 3 and 4 real node
 * JVMs exactly what a plain JDK {@code java} child process prints; a mutable JDK object, a JDK-made lambda, an object
 * of a program class extending a JDK class with state, or a string too long for one message, read on another node
 * (documented limits), ends the run with a message that names it; a
 * program that calls {@code System.exit} on any node ends with its status, as one JVM does.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class SingleVmConformanceSystemTest {
    /** The cases run on four nodes as well (a few, to keep the test short). */
    static final List<String> FOUR_NODE_CASES = List.of("hierarchy", "arrays", "philosophers", "prefixsum", "table",
        "initlocks");

    /** Where the conformance programs are compiled, once for the whole class. */
    @TempDir
    static Path compiled;
    private static Path compiledClasses;

    @TempDir
    Path tmp;

    /** The conformance programs, compiled at the first call. */
    private static synchronized Path classes() throws IOException {
        if (compiledClasses == null) {
            compiledClasses = SingleVmSystemTest.compile(compiled);
        }
        return compiledClasses;
    }

    @AfterEach
    void nothingLeftBehind() throws Exception {
        ChildProcesses.noneLeftBehind();
    }

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {2, 3})
    void everyCasePrintsWhatOneJvmPrints(int nodes) throws Exception {
        Path classes = classes();
        assertSameAsOneJvm(classes, nodes, "conform.Conform", List.of());
    }

    @Test
    void someCasesOnFourNodesPrintWhatOneJvmPrints() throws Exception {
        Path classes = classes();
        assertSameAsOneJvm(classes, 4, "conform.Conform", FOUR_NODE_CASES);
    }

    /**
     * Large shapes (lists and trees of 100,000 objects published in one release or walked from another node, a striped
     * array of a million elements, a string of a million chars, 300 threads) print what one JVM prints; on 2 nodes
     * only, as they take seconds.
     */
    @Test
    void largeShapesOnTwoNodesPrintWhatOneJvmPrints() throws Exception {
        Path classes = classes();
        assertSameAsOneJvm(classes, 2, "conform.Conform", List.of("largeshapes"));
    }

    /**
     * An AtomicInteger in a shared field used by a thread on another node: a limit of the single-VM mode, which ends
     * the run. The launcher prints once what was wrong (the field, the JDK class, the node that made it and the node
     * that met it) and what to do, without a stack trace; main never prints its wrong count; the run exits 1, as a
     * program whose main threw, and no node is left.
     */
    @Test
    void aMutableJdkObjectReachedFromAnotherNodeFailsTheRun() throws Exception {
        String all = limitStop("conform.limits.SharedAtomic", "node 1: a limit of the single-VM mode: field "
            + "conform.limits.SharedAtomic$Counter.count of shared conform.limits.SharedAtomic$Counter #");
        assertTrue(all.contains("refers to a java.util.concurrent.atomic.AtomicInteger created on node 0, which node 1 "
            + "cannot use: mutable JDK objects cannot be shared between nodes in the single-VM mode (use it only on "
            + "the node that created it, or keep the data in the program's own classes or arrays)"), all);
        assertFalse(all.contains("count 0"), all);
    }

    /**
     * A Random in a static field of a class whose static array a thread on node 1 writes: node 1's copy of the statics
     * fills without an error, and only the thread's read of the Random stops the run, naming the static field.
     */
    @Test
    void aStaticMutableJdkObjectFailsTheRunOnlyWhenAnotherNodeReadsIt() throws Exception {
        String all = limitStop("conform.limits.StaticRandom", "node 1: a limit of the single-VM mode: field ");
        assertTrue(all.contains("the static fields of conform.limits.StaticRandom refers to a java.util.Random created "
            + "on node 0, which node 1 cannot use: mutable JDK objects cannot be shared between nodes"), all);
        assertFalse(all.contains("counts "), all);
    }

    /**
     * An Object[] of main's holding a string and a HashMap: a thread on node 1 reads the string, and only its read of
     * the map stops the run, naming the element.
     */
    @Test
    void aMutableJdkObjectInAnArrayFailsTheRunOnlyWhenAnotherNodeReadsThatElement() throws Exception {
        String all = limitStop("conform.limits.ForeignElement", "node 1: a limit of the single-VM mode: element 1 of "
            + "shared [Ljava.lang.Object; #");
        assertTrue(all.contains("refers to a java.util.HashMap created on node 0, which node 1 cannot use: mutable JDK "
            + "objects cannot be shared between nodes"), all);
        assertFalse(all.contains("seen "), all);
    }

    /**
     * A Comparator lambda made on node 0 and called on node 1: named as what it is (a lambda implementing
     * {@code java.util.Comparator}, made in the program's class), not by its hidden class, and the run fails.
     */
    @Test
    void aLambdaThatIsNotARunnableReachedFromAnotherNodeFailsTheRun() throws Exception {
        String all = limitStop("conform.limits.SharedLambda", "node 1: a limit of the single-VM mode: field "
            + "conform.limits.SharedLambda$Holder.order of shared conform.limits.SharedLambda$Holder #");
        assertTrue(all.contains("refers to a lambda or method reference implementing java.util.Comparator, made in "
            + "conform.limits.SharedLambda on node 0, which node 1 cannot use: only Runnable and Callable lambdas can "
            + "move between nodes in the single-VM mode (use a named class implementing java.util.Comparator "
            + "instead: it is shared like any program object)"), all);
        assertFalse(all.contains("$$Lambda"), all);
        assertFalse(all.contains("compare "), all);
    }

    /**
     * A program class extending ArrayList, filled on node 1 and read by main on node 0: a limit too; the run ends with
     * a message naming the field, the class, its JDK superclass, the node that made it and what to do instead.
     */
    @Test
    void aProgramClassExtendingAJdkClassWithStateFailsTheRun() throws Exception {
        String all = limitStop("conform.limits.ExtendsJdkClass", "node 0: a limit of the single-VM mode: field "
            + "conform.limits.ExtendsJdkClass$Holder.bag of shared conform.limits.ExtendsJdkClass$Holder");
        assertTrue(all.contains("refers to a conform.limits.ExtendsJdkClass$Bag created on node 1, a program class "
            + "extending java.util.ArrayList: the state of a JDK superclass cannot be shared between nodes in the "
            + "single-VM mode (keep the JDK object in a field of a program class used only on the node that created "
            + "it, or use the shared collections of dev.cumulus.SingleVm"), all);
    }

    /**
     * A string longer than one message of the shared heap carries, written on node 1 into main's object: a limit, named
     * where the string arrives (the field, its length, both nodes) instead of a release that fails half done.
     */
    @Test
    void aStringTooLongForOneMessageFailsTheRun() throws Exception {
        String all = limitStop("conform.limits.LongString", "node 0: a limit of the single-VM mode: field "
            + "conform.limits.LongString$Holder.text of conform.limits.LongString$Holder #");
        assertTrue(all.contains("refers to a string of 17,000,000 chars created on node 1, which node 0 cannot "
            + "receive: strings of more than 16,777,216 chars cannot move between nodes in the single-VM mode"), all);
        assertFalse(all.contains("length "), all);
    }

    /**
     * An object a static initializer made at node 0 before it failed, read by a thread on node 1: one JVM reads it, but
     * node 1 can make no object of the failed class; the run ends with a message naming the object and its class.
     */
    @Test
    void anObjectOfAClassWhoseInitializerFailedReachedFromAnotherNodeFailsTheRun() throws Exception {
        String all = limitStop("conform.limits.FailedInitObject", "node 1: a limit of the single-VM mode: node 1 "
            + "cannot make its copy of #");
        assertTrue(all.contains("a conform.limits.FailedInitObject$Fails, which its static initializer made before it "
            + "failed (java.lang.NoClassDefFoundError: Could not initialize class "
            + "conform.limits.FailedInitObject$Fails): the JVM makes no object of a class whose initialisation failed; "
            + "keep such objects from threads of other nodes, or let the initializer succeed"), all);
        assertTrue(all.contains("failed boom"), all);
        assertFalse(all.contains("kept "), all);
    }

    /**
     * {@code System.exit} in a thread on another node (main waiting in {@code join}, a thread in {@code wait()}),
     * {@code Runtime.exit} in main while two threads on other nodes are blocked on its monitor, and
     * {@code Runtime.halt} in a thread (with a program shutdown hook that must not run): on 3 nodes each run ends with
     * the status one JVM ends with and prints what one JVM prints, with no failure and no stack trace (the launcher's
     * only line is the run directory); the run directory says the program exited; no node is left. Also: a shutdown
     * hook on node 0 sees what the exiting thread on another node wrote; {@code System.exit} in the default
     * uncaught-exception handler that main's exception reaches; a negative status (255, as a process carries it); main
     * reading a field homed on the exiting node neither catches an error nor runs its {@code finally}.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"conform.exit.ExitFromThread", "conform.exit.ExitFromMain", "conform.exit.HaltFromThread",
        "conform.exit.ExitByReference", "conform.exit.HookSeesExitingWrite", "conform.exit.ExitFromUncaughtHandler",
        "conform.exit.ExitWithNegativeStatus", "conform.exit.ExitWhileMainReadsRemotely"})
    void anExitOnAnyNodeEndsEveryNodeWithTheProgramsStatus(String program) throws Exception {
        Path classes = classes();
        Run expected = plainJavaRun(classes, program, List.of());
        assertNotEquals(0, expected.exit(), expected.out());
        Run run = single(classes, 3, program, List.of());
        String all = run.out() + run.err();
        assertEquals(expected.exit(), run.exit(), all);
        assertEquals(expected.out(), withoutNodePrefixes(run.out()), all);
        assertEquals(List.of(), run.err().lines().filter(l -> !l.startsWith("cumulus: run ")).toList(), all);
        Properties result = new Properties();
        try (Reader r = Files.newBufferedReader(tmp.resolve("run-3").resolve("result.properties"))) {
            result.load(r);
        }
        assertEquals("PROGRAM_EXITED", result.getProperty("ending"), all);
        assertEquals(String.valueOf(expected.exit()), result.getProperty("exit.code"), all);
        ChildProcesses.noneLeftBehind();
    }

    /**
     * {@code Runtime.halt} under {@code --profile}: a halt runs no shutdown hook, so no recording would be dumped on
     * exit; every node saves its recording before it halts, and the profile reads both.
     */
    @Test
    void aHaltKeepsEveryNodesProfile() throws Exception {
        Path classes = classes();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", "2", "--profile", "--timeout",
            "100s", "--no-check", "--run-dir", tmp.resolve("run-halt").toString(), "-cp", classes.toString(),
            "conform.exit.HaltFromThread"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String all = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(6, exit, all);
        assertTrue(all.contains("2 recordings (node-0.jfr, node-1.jfr)"), all);
        assertFalse(all.contains("unreadable"), all);
        ChildProcesses.noneLeftBehind();
    }

    /**
     * Runs {@code program} on 2 nodes, which goes beyond a limit of the single-VM mode: the run exits 1, the launcher
     * says once where the failure began ({@code failure}, after "the failure began at "), no stack trace is printed,
     * and no node is left. Returns everything the run printed.
     */
    private String limitStop(String program, String failure) throws Exception {
        Path classes = classes();
        Run run = single(classes, 2, program, List.of());
        String all = run.out() + run.err();
        assertEquals(1, run.exit(), all);
        assertOnce(all, "cumulus: the failure began at " + failure);
        assertFalse(all.contains("\tat "), all);
        ChildProcesses.noneLeftBehind();
        return all;
    }

    private static void assertOnce(String text, String part) {
        int first = text.indexOf(part);
        assertTrue(first >= 0, "missing '" + part + "' in:\n" + text);
        assertEquals(-1, text.indexOf(part, first + 1), "more than once: '" + part + "' in:\n" + text);
    }

    private void assertSameAsOneJvm(Path classes, int nodes, String main, List<String> args) throws Exception {
        String expected = plainJava(classes, main, args);
        Run run = single(classes, nodes, main, args);
        assertEquals(0, run.exit(), run.out() + run.err());
        assertEquals(expected, withoutNodePrefixes(run.out()), "stderr:\n" + run.err());
    }

    /** What {@code java -cp classes main args} of this JDK prints (it must exit 0 within a minute). */
    private String plainJava(Path classes, String main, List<String> args) throws IOException, InterruptedException {
        Run run = plainJavaRun(classes, main, args);
        assertEquals(0, run.exit(), run.out());
        return run.out();
    }

    /** How {@code java -cp classes main args} of this JDK ends, and what it prints (it must end within a minute). */
    private Run plainJavaRun(Path classes, String main, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-cp", classes.toString(), main));
        command.addAll(args);
        Path out = tmp.resolve("plain.out");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "plain java did not end within 60 s");
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), "");
    }

    private record Run(int exit, String out, String err) {
    }

    private Run single(Path classes, int nodes, String main, List<String> args) {
        List<String> command = new ArrayList<>(List.of("run", "--single-vm", "--nodes", String.valueOf(nodes),
            "--timeout", "100s", "--no-check", "--run-dir", tmp.resolve("run-" + nodes).toString(), "-cp",
            classes.toString(), main));
        command.addAll(args);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(command.toArray(String[]::new), new PrintStream(out, true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The output with each line's {@code [n] } node prefix taken off. */
    static String withoutNodePrefixes(String out) {
        return out.replaceAll("(?m)^\\[\\d+\\] ", "");
    }
}
