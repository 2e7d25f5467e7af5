package dev.cumulus.internal.launch;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a launched node's program gets as {@code System.in}: an empty stream (the node's real stdin is its launcher's
 * pipe, {@link LauncherWatch}) that says so on stderr the first time the program reads it, so a program that expects
 * input sees why it got none instead of an end of file without a word.
 */
final class EmptyStdin extends InputStream {
    private final String node;
    private final PrintStream err;
    private final AtomicBoolean told = new AtomicBoolean();

    EmptyStdin(String node, PrintStream err) {
        this.node = node;
        this.err = err;
    }

    @Override
    public int read() {
        tell();
        return -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        tell();
        return -1;
    }

    private void tell() {
        if (told.compareAndSet(false, true)) {
            err.println("cumulus: node " + node + " read System.in, which is empty: cumulus run does not pass its "
                + "standard input to the nodes; give the program its input as a file or as arguments");
        }
    }
}
