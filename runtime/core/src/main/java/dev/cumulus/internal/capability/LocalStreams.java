package dev.cumulus.internal.capability;

import dev.cumulus.RemoteIO;

import java.io.FileNotFoundException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** {@link RemoteIO} where I/O is this machine's: an SPMD run's nodes, a standing cluster's client. */
final class LocalStreams implements RemoteStreamsHook.Streams {
    @Override
    public InputStream stdin() {
        return new FilterInputStream(System.in) {
            @Override
            public void close() {
                // this process's standard input stays open
            }
        };
    }

    @Override
    public InputStream openInput(String path) throws IOException {
        return Files.newInputStream(localPath(path));
    }

    @Override
    public OutputStream openOutput(String path, boolean append) throws IOException {
        return Files.newOutputStream(localPath(path), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public RemoteIO.Connection connect(String host, int port) throws IOException {
        Socket s = new Socket(host, port);
        return new Connection(s, s.getInputStream(), s.getOutputStream());
    }

    private static Path localPath(String path) throws IOException {
        if (path == null || path.isEmpty()) {
            throw new FileNotFoundException("no path given");
        }
        return Path.of(path);
    }

    private record Connection(Socket socket, InputStream input, OutputStream output) implements RemoteIO.Connection {
        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
