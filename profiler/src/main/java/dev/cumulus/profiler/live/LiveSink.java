package dev.cumulus.profiler.live;

import dev.cumulus.profiler.channel.LiveWindow;
import dev.cumulus.profiler.channel.ProfileGson;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * The launcher side of live profiling: a UDP socket (on loopback, or on the launcher's address on the hosts' network
 * when a run spans hosts, so every host's nodes reach it) that receives the nodes' one-second summaries, reads each
 * whose tag checks under the run's live profile key ({@link LiveLineTag}) as a {@link LiveWindow} (Gson), adds the
 * receive time ({@code recvMs}), appends it as one line to a JSON-lines file and hands it to a listener. Datagrams
 * without a valid tag (any other local process's) and lines that are not a window are ignored (counted in
 * {@link #rejected()}).
 *
 * <p>Threads: one daemon receive thread calls the listener; {@link #close()} drains what has arrived and stops it.
 */
public final class LiveSink implements AutoCloseable {
    private static final int MAX_DATAGRAM = 64 * 1024;
    private static final int POLL_MS = 200;

    private final DatagramSocket socket;
    private final BufferedWriter file;
    private final BiConsumer<String, LiveWindow> listener;
    private final LiveLineTag tag;
    private final Thread thread;
    private final Map<Integer, AtomicLong> perNode = new ConcurrentHashMap<>();
    private final AtomicLong rejected = new AtomicLong();
    private volatile boolean closing;

    private LiveSink(Path jsonl, byte[] key, InetAddress bind, BiConsumer<String, LiveWindow> listener)
        throws IOException {
        this.tag = new LiveLineTag(key);
        this.socket = new DatagramSocket(new InetSocketAddress(bind, 0));
        this.socket.setSoTimeout(POLL_MS);
        this.file = Files.newBufferedWriter(jsonl, StandardCharsets.UTF_8);
        this.listener = listener;
        this.thread = new Thread(this::receive, "cumulus-profile-sink");
        this.thread.setDaemon(true);
    }

    /**
     * Opens the sink on a free loopback port and starts receiving.
     *
     * @param jsonl    file every received line is appended to (created or truncated)
     * @param key      the run's live profile key: only datagrams tagged with it are read ({@link LiveLineTag})
     * @param listener called with each line (with {@code recvMs}) and its window, on the receive thread
     */
    public static LiveSink open(Path jsonl, byte[] key, BiConsumer<String, LiveWindow> listener) throws IOException {
        return open(jsonl, key, InetAddress.getLoopbackAddress(), listener);
    }

    /**
     * As {@link #open(Path, byte[], BiConsumer)}, on a free port of {@code bind}: the launcher's address on the hosts'
     * network, for a run whose nodes are on other hosts too. Datagrams from anywhere are read only when their tag
     * checks under the run's key.
     */
    public static LiveSink open(Path jsonl, byte[] key, InetAddress bind, BiConsumer<String, LiveWindow> listener)
        throws IOException {
        LiveSink sink = new LiveSink(jsonl, key, bind, listener);
        sink.thread.start();
        return sink;
    }

    /**
     * {@code ADDRESS:PORT} ({@code 127.0.0.1:PORT} on loopback, IPv6 in brackets), the nodes'
     * {@code -Dcumulus.profile.sink}.
     */
    public String address() {
        String host = socket.getLocalAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + socket.getLocalPort();
    }

    public int port() {
        return socket.getLocalPort();
    }

    /** Lines received from each node so far. */
    public Map<Integer, Long> received() {
        Map<Integer, Long> m = new TreeMap<>();
        perNode.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }

    public long rejected() {
        return rejected.get();
    }

    private void receive() {
        byte[] buf = new byte[MAX_DATAGRAM];
        DatagramPacket packet = new DatagramPacket(buf, buf.length);
        while (true) {
            try {
                packet.setLength(buf.length);
                socket.receive(packet);
            } catch (SocketTimeoutException e) {
                if (closing) {
                    return;
                }
                continue;
            } catch (IOException e) {
                return;
            }
            if (!tag.check(packet.getData(), packet.getOffset(), packet.getLength())) {
                rejected.incrementAndGet(); // not from a node of this run: never parsed
                continue;
            }
            String text = new String(packet.getData(), packet.getOffset() + LiveLineTag.TAG_LENGTH,
                packet.getLength() - LiveLineTag.TAG_LENGTH, StandardCharsets.UTF_8).strip();
            onLine(text, System.currentTimeMillis());
        }
    }

    /**
     * A window's JSON line from this process itself (a {@link RepositoryWindows} reading a node's recording): stamped,
     * written and handed on as a received one is, on the calling thread.
     */
    public void offer(String line) {
        onLine(line.strip(), System.currentTimeMillis());
    }

    private synchronized void onLine(String text, long recvMs) {
        LiveWindow window;
        try {
            if (text.indexOf('\n') >= 0 || !(ProfileGson.read(text) instanceof LiveWindow w)) {
                throw new IllegalArgumentException("not one live window");
            }
            window = w.received(recvMs);
        } catch (IllegalArgumentException e) {
            rejected.incrementAndGet();
            return;
        }
        String line = ProfileGson.write(window);
        int node = window.node();
        perNode.computeIfAbsent(node, k -> new AtomicLong()).incrementAndGet();
        try {
            file.write(line);
            file.newLine();
            file.flush();
        } catch (IOException e) {
            // the file is a record; the listener still gets the line
        }
        try {
            listener.accept(line, window);
        } catch (RuntimeException e) {
            // a broken listener must not stop the sink
        }
    }

    /** Receives what has already arrived (up to a short poll), then stops and closes the file. */
    @Override
    public void close() {
        closing = true;
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        socket.close();
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            file.close();
        } catch (IOException ignored) {
            // nothing more to write
        }
    }
}
