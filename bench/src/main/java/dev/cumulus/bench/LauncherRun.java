package dev.cumulus.bench;

import dev.cumulus.CumulusException;
import dev.cumulus.cli.launch.DriverDirectories;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One {@code cumulus run} of the checkout this bench was built in, as a user starts it: the command line's JVM
 * ({@code runtime/cli/target/cumulus-cli.jar}) launching the program's node processes, with the options a suite asks
 * for ({@link #run}); or the same program under plain {@code java} ({@link #plainJava}), the baseline of a suite that
 * compares the two. Its run directory (and any files the options put in the run's scratch directory, e.g. the
 * JDK's recording files) live in a directory of their own under the temp directory, deleted when the run ends,
 * however it ends; a run that outlives its timeout, or the orchestrator's shutdown, is stopped (SIGTERM, which makes
 * the launcher stop its nodes; SIGKILL to it and its descendants after a grace).
 */
public final class LauncherRun {
    /** Prefix of the directory each run of this orchestrator gets in the temp directory (its pid tells it apart). */
    public static final String DIRECTORY_PREFIX = "cumulus-bench-run-" + ProcessHandle.current().pid() + "-";
    private static final Duration GRACE = Duration.ofSeconds(10);
    private static final int TAIL_LINES = 40;
    /** The JIT flag {@code ./cumulus run} gives the launcher's JVM (the quick tier only; see the script). */
    static final String LAUNCHER_JIT = "-XX:TieredStopAtLevel=1";

    private final Path checkout;

    private LauncherRun(Path checkout) {
        this.checkout = checkout;
    }

    /**
     * The checkout that holds this class ({@code bench/target/cumulus-bench.jar} or {@code bench/target/classes}),
     * checked for the built command line and examples.
     *
     * @throws CumulusException when they are not built (the message says to run ./build)
     */
    public static LauncherRun ofThisCheckout() {
        Path here;
        try {
            here = Path.of(LauncherRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new CumulusException("cannot tell which checkout the bench runs from (" + e + "); run it with "
                + "./cumulus bench from a Cumulus checkout");
        }
        Path checkout = here.toAbsolutePath().getParent().getParent().getParent(); // .../bench/target/<jar|classes>
        LauncherRun run = new LauncherRun(checkout);
        for (Path needed : List.of(run.cliJar(), run.cliLib(), run.examples(), here)) {
            if (!Files.exists(needed)) {
                throw new CumulusException("this suite runs 'cumulus run' of this checkout, and " + needed
                    + " is missing; run ./build, which builds it, then try again");
            }
        }
        return run;
    }

    Path cliJar() {
        return checkout.resolve("runtime/cli/target/cumulus-cli.jar");
    }

    Path cliLib() {
        return checkout.resolve("runtime/cli/target/lib");
    }

    /** The examples' classes. */
    public Path examples() {
        return checkout.resolve("examples/target/classes");
    }

    /** This bench's own classes (the read-path program). */
    public static Path benchClasses() {
        try {
            return Path.of(LauncherRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new CumulusException("cannot locate the bench's classes: " + e.getMessage(), e);
        }
    }

    /**
     * What one run printed: node output lines as the launcher prefixes them ({@code [0] ...}); and the CPU its node
     * processes used ({@link NodeCpuWatch.NodeCpu#UNKNOWN} for plain {@code java}).
     */
    public record Output(List<String> stdout, String tail, NodeCpuWatch.NodeCpu cpu) {
        /** The rest of node {@code node}'s first line that starts with {@code prefix}, or null. */
        public String nodeLine(int node, String prefix) {
            String p = "[" + node + "] " + prefix;
            return stdout.stream().filter(l -> l.startsWith(p)).map(l -> l.substring(p.length())).findFirst()
                .orElse(null);
        }
    }

    /**
     * Runs {@code cumulus run --nodes NODES <options> -cp CLASSPATH MAIN ARGS} and waits for it; {@code options} are
     * made from the run's scratch directory (for files the run writes, deleted with it); {@code label} names the run
     * in messages.
     *
     * @throws CumulusException when it fails, or outlives {@code timeout} (the message carries its last output)
     */
    public Output run(String label, Function<Path, List<String>> options, int nodes, Path classpath, String main,
                      List<String> args, Duration timeout) {
        return launch(label, main, nodes, timeout, dir -> {
            List<String> command = new ArrayList<>(List.of(java(), LAUNCHER_JIT,
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                "-cp", cliJar() + File.pathSeparator + cliLib().resolve("*"),
                "dev.cumulus.cli.CumulusCli", "run", "--nodes", String.valueOf(nodes),
                "--timeout", timeout.toSeconds() + "s", "--run-dir", dir.resolve("run").toString()));
            command.addAll(options.apply(dir));
            command.addAll(List.of("-cp", classpath.toString(), main));
            command.addAll(args);
            return command;
        });
    }

    /**
     * Runs {@code java -XX:+UseSerialGC -cp CLASSPATH MAIN ARGS} (this JDK, the collector {@code cumulus run} gives its
     * nodes) and waits for it: the program without Cumulus. Its output lines carry no node prefix.
     *
     * @throws CumulusException when it fails, or outlives {@code timeout} (the message carries its last output)
     */
    public Output plainJava(Path classpath, String main, List<String> args, Duration timeout) {
        return launch("plain java", main, 0, timeout, dir -> {
            List<String> command = new ArrayList<>(List.of(java(), "-XX:+UseSerialGC", "-cp", classpath.toString(),
                main));
            command.addAll(args);
            return command;
        });
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs {@code commandIn}'s command; with {@code nodes} above 0 it is a launcher whose nodes' CPU is watched. */
    private Output launch(String label, String main, int nodes, Duration timeout,
                          Function<Path, List<String>> commandIn) {
        Path dir;
        try {
            dir = Files.createTempDirectory(DIRECTORY_PREFIX);
        } catch (IOException e) {
            throw new CumulusException("cannot create a run directory in " + System.getProperty("java.io.tmpdir")
                + ": " + e.getMessage(), e);
        }
        List<String> command = commandIn.apply(dir);
        Process process = null;
        Thread stopOnExit = null;
        try {
            process = new ProcessBuilder(command).start();
            NodeCpuWatch cpu = nodes > 0 ? NodeCpuWatch.start(process.toHandle(), main, nodes) : null;
            Process p = process;
            Path scratch = dir;
            stopOnExit = new Thread(() -> { // Ctrl-C or SIGTERM of the orchestrator: the finally below never runs
                stop(p);
                deleteRecursively(scratch);
            }, "bench-run-stop");
            Runtime.getRuntime().addShutdownHook(stopOnExit);
            List<String> stdout = new ArrayList<>();
            Deque<String> tail = new ArrayDeque<>();
            Thread out = pump(process.getInputStream(), stdout, tail, "");
            Thread err = pump(process.getErrorStream(), null, tail, "[stderr] ");
            boolean ended = process.waitFor(timeout.toMillis() + GRACE.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                stop(process);
            }
            out.join();
            err.join();
            String lastLines;
            synchronized (tail) {
                lastLines = tail.stream().map(l -> "  " + l).collect(Collectors.joining("\n"));
            }
            if (!ended) {
                throw new CumulusException(label + " of " + main + " did not end within "
                    + timeout.toSeconds() + " s; its last output:\n" + lastLines);
            }
            if (process.exitValue() != 0) {
                throw new CumulusException(label + " of " + main + " exited with code "
                    + process.exitValue() + "; its last output:\n" + lastLines);
            }
            NodeCpuWatch.NodeCpu used = cpu == null ? NodeCpuWatch.NodeCpu.UNKNOWN : cpu.finish();
            synchronized (stdout) {
                return new Output(List.copyOf(stdout), lastLines, used);
            }
        } catch (IOException e) {
            throw new CumulusException("cannot start " + label + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while " + label + " of " + main + " ran", e);
        } finally {
            if (process != null) {
                stop(process);
            }
            if (stopOnExit != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(stopOnExit);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down: the hook runs anyway
                }
            }
            deleteRecursively(dir);
        }
    }

    private static Thread pump(InputStream in, List<String> into, Deque<String> tail, String tag) {
        Thread t = Thread.ofPlatform().daemon().name("bench-run-pump").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (into != null) {
                        synchronized (into) {
                            into.add(line);
                        }
                    }
                    synchronized (tail) {
                        tail.addLast(tag + line);
                        while (tail.size() > TAIL_LINES) {
                            tail.removeFirst();
                        }
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        return t;
    }

    /** SIGTERM (the launcher then stops its nodes and cleans up), SIGKILL to it and its descendants after a grace. */
    private static void stop(Process process) {
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static void deleteRecursively(Path dir) {
        if (!DriverDirectories.deleteTree(dir)) {
            System.err.println("cumulus bench: could not delete " + dir + "; remove it by hand");
        }
    }
}
