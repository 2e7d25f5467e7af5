package dev.cumulus.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/** A PrintStream target that tests can read and wait on ("until the output contains X"), without sleeping. */
public final class CapturedOutput extends OutputStream {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream stream = new PrintStream(this, true, StandardCharsets.UTF_8);

    public PrintStream stream() {
        return stream;
    }

    @Override
    public synchronized void write(int b) {
        bytes.write(b);
        notifyAll();
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        bytes.write(b, off, len);
        notifyAll();
    }

    public synchronized String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** Waits until the captured text contains every one of {@code parts}. */
    public synchronized void awaitContains(Duration max, String... parts) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + max.toNanos();
        while (!containsAll(parts)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException("output never contained all of " + String.join(" | ", parts)
                    + "; it was:\n" + text());
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    private boolean containsAll(String... parts) {
        String t = text();
        for (String p : parts) {
            if (!t.contains(p)) {
                return false;
            }
        }
        return true;
    }
}
