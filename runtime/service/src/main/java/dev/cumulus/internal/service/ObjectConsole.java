package dev.cumulus.internal.service;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;

/**
 * What one client object prints to one stream on a server: whole lines go to its owner's console
 * ({@link ClientIO#print}) as they end, a line longer than {@link ClientIO#MAX_CHUNK_BYTES} in pieces, and the piece of
 * a line still open goes when the object flushes its stream, and is ended when its call ends. One object's lines keep their order: they are sent one at a time,
 * under this stream's lock, and the client prints each before it answers. An owner that is gone drops them.
 */
final class ObjectConsole extends OutputStream {
    private final ClientObjects.Entry object;
    private final boolean error;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private volatile boolean ownerGone;
    /** The last text sent ended mid-line. */
    private boolean lineOpen;

    ObjectConsole(ClientObjects.Entry object, boolean error) {
        this.object = object;
        this.error = error;
    }

    @Override
    public synchronized void write(int b) {
        line.write(b);
        if (b == '\n' || line.size() >= ClientIO.MAX_CHUNK_BYTES) {
            send();
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            line.write(b[i]);
            if (b[i] == '\n' || line.size() >= ClientIO.MAX_CHUNK_BYTES) {
                send();
            }
        }
    }

    /** Sends the line begun but not ended (the object flushed its stream, or its call ends). */
    @Override
    public synchronized void flush() {
        if (line.size() > 0) {
            send();
        }
    }

    /** The call ends: a line it left open (sent or not) is ended, so the next call's output begins a line. */
    synchronized void endLine() {
        if (line.size() > 0 || lineOpen) {
            line.write('\n');
            send();
        }
    }

    private void send() {
        byte[] text = line.toByteArray();
        line.reset();
        lineOpen = text[text.length - 1] != '\n';
        if (ownerGone) {
            return;
        }
        try {
            object.io().print(object.server(), object.label(), error, text);
        } catch (RuntimeException e) {
            ownerGone = true; // its client is gone or unreachable: what its objects print goes nowhere
        }
    }
}
