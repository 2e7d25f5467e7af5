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

    private static LiveProfiler started;

    private final InetSocketAddress sink;
    private final LiveLineTag tag;
    private final DatagramSocket socket;
    private final StreamWindows windows;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();

    private LiveProfiler(int node, InetSocketAddress sink, byte[] key, EventStream stream) throws IOException {
        this.sink = sink;
        this.tag = new LiveLineTag(key);
        this.socket = new DatagramSocket();
        this.windows = new StreamWindows(node, stream, this::send, "cumulus-live-profiler");
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
        p.windows.start();
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

    private void send(String json) {
        byte[] line = tag.seal(json.getBytes(StandardCharsets.UTF_8));
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
        windows.close();
        socket.close();
    }
}
