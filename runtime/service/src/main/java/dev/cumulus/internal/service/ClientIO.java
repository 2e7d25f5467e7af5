package dev.cumulus.internal.service;

import java.io.IOException;

/**
 * A client's end of remote I/O (Babylon §4.3): every client of a standing cluster exports it, and a server calls it
 * only for code that runs for that client (its objects' calls): what they print ({@link #print}) and the streams they
 * open on the client's machine ({@code dev.cumulus.RemoteIO}). Each transfer is one bounded chunk; nothing is Java
 * serialization. A failure on the client (a missing file, no permission, a refused connection) comes back as the
 * {@link IOException} the client saw, with its message.
 */
public interface ClientIO {
    long OBJECT_ID = 12;
    /** The most bytes one read, write or print carries. */
    int MAX_CHUNK_BYTES = 64 * 1024;

    /** What {@link #open} opens. */
    int STDIN = 0;
    int READ_FILE = 1;
    int WRITE_FILE = 2;
    int APPEND_FILE = 3;
    int SOCKET = 4;

    /**
     * Opens a stream on the client: its standard input, a file ({@code target} a path on the client's machine), or a
     * TCP connection from the client's host ({@code target} a host name, and {@code port}).
     *
     * @return the handle of the open stream, for {@link #read}, {@link #write} and {@link #close}
     */
    long open(int kind, String target, int port) throws IOException;

    /** Up to {@code max} bytes (at most {@link #MAX_CHUNK_BYTES}), waiting for at least one; {@code null} at the end. */
    byte[] read(long handle, int max) throws IOException;

    /** Writes {@code bytes} (at most {@link #MAX_CHUNK_BYTES}). */
    void write(long handle, byte[] bytes) throws IOException;

    /** Flushes what was written to a file or connection. */
    void flush(long handle) throws IOException;

    /** Closes the stream; a closed or unknown handle is ignored. */
    void close(long handle) throws IOException;

    /**
     * Prints {@code text} (whole lines, or a piece of a long one) that object {@code object} on server {@code server}
     * wrote to its standard output ({@code error} false) or error, each line prefixed with the object and server.
     */
    void print(int server, String object, boolean error, byte[] text);
}
