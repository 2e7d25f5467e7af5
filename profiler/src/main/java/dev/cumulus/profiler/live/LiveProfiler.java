package dev.cumulus.profiler.live;

import dev.cumulus.profiler.Events;
import jdk.jfr.FlightRecorder;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordingStream;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The node side of live profiling: consumes this JVM's own JFR events in process, aggregates them over one-second
 * windows and sends each window as one JSON line (one UDP datagram) to the launcher's sink.
 *
 * <p>Started by the runtime when a launched node joins and {@code -Dcumulus.profile.sink=HOST:PORT} is set (the
 * runtime calls {@link #start(String, int)} reflectively, so it does not depend on this module). When the JVM is
 * already recording ({@code -XX:StartFlightRecording}, what {@code cumulus run --profile} does) it streams that
 * recording's repository ({@link EventStream#openRepository()}), adding no recording of its own; otherwise it starts a
 * {@link RecordingStream} with the Cumulus events it knows.
 *
 * <p>Windows end on the stream's flushes (about once a second, when the JDK writes its buffers), so a window's events
 * are what the JDK flushed, and the data lags the program by about a second. A send that fails is dropped (counted in
 * {@link #dropped()}); the program never waits for the profiler.
 */
public final class LiveProfiler implements AutoCloseable {
    /** The system property that names the launcher's sink ({@code 127.0.0.1:PORT}). */
    public static final String SINK_PROPERTY = "cumulus.profile.sink";
    /** A flush this soon after the last window does not end a window (flushes come about once a second). */
    static final long MIN_WINDOW_MS = 900;

    private static LiveProfiler started;

    private final int node;
    private final InetSocketAddress sink;
    private final LiveLineTag tag;
    private final DatagramSocket socket;
    private final WindowAggregator window;
    private final EventStream stream;
    private final Thread thread;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Set<String> subscribed = ConcurrentHashMap.newKeySet();
    private volatile long lastWindowMs;
    private volatile boolean closed;

    private LiveProfiler(int node, InetSocketAddress sink, byte[] key, EventStream stream) throws IOException {
        this.node = node;
        this.sink = sink;
        this.tag = new LiveLineTag(key);
        this.socket = new DatagramSocket();
        this.stream = stream;
        long now = System.currentTimeMillis();
        this.window = new WindowAggregator(node, now);
        this.lastWindowMs = now;
        stream.setReuse(true);
        stream.setOrdered(false);
        // Handlers by name only: with no catch-all handler the parser skips the JDK's own events cheaply. Cumulus
        // event types this class does not know are subscribed to when their metadata first appears.
        for (String name : Events.KNOWN) {
            subscribe(name);
        }
        stream.onMetadata(m -> m.getAddedEventTypes().forEach(t -> {
            if (t.getName().startsWith(Events.PREFIX)) {
                subscribe(t.getName());
            }
        }));
        stream.onFlush(this::onFlush);
        this.thread = new Thread(this::runStream, "cumulus-live-profiler");
        this.thread.setDaemon(true);
    }

    private void subscribe(String name) {
        if (subscribed.add(name)) {
            stream.onEvent(name, window::accept);
        }
    }

    /**
     * Starts live profiling of this JVM as node {@code node}, sending to {@code sinkAddress} ({@code host:port}) lines
     * tagged with {@code key} (the run's live profile key: {@link LiveLineTag}). Idempotent per JVM: a second call
     * returns the first profiler.
     *
     * @throws IllegalArgumentException when the address is not {@code host:port} or the key is missing
     * @throws IOException              when no socket can be opened
     */
    public static synchronized LiveProfiler start(String sinkAddress, int node, byte[] key) throws IOException {
        if (started != null) {
            return started;
        }
        InetSocketAddress sink = parse(sinkAddress);
        EventStream stream = openStream();
        LiveProfiler p = new LiveProfiler(node, sink, key, stream);
        p.thread.start();
        Runtime.getRuntime().addShutdownHook(new Thread(p::close, "cumulus-live-profiler-last"));
        started = p;
        return p;
    }

    /** {@code host:port} as an address. */
    static InetSocketAddress parse(String address) {
        int colon = address == null ? -1 : address.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("-D" + SINK_PROPERTY + "=" + address + " is not HOST:PORT");
        }
        try {
            int port = Integer.parseInt(address.substring(colon + 1).trim());
            if (port < 1 || port > 65535) {
                throw new NumberFormatException();
            }
            return new InetSocketAddress(address.substring(0, colon).trim(), port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + SINK_PROPERTY + "=" + address + " has no valid port");
        }
    }

    private static EventStream openStream() throws IOException {
        if (FlightRecorder.isAvailable() && FlightRecorder.isInitialized()
            && !FlightRecorder.getFlightRecorder().getRecordings().isEmpty()) {
            return EventStream.openRepository();
        }
        RecordingStream rs = new RecordingStream();
        for (String name : List.of(Events.REMOTE_CALL, Events.BROADCAST_WRITE, Events.SEQUENCER_MIGRATION,
            Events.NODE_LIFECYCLE, Events.PASTSET_OPERATION, "dev.cumulus.ArrayMiss",
            "dev.cumulus.ArrayInvalidation", "dev.cumulus.ArrayOwnership", "dev.cumulus.BarrierWait")) {
            rs.enable(name).withoutStackTrace().withThreshold(Duration.ZERO);
        }
        for (String name : List.of(Events.CLOUD_SUMMARY, Events.PASTSET_SUMMARY, "dev.cumulus.ArraySummary")) {
            rs.enable(name).withPeriod(Duration.ofSeconds(1));
        }
        return rs;
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
            send(now);
        }
    }

    private void send(long now) {
        lastWindowMs = now;
        byte[] line = tag.seal(window.drain(now).getBytes(StandardCharsets.UTF_8));
        try {
            socket.send(new DatagramPacket(line, line.length, sink));
            sent.incrementAndGet();
        } catch (IOException | RuntimeException e) {
            dropped.incrementAndGet();
        }
    }

    /** Windows sent so far. */
    public long sent() {
        return sent.get();
    }

    /** Windows that could not be sent. */
    public long dropped() {
        return dropped.get();
    }

    /** Sends the last window and stops streaming. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        send(System.currentTimeMillis());
        try {
            stream.close();
        } catch (RuntimeException ignored) {
            // the stream may already be closed by JFR's own shutdown
        }
        socket.close();
    }
}
