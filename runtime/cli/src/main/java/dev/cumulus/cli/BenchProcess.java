package dev.cumulus.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the benchmark orchestrator ({@value #MAIN}) in a JVM of its own, on the classpath {@code ./build} makes for the
 * bench module in the checkout this CLI runs from: {@code bench/target/cumulus-bench.jar} and {@code bench/target/lib}.
 * Its output is copied to the CLI's streams; its stdin is the CLI's; the CLI's exit (Ctrl-C) stops it, and its own
 * shutdown hook then stops its processes.
 */
final class BenchProcess {
    static final String MAIN = "dev.cumulus.bench.BenchMain";
    private static final long STOP_WAIT_MS = 10_000;

    /** The bench module is not built (or this CLI does not run from a checkout); the message says what to do. */
    static final class NotBuiltException extends Exception {
        private static final long serialVersionUID = 1L;

        NotBuiltException(String message) {
            super(message);
        }
    }

    private BenchProcess() {
    }

    /** Runs the orchestrator with {@code args}; returns its exit code. */
    static int run(List<String> args, PrintStream out, PrintStream err)
        throws NotBuiltException, IOException, InterruptedException {
        Path target = benchTarget();
        Path jar = target.resolve("cumulus-bench.jar");
        Path lib = target.resolve("lib");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            throw new NotBuiltException("the benchmarks are not built (" + (Files.isRegularFile(jar) ? lib : jar)
                + " is missing); run ./build, which builds them, then try again");
        }
        List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED",
            "-cp", jar + File.pathSeparator + lib.resolve("*"),
            MAIN));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT).start();
        Thread stopOnExit = new Thread(() -> stop(process), "cumulus-bench-stop");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        Thread copyOut = copy(process.getInputStream(), out, "cumulus-bench-out");
        Thread copyErr = copy(process.getErrorStream(), err, "cumulus-bench-err");
        try {
            int code = process.waitFor();
            copyOut.join();
            copyErr.join();
            return code;
        } finally {
            stop(process);
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnExit);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs anyway
            }
        }
    }

    /** {@code bench/target} of the checkout that holds this CLI (its jar or class folder lies under it). */
    static Path benchTarget() throws NotBuiltException {
        Path here;
        try {
            here = Path.of(BenchProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new NotBuiltException("cannot tell where this CLI runs from (" + e + "); run ./cumulus bench from a "
                + "Cumulus checkout");
        }
        for (Path d = here.toAbsolutePath().getParent(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("bench").resolve("pom.xml"))) {
                return d.resolve("bench").resolve("target");
            }
        }
        throw new NotBuiltException("no Cumulus checkout with a bench/ module holds this CLI (" + here + "); run "
            + "./cumulus bench from a checkout");
    }

    private static void stop(Process process) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_WAIT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static Thread copy(InputStream from, PrintStream to, String name) {
        return Thread.ofPlatform().daemon().name(name).start(() -> {
            byte[] buffer = new byte[8192];
            try (from) {
                for (int n; (n = from.read(buffer)) >= 0; ) {
                    to.write(buffer, 0, n);
                    to.flush();
                }
            } catch (IOException e) {
                // the process ended: nothing more to copy
            }
        });
    }
}
