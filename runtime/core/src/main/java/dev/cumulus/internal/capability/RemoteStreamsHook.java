package dev.cumulus.internal.capability;

import dev.cumulus.RemoteIO;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Where {@link RemoteIO}'s streams come from: this machine's ({@link LocalStreams}) in an SPMD run's nodes and in a
 * standing cluster's client; on a standing cluster's server, the streams of the client whose object's call the thread
 * runs, which module runtime/service (dev.cumulus:cumulus-service) installs when the server starts serving.
 */
public final class RemoteStreamsHook {
    /** What {@link RemoteIO} opens; each method is the {@link RemoteIO} method of the same name. */
    public interface Streams {
        InputStream stdin() throws IOException;

        InputStream openInput(String path) throws IOException;

        OutputStream openOutput(String path, boolean append) throws IOException;

        RemoteIO.Connection connect(String host, int port) throws IOException;
    }

    private static volatile Streams streams = new LocalStreams();

    private RemoteStreamsHook() {
    }

    /** What {@link RemoteIO} opens in this process now. */
    public static Streams streams() {
        return streams;
    }

    /** This process is a standing cluster's server from now on: {@link RemoteIO} opens {@code clients}' streams. */
    public static void serveClients(Streams clients) {
        streams = clients;
    }
}
