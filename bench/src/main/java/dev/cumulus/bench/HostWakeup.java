package dev.cumulus.bench;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What a wake-up costs on this host: how long a parked thread takes to run again after another thread unparks it,
 * when the parked thread's core had nothing else to do. A figure that includes such a sleep (a node's main thread on
 * its doorbell, a caller past its poll budget) pays about this, so the suites print it beside their figures.
 * On a virtual machine whose idle cores halt at once (Linux's {@code haltpoll} idle driver with no halt polling), a
 * wake-up goes through the hypervisor and costs tens of µs; where idle cores poll a while before they halt, a wake-up
 * within that while costs a few µs. The measurement runs on the machine where the command runs.
 */
public final class HostWakeup {
    /** How long the waker lets the parked thread's core idle before each wake-up. */
    private static final long IDLE_BEFORE_WAKE_NS = TimeUnit.MICROSECONDS.toNanos(200);
    private static final long GIVE_UP_NS = TimeUnit.SECONDS.toNanos(10);
    /** Where Linux's haltpoll idle driver shows how long an idle core polls before it halts (ns). */
    static final Path HALT_POLL = Path.of("/sys/module/haltpoll/parameters/guest_halt_poll_ns");
    /** The idle driver Linux uses: the halt polling above applies only when it is {@code haltpoll}. */
    static final Path IDLE_DRIVER = Path.of("/sys/devices/system/cpu/cpuidle/current_driver");
    /** Wake-ups before the measured ones, while the loops are being compiled. */
    private static final int WARM_UP = 200;

    /** The wake-up latency's p50 and p99 in µs, from {@code samples} wake-ups. */
    public record Latency(double p50Us, double p99Us, int samples) {
    }

    private HostWakeup() {
    }

    /**
     * Wakes a parked thread {@code samples} times, each after its core idled {@link #IDLE_BEFORE_WAKE_NS}, and
     * returns how long each took from the unpark to the thread running (µs).
     */
    public static Latency measure(int samples) {
        if (samples < 1) {
            throw new IllegalArgumentException("samples must be at least 1, not " + samples);
        }
        Histogram h = new Histogram(GIVE_UP_NS, 3);
        Sleeper sleeper = new Sleeper(WARM_UP + samples);
        Thread t = Thread.ofPlatform().daemon().name("cumulus-bench-wakeup").start(sleeper);
        try {
            for (int i = 0; i < WARM_UP + samples; i++) {
                long parkedSince = awaitParked(t, sleeper);
                while (System.nanoTime() - parkedSince < IDLE_BEFORE_WAKE_NS) {
                    Thread.onSpinWait();
                }
                int ranBefore = sleeper.ran;
                long unparkedAt = System.nanoTime();
                sleeper.go = true;
                LockSupport.unpark(t);
                long ranAt = sleeper.awaitRan(ranBefore);
                if (i >= WARM_UP) {
                    h.recordValue(Math.min(GIVE_UP_NS, Math.max(0, ranAt - unparkedAt)));
                }
            }
        } finally {
            sleeper.stop = true;
            LockSupport.unpark(t);
        }
        return new Latency(h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3, samples);
    }

    /**
     * The lines for a suite's header: {@code latency} and, where Linux tells, whether idle cores poll before they
     * halt (read from {@code haltPoll} when the idle driver named in {@code idleDriver} is {@code haltpoll};
     * {@link #HALT_POLL} and {@link #IDLE_DRIVER} on a host).
     */
    static String describe(Latency latency, Path idleDriver, Path haltPoll) {
        String idle = "";
        try {
            if (Files.isReadable(idleDriver) && Files.readString(idleDriver).strip().equals("haltpoll")
                && Files.isReadable(haltPoll)) {
                long ns = Long.parseLong(Files.readString(haltPoll).strip());
                idle = ns == 0
                    ? "%n         idle cores halt at once (haltpoll guest_halt_poll_ns=0): a wake-up goes through the hypervisor."
                    : String.format(Locale.ROOT, "%%n         idle cores poll up to %d µs before they halt (haltpoll).",
                        ns / 1000);
            }
        } catch (IOException | NumberFormatException e) {
            idle = ""; // not told: nothing said
        }
        return String.format(Locale.ROOT, "  wake : a parked thread runs p50 %.1f µs, p99 %.1f µs after its unpark when its"
            + " core had idled %d µs (%,d wake-ups)" + idle + "%n         A figure that includes such a sleep pays about"
            + " that.", latency.p50Us(), latency.p99Us(), IDLE_BEFORE_WAKE_NS / 1000, latency.samples());
    }

    /**
     * The header lines for the machine this command runs on, measured now (about a second); a measurement that could
     * not be made says so in place of the figures and the suite goes on.
     */
    public static String describeThisHost() {
        try {
            return describe(measure(2_000), IDLE_DRIVER, HALT_POLL);
        } catch (RuntimeException e) {
            return "  wake : not measured (" + e.getMessage() + ")";
        }
    }

    /** Waits until {@code t} parks for the next wake-up; returns when it was seen parked. */
    private static long awaitParked(Thread t, Sleeper sleeper) {
        long start = System.nanoTime();
        while (!(sleeper.waiting && t.getState() == Thread.State.WAITING)) {
            if (!t.isAlive() || System.nanoTime() - start > GIVE_UP_NS) {
                throw new IllegalStateException("the wake-up probe's thread did not park within 10 s");
            }
            Thread.onSpinWait();
        }
        return System.nanoTime();
    }

    /** The parked side: parks until told to go, notes when it ran, and parks again. */
    private static final class Sleeper implements Runnable {
        private final int samples;
        volatile boolean go;
        volatile boolean stop;
        volatile boolean waiting;
        private volatile long ranAt;
        volatile int ran;

        Sleeper(int samples) {
            this.samples = samples;
        }

        @Override
        public void run() {
            for (int i = 0; i < samples && !stop; i++) {
                waiting = true;
                while (!go && !stop) {
                    LockSupport.park(this);
                }
                long now = System.nanoTime();
                waiting = false;
                go = false;
                ranAt = now;
                ran = i + 1;
            }
        }

        /** Waits for the thread to have run once more than {@code before} times; returns when it ran. */
        long awaitRan(int before) {
            long start = System.nanoTime();
            while (ran == before) {
                if (System.nanoTime() - start > GIVE_UP_NS) {
                    throw new IllegalStateException("the wake-up probe's thread did not run within 10 s of its unpark");
                }
                Thread.onSpinWait();
            }
            return ranAt;
        }
    }
}
