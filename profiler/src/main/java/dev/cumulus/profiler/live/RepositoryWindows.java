package dev.cumulus.profiler.live;

import jdk.jfr.consumer.EventStream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The launcher side of live profiling: one node's one-second windows, read from that node's JFR disk repository by
 * the launcher's process, so the node spends none of its own CPU on the live profile (it only records, as under the
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
    private final Runnable onReaderThread;
    private final Thread thread;
    private StreamWindows windows;
    private boolean closed;

    private RepositoryWindows(int node, Path root, Consumer<String> output, Runnable onReaderThread) {
        this.node = node;
        this.onReaderThread = onReaderThread;
        this.root = root;
        this.output = output;
        this.thread = new Thread(this::awaitRepository, "cumulus-live-node-" + node);
        this.thread.setDaemon(true);
    }

    /**
     * Starts reading node {@code node}'s repository under {@code root} (the value of its
     * {@code -XX:FlightRecorderOptions:repository}) once its JVM has made it. {@code onReaderThread} runs first on each
     * of its threads: the launcher lowers their scheduling priority there, so on a host whose cores the nodes keep busy
     * the reading waits for them rather than they for it.
     */
    public static RepositoryWindows start(int node, Path root, Consumer<String> output, Runnable onReaderThread) {
        RepositoryWindows r = new RepositoryWindows(node, root, output, onReaderThread);
        r.thread.start();
        return r;
    }

    private void awaitRepository() {
        try {
            onReaderThread.run();
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
                windows = new StreamWindows(node, stream, output, "cumulus-live-node-" + node + "-stream",
                    onReaderThread);
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
            w.close();
        }
    }
}
