package dev.cumulus.internal.service;

import dev.cumulus.RemoteIO;
import dev.cumulus.internal.capability.RemoteStreamsHook;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * What {@link RemoteIO} opens on a standing cluster's server: for code that runs for a client (a call of one of its
 * objects), streams over that client's {@link ClientIO}, moved in chunks of at most {@link ClientIO#MAX_CHUNK_BYTES};
 * code that runs for no client has no client to reach and is refused. Installed when the server starts serving
 * ({@link #serving}); elsewhere (the client's own process, the nodes of an SPMD run) {@link RemoteIO} opens this
 * machine's streams.
 */
final class RemoteStreams implements RemoteStreamsHook.Streams {
    private RemoteStreams() {
    }

    /** This process is a standing cluster's server from now on. */
    static void serving() {
        RemoteStreamsHook.serveClients(new RemoteStreams());
    }

    @Override
    public InputStream stdin() throws IOException {
        String what = "the client's standard input";
        ClientIO io = client(what);
        return new In(io, open(io, ClientIO.STDIN, null, 0, what), what);
    }

    @Override
    public InputStream openInput(String path) throws IOException {
        ClientIO io = client("file " + path);
        return new In(io, open(io, ClientIO.READ_FILE, path, 0, path), path);
    }

    @Override
    public OutputStream openOutput(String path, boolean append) throws IOException {
        ClientIO io = client("file " + path);
        return new Out(io, open(io, append ? ClientIO.APPEND_FILE : ClientIO.WRITE_FILE, path, 0, path), path);
    }

    @Override
    public RemoteIO.Connection connect(String host, int port) throws IOException {
        ClientIO io = client("a connection to " + host + ":" + port);
        long handle = open(io, ClientIO.SOCKET, host, port, host + ":" + port);
        String what = host + ":" + port;
        Out out = new Out(io, handle, what);
        return new Connection(new In(io, handle, what), out, out::close);
    }

    /** Opens a stream on the client; a client that cannot be reached is an {@link IOException} too. */
    private static long open(ClientIO io, int kind, String target, int port, String what) throws IOException {
        try {
            return io.open(kind, target, port);
        } catch (RuntimeException e) {
            throw failed("cannot open " + what, e);
        }
    }

    /**
     * The I/O service of the client this thread works for.
     *
     * @throws IOException for code that runs for no client, or whose client has left
     */
    private static ClientIO client(String what) throws IOException {
        ClientObjects.Entry e = ClientObjects.current();
        if (e == null) {
            throw new IOException("RemoteIO cannot open " + what + ": this thread runs for no client of the standing "
                + "cluster (remote I/O is for the calls of a client's objects, on the threads that run them)");
        }
        try {
            return e.io();
        } catch (RuntimeException gone) {
            throw new IOException("RemoteIO cannot open " + what + ": " + gone.getMessage(), gone);
        }
    }

    private static IOException failed(String what, RuntimeException e) {
        return new IOException(what + ": the client cannot be reached (" + e.getMessage() + ")", e);
    }

    private record Connection(InputStream input, OutputStream output, Closer closer) implements RemoteIO.Connection {
        @Override
        public void close() throws IOException {
            closer.close();
        }
    }

    @FunctionalInterface
    private interface Closer {
        void close() throws IOException;
    }

    /** A stream read from the client in chunks. */
    private static final class In extends InputStream {
        private final ClientIO io;
        private final long handle;
        private final String what;
        private byte[] chunk = new byte[0];
        private int at;
        private boolean ended;
        private boolean closed;

        In(ClientIO io, long handle, String what) {
            this.io = io;
            this.handle = handle;
            this.what = what;
        }

        @Override
        public synchronized int read() throws IOException {
            if (!fill()) {
                return -1;
            }
            return chunk[at++] & 0xFF;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, chunk.length - at);
            System.arraycopy(chunk, at, b, off, n);
            at += n;
            return n;
        }

        @Override
        public synchronized int available() {
            return chunk.length - at;
        }

        private boolean fill() throws IOException {
            if (closed) {
                throw new IOException("remote stream " + what + " is closed");
            }
            if (at < chunk.length) {
                return true;
            }
            if (ended) {
                return false;
            }
            byte[] next;
            try {
                next = io.read(handle, ClientIO.MAX_CHUNK_BYTES);
            } catch (RuntimeException e) {
                throw failed("cannot read " + what, e);
            }
            if (next == null || next.length == 0) {
                ended = next == null;
                return next != null && fill();
            }
            chunk = next;
            at = 0;
            return true;
        }

        @Override
        public synchronized void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try {
                io.close(handle);
            } catch (RuntimeException e) {
                throw failed("cannot close " + what, e);
            }
        }
    }

    /** A stream written to the client in chunks; {@link #flush} and {@link #close} send what is buffered. */
    private static final class Out extends OutputStream {
        private final ClientIO io;
        private final long handle;
        private final String what;
        private final byte[] buffer = new byte[ClientIO.MAX_CHUNK_BYTES];
        private int size;
        private boolean closed;

        Out(ClientIO io, long handle, String what) {
            this.io = io;
            this.handle = handle;
            this.what = what;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            open();
            if (size == buffer.length) {
                send();
            }
            buffer[size++] = (byte) b;
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            open();
            while (len > 0) {
                if (size == buffer.length) {
                    send();
                }
                int n = Math.min(len, buffer.length - size);
                System.arraycopy(b, off, buffer, size, n);
                size += n;
                off += n;
                len -= n;
            }
        }

        @Override
        public synchronized void flush() throws IOException {
            open();
            send();
            try {
                io.flush(handle);
            } catch (RuntimeException e) {
                throw failed("cannot flush " + what, e);
            }
        }

        private void open() throws IOException {
            if (closed) {
                throw new IOException("remote stream " + what + " is closed");
            }
        }

        private void send() throws IOException {
            if (size == 0) {
                return;
            }
            byte[] chunk = Arrays.copyOf(buffer, size);
            size = 0;
            try {
                io.write(handle, chunk);
            } catch (RuntimeException e) {
                throw failed("cannot write " + what, e);
            }
        }

        @Override
        public synchronized void close() throws IOException {
            if (closed) {
                return;
            }
            try {
                send();
            } finally {
                closed = true;
                try {
                    io.close(handle);
                } catch (RuntimeException e) {
                    throw failed("cannot close " + what, e);
                }
            }
        }
    }
}
