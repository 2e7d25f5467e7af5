package dev.cumulus.cli.launch;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A fault layer for system tests: slows a process down by stopping it (SIGSTOP) and letting it run (SIGCONT) by
 * turns, e.g. stopped 800 ms and running 400 ms makes it three times slower in bursts. The bursts are the fault
 * itself, timed on a thread of its own; tests wait on {@link #awaitCycles} (a condition), never on time.
 */
final class ProcessThrottle implements AutoCloseable {
    private final long pid;
    private final long stoppedNs;
    private final long runningNs;
    private final Thread thread;
    private volatile boolean on = true;
    private int cycles;
    private Exception failure;

    ProcessThrottle(long pid, Duration stopped, Duration running) {
        this.pid = pid;
        this.stoppedNs = stopped.toNanos();
        this.runningNs = running.toNanos();
        this.thread = new Thread(this::run, "throttle-" + pid);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (on) {
                signal("-STOP");
                hold(stoppedNs);
                signal("-CONT");
                hold(runningNs);
                synchronized (this) {
                    cycles++;
                    notifyAll();
                }
            }
        } catch (Exception e) {
            synchronized (this) {
                failure = e;
                notifyAll();
            }
        } finally {
            try {
                signal("-CONT");
            } catch (Exception e) {
                // the process is gone
            }
        }
    }

    private static void hold(long ns) {
        long until = System.nanoTime() + ns;
        for (long left = ns; left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private void signal(String which) throws IOException, InterruptedException {
        int code = new ProcessBuilder("kill", which, Long.toString(pid)).inheritIO().start().waitFor();
        if (code != 0) {
            throw new IOException("kill " + which + " " + pid + " exited with " + code);
        }
    }

    /** Waits until {@code n} stop-and-run cycles are done. */
    synchronized void awaitCycles(int n, Duration max) throws Exception {
        long deadline = System.nanoTime() + max.toNanos();
        while (cycles < n) {
            if (failure != null) {
                throw failure;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException("only " + cycles + " of " + n + " throttle cycles of pid " + pid + " ran");
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Stops throttling and lets the process run. */
    @Override
    public void close() throws InterruptedException {
        on = false;
        thread.join();
    }
}
