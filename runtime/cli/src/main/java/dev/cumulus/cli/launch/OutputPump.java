package dev.cumulus.cli.launch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Copies one stream of a node (stdout or stderr) to the launcher's stream, each line prefixed with {@code [i] }.
 * Bytes pass through unchanged (no re-encoding). Complete lines only: the lines read in one chunk are written with
 * one {@link PrintStream#write(byte[], int, int)} call, which {@link PrintStream} makes atomic, so lines of different
 * nodes never interleave mid-line. A line longer than {@value #MAX_LINE_BYTES} bytes is cut into several lines.
 *
 * <p>One platform daemon thread per pump; it ends at the stream's end of file (the node exited).
 */
final class OutputPump implements Runnable {
    static final int MAX_LINE_BYTES = 64 * 1024;
    private static final Charset NODE_CHARSET = nativeCharset();

    private final InputStream in;
    private final PrintStream sink;
    private final byte[] prefix;
    private final OutputTail tail;
    private final Thread thread;
    private volatile Runnable onJvmThreadDump;

    private OutputPump(String name, InputStream in, PrintStream sink, String prefix, OutputTail tail) {
        this.in = in;
        this.sink = sink;
        this.prefix = prefix.getBytes(StandardCharsets.US_ASCII);
        this.tail = tail;
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    static OutputPump start(String name, InputStream in, PrintStream sink, String prefix, OutputTail tail) {
        OutputPump pump = new OutputPump(name, in, sink, prefix, tail);
        pump.thread.start();
        return pump;
    }

    @Override
    public void run() {
        byte[] buf = new byte[8192];
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        try (in) {
            int n;
            while ((n = in.read(buf)) != -1) {
                for (int i = 0; i < n; i++) {
                    byte b = buf[i];
                    if (b == '\n') {
                        emit(line, batch);
                    } else {
                        line.write(b);
                        if (line.size() >= MAX_LINE_BYTES) {
                            emit(line, batch);
                        }
                    }
                }
                flush(batch, in.available() == 0);
            }
        } catch (IOException e) {
            // the stream closed under us (process destroyed); whatever was read is flushed below
        } finally {
            if (line.size() > 0) {
                emit(line, batch);
            }
            flush(batch, true);
        }
    }

    private void emit(ByteArrayOutputStream line, ByteArrayOutputStream batch) {
        byte[] bytes = line.toByteArray();
        line.reset();
        int len = bytes.length;
        if (len > 0 && bytes[len - 1] == '\r') {
            len--;
        }
        batch.write(prefix, 0, prefix.length);
        batch.write(bytes, 0, len);
        batch.write('\n');
        String text = new String(bytes, 0, len, NODE_CHARSET);
        tail.add(text);
        Runnable r = onJvmThreadDump;
        if (r != null && text.startsWith(JVM_THREAD_DUMP)) {
            r.run();
        }
    }

    /** How the JVM's own thread dump (on SIGQUIT, Ctrl-\) begins. */
    static final String JVM_THREAD_DUMP = "Full thread dump ";

    /** Runs {@code r} (on the pump's thread; it must not block) when the node prints the JVM's thread dump. */
    void onJvmThreadDump(Runnable r) {
        onJvmThreadDump = r;
    }

    private void flush(ByteArrayOutputStream batch, boolean flushSink) {
        if (batch.size() > 0) {
            byte[] bytes = batch.toByteArray();
            batch.reset();
            sink.write(bytes, 0, bytes.length);
        }
        if (flushSink) {
            sink.flush();
        }
    }

    /** Waits up to {@code max} for the pump to reach end of file; true if it did. */
    boolean join(Duration max) throws InterruptedException {
        return thread.join(max);
    }

    private static Charset nativeCharset() {
        try {
            return Charset.forName(System.getProperty("native.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }
}
