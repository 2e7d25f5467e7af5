package dev.cumulus.cli.launch;

import dev.cumulus.profiler.live.RepositoryReaderMain;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The process that reads the live profile of a run's nodes on this host ({@link RepositoryReaderMain}): a JVM of its
 * own under {@code nice -n 19}, with only the quick JIT tier and a small serial heap. Reading JFR chunks and, above
 * all, compiling the reader cost a fraction of a core for the first seconds of a run; in the launcher's JVM that
 * fraction was taken from the nodes whenever they kept every core busy. At the lowest priority the reader runs on
 * what the program leaves idle, so a busy program is not slowed and its live view may lag instead.
 *
 * <p>Its first stdout line says its parser is ready ({@link RepositoryReaderMain#READY}; {@link #awaitReady}); the
 * others (one live window each) go to {@code lines} on a thread of this class; its stderr to the launcher's.
 * {@link #close()} ends its stdin once the nodes have ended, which makes it print every node's last window
 * (completed from the node's recording file with what a lagging reader had not reached) and exit.
 */
final class LiveReaderProcess implements AutoCloseable {
    /** How long {@link #close()} waits for the last windows before it stops the reader. */
    static final long CLOSE_WAIT_MS = 30_000;
    /** After this long {@link #close()} says what it waits for. */
    private static final long CLOSE_NOTICE_MS = 2_000;
    private static final Path NICE = Path.of("/usr/bin/nice");

    private final Process process;
    private final Thread pump;
    private final CountDownLatch ready;
    private final PrintStream err;

    private LiveReaderProcess(Process process, Thread pump, CountDownLatch ready, PrintStream err) {
        this.process = process;
        this.pump = pump;
        this.ready = ready;
        this.err = err;
    }

    /** A node to read: its repository root and the recording file it writes at its exit. */
    record Source(Path repository, Path recording) {
    }

    /** Starts reading the nodes {@code sources} (node id → where its live data is). */
    static LiveReaderProcess start(Map<Integer, Source> sources, Consumer<String> lines, PrintStream err)
        throws IOException {
        Process p = new ProcessBuilder(command(sources, Files.isExecutable(NICE)))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
        CountDownLatch ready = new CountDownLatch(1);
        Thread t = new Thread(() -> pump(p, ready, lines, err), "cumulus-live-reader");
        t.setDaemon(true);
        t.start();
        return new LiveReaderProcess(p, t, ready, err);
    }

    /**
     * Waits until the reader has readied its parser (or has ended), at most {@code timeoutMs}; false when it was not
     * ready in time (a busy machine: the reader runs at the lowest priority).
     */
    boolean awaitReady(long timeoutMs) throws InterruptedException {
        return ready.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** Whether the reader process still runs (it does until {@link #close()}, unless it failed). */
    boolean running() {
        return process.isAlive();
    }

    static List<String> command(Map<Integer, Source> sources, boolean nice) {
        List<String> cmd = new ArrayList<>();
        if (nice) {
            cmd.addAll(List.of(NICE.toString(), "-n", "19"));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m", "-Xss512k"));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), RepositoryReaderMain.class.getName()));
        sources.forEach((node, s) -> cmd.add(node + "=" + s.repository() + File.pathSeparator + s.recording()));
        return cmd;
    }

    private static void pump(Process p, CountDownLatch ready, Consumer<String> lines, PrintStream err) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals(RepositoryReaderMain.READY)) {
                    ready.countDown();
                } else {
                    lines.accept(line);
                }
            }
        } catch (IOException e) {
            err.println("cumulus: live profile reader stopped: " + e.getMessage());
        } finally {
            ready.countDown(); // an ended reader is not waited for
        }
    }

    /** Ends the reader: its last windows are handed on (waiting up to {@value #CLOSE_WAIT_MS} ms), then it is gone. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // it is gone already
        }
        try {
            if (!process.waitFor(CLOSE_NOTICE_MS, TimeUnit.MILLISECONDS)) {
                err.println("cumulus: waiting for the live profile's last windows (its reader runs at a low priority)…");
                if (!process.waitFor(CLOSE_WAIT_MS - CLOSE_NOTICE_MS, TimeUnit.MILLISECONDS)) {
                    err.println("cumulus: the live profile's reader did not finish; its last windows are left out "
                        + "(the report below has every event)");
                    process.destroyForcibly();
                }
            }
            pump.join(CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
