package dev.cumulus.internal.service;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client's {@link ClientIO}: the streams its objects opened on this machine, by handle, and its console, where the
 * objects' output is printed with a {@code [name@server N] } prefix on each line. Runs on the client's call threads
 * (servers' calls); a stream is used by one server thread at a time, as a stream is. Its streams close when the
 * client leaves.
 */
public final class ClientIOService implements ClientIO, AutoCloseable {
    /** How long a connection from the client's host may take to open. */
    static final int CONNECT_TIMEOUT_MS = 10_000;

    private final InputStream stdin;
    private final PrintStream out;
    private final PrintStream err;
    private final Map<Long, Open> open = new ConcurrentHashMap<>();
    private final AtomicLong nextHandle = new AtomicLong(1);
    /** The lines of each object and stream that have begun but not ended: their next text continues them. */
    private final Map<String, Boolean> midLine = new ConcurrentHashMap<>();
    /** The object whose line is open on standard output ({@code false}) and error ({@code true}), if any. */
    private final Map<Boolean, String> openLine = new ConcurrentHashMap<>();

    private record Open(InputStream in, OutputStream out, Closeable whole) {
    }

    /** @param stdin the client's standard input; {@code out}, {@code err} its console */
    public ClientIOService(InputStream stdin, PrintStream out, PrintStream err) {
        this.stdin = stdin;
        this.out = out;
        this.err = err;
    }

    @Override
    public long open(int kind, String target, int port) throws IOException {
        Open o = switch (kind) {
            case STDIN -> new Open(new NotClosing(stdin), null, () -> { });
            case READ_FILE -> {
                InputStream in = Files.newInputStream(path(target));
                yield new Open(in, null, in);
            }
            case WRITE_FILE, APPEND_FILE -> {
                OutputStream o2 = Files.newOutputStream(path(target), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, kind == APPEND_FILE ? StandardOpenOption.APPEND
                        : StandardOpenOption.TRUNCATE_EXISTING);
                yield new Open(null, o2, o2);
            }
            case SOCKET -> {
                if (target == null || target.isEmpty() || port < 1 || port > 65_535) {
                    throw new IOException("cannot connect to " + target + ":" + port + ": a host and a port 1..65535 "
                        + "are needed");
                }
                Socket s = new Socket();
                try {
                    s.connect(new InetSocketAddress(target, port), CONNECT_TIMEOUT_MS);
                    yield new Open(s.getInputStream(), s.getOutputStream(), s);
                } catch (IOException e) {
                    s.close();
                    throw new IOException("cannot connect to " + target + ":" + port + " from the client's host: "
                        + e.getMessage(), e);
                }
            }
            default -> throw new IOException("unknown kind of remote stream: " + kind);
        };
        long handle = nextHandle.getAndIncrement();
        open.put(handle, o);
        return handle;
    }

    private static Path path(String target) throws IOException {
        if (target == null || target.isEmpty()) {
            throw new FileNotFoundException("no path given");
        }
        try {
            return Path.of(target);
        } catch (RuntimeException e) {
            throw new IOException("not a path on the client's machine: " + target + " (" + e.getMessage() + ")");
        }
    }

    @Override
    public byte[] read(long handle, int max) throws IOException {
        InputStream in = stream(handle).in();
        if (in == null) {
            throw new IOException("remote stream " + handle + " is open for writing only");
        }
        byte[] buffer = new byte[Math.clamp(max, 1, MAX_CHUNK_BYTES)];
        int n = in.read(buffer);
        if (n < 0) {
            return null;
        }
        return n == buffer.length ? buffer : java.util.Arrays.copyOf(buffer, n);
    }

    @Override
    public void write(long handle, byte[] bytes) throws IOException {
        OutputStream o = stream(handle).out();
        if (o == null) {
            throw new IOException("remote stream " + handle + " is open for reading only");
        }
        if (bytes.length > MAX_CHUNK_BYTES) {
            throw new IOException("a remote write carries at most " + MAX_CHUNK_BYTES + " bytes, not " + bytes.length);
        }
        o.write(bytes);
    }

    @Override
    public void flush(long handle) throws IOException {
        OutputStream o = stream(handle).out();
        if (o != null) {
            o.flush();
        }
    }

    @Override
    public void close(long handle) throws IOException {
        Open o = open.remove(handle);
        if (o != null) {
            o.whole().close();
        }
    }

    private Open stream(long handle) throws IOException {
        Open o = open.get(handle);
        if (o == null) {
            throw new IOException("remote stream " + handle + " is closed");
        }
        return o;
    }

    @Override
    public void print(int server, String object, boolean error, byte[] text) {
        PrintStream to = error ? err : out;
        String key = server + "/" + object + "/" + error;
        byte[] prefix = ("[" + object + "@server " + server + "] ").getBytes(StandardCharsets.UTF_8);
        synchronized (to) {
            String other = openLine.get(error);
            if (other != null && !other.equals(key)) { // another object's line is open: it ends here
                to.write('\n');
                midLine.remove(other);
            }
            boolean continues = midLine.getOrDefault(key, false);
            int start = 0;
            for (int i = 0; i < text.length; i++) {
                if (text[i] == '\n') {
                    if (!continues) {
                        to.write(prefix, 0, prefix.length);
                    }
                    to.write(text, start, i + 1 - start);
                    start = i + 1;
                    continues = false;
                }
            }
            if (start < text.length) {
                if (!continues) {
                    to.write(prefix, 0, prefix.length);
                }
                to.write(text, start, text.length - start);
                continues = true;
            }
            if (continues) {
                midLine.put(key, true);
                openLine.put(error, key);
            } else {
                midLine.remove(key);
                openLine.remove(error);
            }
            to.flush();
        }
    }

    /** Closes every stream the client's objects left open. */
    @Override
    public void close() {
        for (Long handle : open.keySet()) {
            try {
                close(handle);
            } catch (IOException e) {
                // the client leaves: nobody is left to tell
            }
        }
    }

    /** The client's standard input, which a remote close does not close. */
    private static final class NotClosing extends java.io.FilterInputStream {
        NotClosing(InputStream in) {
            super(in);
        }

        @Override
        public void close() {
        }
    }
}
