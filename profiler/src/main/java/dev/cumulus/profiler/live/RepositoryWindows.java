package dev.cumulus.profiler.live;

import jdk.jfr.consumer.EventStream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The reading side of live profiling: one node's one-second windows, read from that node's JFR disk repository by
 * another process ({@link RepositoryReaderMain}), so the node spends none of its own CPU on the live profile (it only records, as under the
 * JDK's own {@code -XX:StartFlightRecording}). The node is started with
 * {@code -XX:FlightRecorderOptions:repository=ROOT}; its JVM makes one directory of chunk files under {@code ROOT},
 * which this reader waits for and then streams ({@link EventStream#openRepository(Path)}), aggregating as
 * {@link StreamWindows} does and handing each window's JSON line to its output.
 *
 * <p>Threads: one daemon thread per node waits for the repository, then reads it; the output is called on it, and on
 * the thread that calls {@link #close()} for the last window. Never: writes into the repository, or fails the run (a
 * repository that never appears or cannot be read leaves that node's live profile empty; the report after the run
 * comes from the node's recording file either way).
 */
public final class RepositoryWindows implements AutoCloseable {
    private static final long WAIT_POLL_MS = 20;

    private final int node;
    private final Path root;
    private final Consumer<String> output;
    private final Thread thread;
    private final long startMs = System.currentTimeMillis();
    private StreamWindows windows;
    private boolean closed;

    private RepositoryWindows(int node, Path root, Consumer<String> output) {
        this.node = node;
        this.root = root;
        this.output = output;
        this.thread = new Thread(this::awaitRepository, "cumulus-live-node-" + node);
        this.thread.setDaemon(true);
    }

    /**
     * Starts reading node {@code node}'s repository under {@code root} (the value of its
     * {@code -XX:FlightRecorderOptions:repository}) once its JVM has made it.
     */
    public static RepositoryWindows start(int node, Path root, Consumer<String> output) {
        RepositoryWindows r = new RepositoryWindows(node, root, output);
        r.thread.start();
        return r;
    }

    private void awaitRepository() {
        try {
            Path chunks;
            while ((chunks = chunkDirectory(root).orElse(null)) == null) {
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    wait(WAIT_POLL_MS);
                }
            }
            EventStream stream = EventStream.openRepository(chunks);
            synchronized (this) {
                if (closed) {
                    stream.close();
                    return;
                }
                windows = new StreamWindows(node, stream, output, "cumulus-live-node-" + node + "-stream");
                windows.start();
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("cumulus: no live profile of node " + node + " (cannot read its recording in " + root
                + ": " + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The JVM's directory of chunk files under {@code root}, once it holds a chunk. */
    static Optional<Path> chunkDirectory(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : dirs.filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.list(d)) {
                    if (files.anyMatch(f -> f.getFileName().toString().endsWith(".jfr"))) {
                        return Optional.of(d);
                    }
                }
            }
        } catch (IOException e) {
            return Optional.empty(); // the JVM is making or removing it: look again
        }
        return Optional.empty();
    }

    /** Stops reading and hands on the last window, if the repository was ever read. Idempotent. */
    @Override
    public void close() {
        close(null);
    }

    /**
     * Stops reading and hands on the last window, completed from the node's {@code recording} file (written at its
     * exit; may be null or missing) with what the reading had not reached: a reader that lags behind its node loses
     * nothing at the end. Idempotent.
     */
    public void close(Path recording) {
        StreamWindows w;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            notifyAll();
            w = windows;
        }
        if (w != null) {
            w.close(recording);
        } else if (recording != null && Files.isRegularFile(recording)) {
            WindowAggregator whole = new WindowAggregator(node, startMs);
            StreamWindows.catchUp(node, whole, recording, Instant.MIN);
            output.accept(whole.drain(System.currentTimeMillis()));
        }
    }
}
