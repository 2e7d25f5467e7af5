package dev.cumulus.bench.profile;

import dev.cumulus.CumulusException;

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
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One {@code cumulus run} of the checkout this bench was built in, as a user starts it: the command line's JVM
 * ({@code runtime/cli/target/cumulus-cli.jar}) launching the program's node processes, with the options of a
 * {@link ProfileMode}. Its run directory (and the JDK's recording files of {@link ProfileMode#JFR}) live in a
 * directory of their own under the temp directory, deleted when the run ends, however it ends; a run that outlives
 * its timeout, or the orchestrator's shutdown, is stopped (SIGTERM, which makes the launcher stop its nodes; SIGKILL
 * after a grace).
 */
final class LauncherRun {
    /** Prefix of the directory each run of this orchestrator gets in the temp directory (its pid tells it apart). */
    static final String DIRECTORY_PREFIX = "cumulus-bench-profile-" + ProcessHandle.current().pid() + "-";
    private static final Duration GRACE = Duration.ofSeconds(10);
    private static final int TAIL_LINES = 40;

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
    static LauncherRun ofThisCheckout() {
        Path here;
        try {
            here = Path.of(LauncherRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new CumulusException("cannot tell which checkout the bench runs from (" + e + "); run it with "
                + "./cumulus bench profile from a Cumulus checkout");
        }
        Path checkout = here.toAbsolutePath().getParent().getParent().getParent(); // .../bench/target/<jar|classes>
        LauncherRun run = new LauncherRun(checkout);
        for (Path needed : List.of(run.cliJar(), run.cliLib(), run.examples(), here)) {
            if (!Files.exists(needed)) {
                throw new CumulusException("the profile suite runs 'cumulus run' of this checkout, and " + needed
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

    /** The examples' classes (the replicated TSP). */
    Path examples() {
        return checkout.resolve("examples/target/classes");
    }

    /** This bench's own classes (the read-path program). */
    static Path benchClasses() {
        try {
            return Path.of(LauncherRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new CumulusException("cannot locate the bench's classes: " + e.getMessage(), e);
        }
    }

    /** What one run printed: node output lines as the launcher prefixes them ({@code [0] ...}). */
    record Output(List<String> stdout, String tail) {
        /** The rest of node {@code node}'s first line that starts with {@code prefix}, or null. */
        String nodeLine(int node, String prefix) {
            String p = "[" + node + "] " + prefix;
            return stdout.stream().filter(l -> l.startsWith(p)).map(l -> l.substring(p.length())).findFirst()
                .orElse(null);
        }
    }

    /**
     * Runs {@code cumulus run --nodes NODES <mode's options> -cp CLASSPATH MAIN ARGS} and waits for it.
     *
     * @throws CumulusException when it fails, or outlives {@code timeout} (the message carries its last output)
     */
    Output run(ProfileMode mode, int nodes, Path classpath, String main, List<String> args, Duration timeout) {
        Path dir;
        try {
            dir = Files.createTempDirectory(DIRECTORY_PREFIX);
        } catch (IOException e) {
            throw new CumulusException("cannot create a run directory in " + System.getProperty("java.io.tmpdir")
                + ": " + e.getMessage(), e);
        }
        List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
            "-cp", cliJar() + File.pathSeparator + cliLib().resolve("*"),
            "dev.cumulus.cli.CumulusCli", "run", "--nodes", String.valueOf(nodes),
            "--timeout", timeout.toSeconds() + "s", "--run-dir", dir.resolve("run").toString()));
        command.addAll(mode.launcherOptions(dir));
        command.addAll(List.of("-cp", classpath.toString(), main));
        command.addAll(args);
        Process process = null;
        Thread stopOnExit = null;
        try {
            process = new ProcessBuilder(command).start();
            Process p = process;
            Path scratch = dir;
            stopOnExit = new Thread(() -> { // Ctrl-C or SIGTERM of the orchestrator: the finally below never runs
                stop(p);
                deleteRecursively(scratch);
            }, "bench-profile-stop");
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
                throw new CumulusException("cumulus run " + mode.label() + " of " + main + " did not end within "
                    + timeout.toSeconds() + " s; its last output:\n" + lastLines);
            }
            if (process.exitValue() != 0) {
                throw new CumulusException("cumulus run " + mode.label() + " of " + main + " exited with code "
                    + process.exitValue() + "; its last output:\n" + lastLines);
            }
            synchronized (stdout) {
                return new Output(List.copyOf(stdout), lastLines);
            }
        } catch (IOException e) {
            throw new CumulusException("cannot start cumulus run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while cumulus run " + mode.label() + " ran", e);
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
        Thread t = Thread.ofPlatform().daemon().name("bench-profile-pump").start(() -> {
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
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // reported below if the directory stays
                }
            });
        } catch (IOException e) {
            // reported below
        }
        if (Files.exists(dir)) {
            System.err.println("cumulus bench: could not delete " + dir + "; remove it by hand");
        }
    }
}
