package dev.cumulus.profiler.live;

import dev.cumulus.profiler.Events;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * One node's one-second windows from a JFR event stream: subscribes to the Cumulus events by name (with no catch-all
 * handler the parser skips the JDK's own events cheaply; Cumulus event types it does not know are subscribed to when
 * their metadata first appears), aggregates them ({@link WindowAggregator}) and hands each window's JSON line to its
 * output when the stream has read a flush at least {@link #MIN_WINDOW_MS} after the last window.
 *
 * <p>Threads: the stream's own thread (started by {@link #start}) aggregates and calls the output; {@link #close}
 * hands on the last window from the closing thread.
 */
final class StreamWindows implements AutoCloseable {
    /** A flush this soon after the last window does not end a window (flushes come about once a second). */
    static final long MIN_WINDOW_MS = 900;

    private final int node;
    private final EventStream stream;
    private final WindowAggregator window;
    private final Consumer<String> output;
    private final Set<String> subscribed = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private volatile long lastWindowMs;
    private volatile boolean closed;
    /** The end of the newest event the stream handed on (the stream's thread writes it; {@link #close} reads it). */
    private volatile Instant streamedUpTo = Instant.MIN;

    StreamWindows(int node, EventStream stream, Consumer<String> output, String threadName) {
        this.node = node;
        this.stream = stream;
        this.output = output;
        long now = System.currentTimeMillis();
        this.window = new WindowAggregator(node, now);
        this.lastWindowMs = now;
        stream.setReuse(true);
        stream.setOrdered(false);
        for (String name : Events.KNOWN) {
            subscribe(name);
        }
        stream.onMetadata(m -> m.getAddedEventTypes().forEach(t -> {
            if (t.getName().startsWith(Events.PREFIX)) {
                subscribe(t.getName());
            }
        }));
        stream.onFlush(this::onFlush);
        this.thread = new Thread(this::runStream, threadName);
        this.thread.setDaemon(true);
    }

    private void subscribe(String name) {
        if (subscribed.add(name)) {
            stream.onEvent(name, this::accept);
        }
    }

    private void accept(RecordedEvent e) {
        window.accept(e);
        if (e.getEndTime().isAfter(streamedUpTo)) {
            streamedUpTo = e.getEndTime();
        }
    }

    /** Starts reading the stream on a daemon thread of its own. */
    void start() {
        thread.start();
    }

    int node() {
        return node;
    }

    private void runStream() {
        try {
            stream.start();
        } catch (RuntimeException e) {
            if (!closed) {
                System.err.println("cumulus: live profile of node " + node + " stopped: " + e);
            }
        }
    }

    private void onFlush() {
        long now = System.currentTimeMillis();
        if (now - lastWindowMs >= MIN_WINDOW_MS) {
            emit(now);
        }
    }

    private void emit(long now) {
        lastWindowMs = now;
        output.accept(window.drain(now));
    }

    /** Stops reading and hands on the last window (what was read since the previous one). Idempotent. */
    @Override
    public void close() {
        close(null);
    }

    /**
     * Stops reading and hands on the last window: what was read since the previous one, and, when the node's
     * {@code recording} file (written at its exit) is given and exists, the Cumulus events in it that end after the
     * newest one the stream handed on — so a reader that lagged behind the node (it runs at a low priority) still
     * hands on everything in the last window. Idempotent.
     */
    void close(Path recording) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            stream.close();
        } catch (RuntimeException ignored) {
            // the stream may already be closed (JFR's own shutdown, a repository that is gone)
        }
        try {
            thread.join(CLOSE_JOIN_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (recording != null && !thread.isAlive()) {
            catchUp(node, window, recording, streamedUpTo);
        }
        emit(System.currentTimeMillis());
    }

    /** How long {@link #close(Path)} waits for the stream's thread to end before it hands on what it has. */
    static final long CLOSE_JOIN_MS = 5_000;

    /** Adds the Cumulus events of {@code recording} that end after {@code after} to {@code window}. */
    static void catchUp(int node, WindowAggregator window, Path recording, Instant after) {
        if (!Files.isRegularFile(recording)) {
            return;
        }
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (e.getEventType().getName().startsWith(Events.PREFIX) && e.getEndTime().isAfter(after)) {
                    window.accept(e);
                }
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("cumulus: the last live window of node " + node + " misses what "
                + recording.getFileName() + " holds after the stream (" + e.getMessage() + ")");
        }
    }
}
