package dev.cumulus;

import dev.cumulus.internal.capability.RemoteStreamsHook;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Remote I/O (Babylon §4.3): the objects a client of a standing cluster made on its servers use the client's standard
 * input, files on the client's machine and connections from the client's host, with the JDK's stream interfaces. What
 * they print with {@code System.out} and {@code System.err} goes to the client's console by itself, each line prefixed
 * with {@code [name@server N]}.
 *
 * <p>Each method works for the client that owns the object whose call the current thread runs, and only for it: a
 * stream is moved in bounded chunks over the cluster's transport, and a failure on the client's machine (a missing
 * file, no permission, a refused connection) is thrown here as an {@link IOException} with the client's message.
 * Threads an object starts itself run for no client: on a server, they are refused. In the client's own process and
 * on the nodes of an SPMD run the same calls open this machine's streams, so code that uses them runs unchanged
 * wherever it is.
 */
public final class RemoteIO {
    private RemoteIO() {
    }

    /** A connection opened from the client's host: its two streams, closed together. */
    public interface Connection extends Closeable {
        /** What the other end sends. */
        InputStream input();

        /** What goes to the other end; flush it to send what it buffered. */
        OutputStream output();
    }

    /**
     * The client's standard input (what {@code cumulus run --attach} reads from its terminal or pipe). Closing it does
     * not close the client's.
     */
    public static InputStream stdin() throws IOException {
        return RemoteStreamsHook.streams().stdin();
    }

    /** Reads the file {@code path} on the client's machine (relative to the client's working directory). */
    public static InputStream openInput(String path) throws IOException {
        return RemoteStreamsHook.streams().openInput(path);
    }

    /**
     * Writes the file {@code path} on the client's machine, created or emptied first; what the stream buffers goes
     * with {@code flush()} and {@code close()}.
     */
    public static OutputStream openOutput(String path) throws IOException {
        return RemoteStreamsHook.streams().openOutput(path, false);
    }

    /** As {@link #openOutput(String)}, appending to the file when {@code append}. */
    public static OutputStream openOutput(String path, boolean append) throws IOException {
        return RemoteStreamsHook.streams().openOutput(path, append);
    }

    /** Opens a TCP connection to {@code host}:{@code port} from the client's host. */
    public static Connection connect(String host, int port) throws IOException {
        return RemoteStreamsHook.streams().connect(host, port);
    }
}
