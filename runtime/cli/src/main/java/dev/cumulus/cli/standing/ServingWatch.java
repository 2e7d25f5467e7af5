package dev.cumulus.cli.standing;

import dev.cumulus.internal.service.StandingServer;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The keeper's view of its servers' standard output: passes every byte on to the keeper's log and notes when node 0
 * says that every server serves ({@link StandingServer#SERVING_LINE}, prefixed {@code [0] } by the launcher), wherever
 * node 0 runs.
 *
 * <p>Threads: the launcher's output pumps write (one at a time: the launcher's sink is shared); the keeper waits.
 */
final class ServingWatch extends OutputStream {
    private static final String LINE = "[0] " + StandingServer.SERVING_LINE;
    private static final int MAX_LINE = 4096;

    private final OutputStream sink;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final CountDownLatch serving = new CountDownLatch(1);

    ServingWatch(OutputStream sink) {
        this.sink = sink;
    }

    @Override
    public synchronized void write(int b) throws java.io.IOException {
        sink.write(b);
        look(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
        sink.write(b, off, len);
        for (int i = off; i < off + len; i++) {
            look(b[i]);
        }
    }

    private void look(int b) {
        if (b != '\n') {
            if (line.size() < MAX_LINE) {
                line.write(b);
            }
            return;
        }
        if (line.toString(StandardCharsets.UTF_8).strip().equals(LINE)) {
            serving.countDown();
        }
        line.reset();
    }

    @Override
    public void flush() throws java.io.IOException {
        sink.flush();
    }

    /**
     * Waits until the servers serve, {@code timeout} passed, or {@code giveUp} says to stop looking (looked at every
     * {@link FileWait#LOOK_MS}).
     *
     * @return whether they serve
     */
    boolean await(Duration timeout, BooleanSupplier giveUp) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (serving.await(FileWait.LOOK_MS, TimeUnit.MILLISECONDS)) {
                return true;
            }
            if (giveUp.getAsBoolean()) {
                return serving.getCount() == 0;
            }
        }
        return serving.getCount() == 0;
    }
}
