package dev.cumulus.bench;

import dev.cumulus.internal.launch.NodeSecret;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The child side of the orchestrator's stdout protocol, and the measurement loops every child shares.
 *
 * <pre>
 * PID &lt;pid&gt; &lt;startMillis&gt;              first: this JVM (its CPU time is read from it where it is visible)
 * READY &lt;address&gt;                      a process is listening / connected; it waits for GO on stdin
 * PHASE &lt;name&gt; start|end              the measured part of a phase begins / ends (the orchestrator samples CPU)
 * RESULT sync count=N p50Ns=.. p99Ns=.. maxNs=.. meanNs=..
 * RESULT async calls=N elapsedNs=..
 * </pre>
 */
public final class ChildIo {
    private static final PrintStream OUT = System.out;
    private static final CountDownLatch GO = new CountDownLatch(1);
    private static final long HIGHEST_NS = TimeUnit.SECONDS.toNanos(10);
    /** The first line of every child: its process id and start time. */
    static final String PID = "PID";

    private ChildIo() {
    }

    /** One synchronous round trip number {@code i}. */
    @FunctionalInterface
    public interface RoundTrip {
        void call(int i) throws Exception;
    }

    /**
     * Watches our stdin, which the orchestrator holds: a line {@code GO} opens the start gate
     * ({@link #awaitGo()}); end of stream means the orchestrator went away, and this process exits, so a killed
     * orchestrator leaves no orphan process.
     */
    public static void exitWithParent() {
        NodeSecret.get(); // a Cumulus node's first stdin line is its run's secret: taken before this reader starts
        ProcessHandle self = ProcessHandle.current();
        line(PID + " " + self.pid() + " " + self.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L));
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String l;
                while ((l = in.readLine()) != null) {
                    if (l.trim().equals("GO")) {
                        GO.countDown();
                    }
                }
            } catch (IOException e) {
                // treat like end of stream
            }
            Runtime.getRuntime().halt(97);
        }, "bench-parent-watch");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Prototype of a possible runtime change, for the breakdown table: with {@code -Dbench.timer.slack.ns=N} sets
     * this thread's Linux timer slack (inherited by every thread it starts afterwards: the node's agent, the
     * virtual threads' carriers) with {@code prctl(PR_SET_TIMERSLACK, N)}. The default slack of 50 µs makes
     * {@code parkNanos(1 µs)} sleep ~50 µs or more. Does nothing without the property or off Linux.
     */
    public static void applyTimerSlack() {
        String ns = System.getProperty("bench.timer.slack.ns");
        if (ns == null || !System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return;
        }
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle prctl = linker.downcallHandle(
                linker.defaultLookup().find("prctl").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
            int rc = (int) prctl.invokeExact(29 /* PR_SET_TIMERSLACK */, Long.parseLong(ns), 0L, 0L, 0L);
            if (rc != 0) {
                throw new IllegalStateException("prctl(PR_SET_TIMERSLACK) returned " + rc);
            }
        } catch (Throwable t) {
            throw new IllegalStateException("cannot set the timer slack: " + t, t);
        }
    }

    /** Prints {@code READY address} and waits for the orchestrator's {@code GO} (all peers are ready). */
    public static void readyAndAwaitGo(String address) throws InterruptedException {
        line("READY " + address);
        if (!GO.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no GO from the orchestrator within 60 s");
        }
    }

    public static synchronized void line(String s) {
        OUT.println(s);
        OUT.flush();
    }

    /**
     * Warm-up, then the measured round trips between {@code PHASE sync start/end}; prints the RESULT line. The
     * warm-up makes its calls and runs at least half its time budget: its calls alone may be over in milliseconds,
     * with the JIT still compiling the call path when the measurement begins.
     */
    public static void measureSync(Workload w, RoundTrip rt) throws Exception {
        long warm = System.nanoTime();
        long least = warm + w.warmupMaxNs() / 2;
        long end = warm + w.warmupMaxNs();
        JitQuiet jit = JitQuiet.ofMeasurement();
        int i = 0;
        for (; (i < w.warmupCalls() || System.nanoTime() - least < 0) && System.nanoTime() - end < 0; i++) {
            rt.call(i);
        }
        // then until the JITs of the measurement's JVMs have compiled nothing for a while: with a call path as deep
        // as an RPC's, C2 was still compiling (on the same cores) seconds into a run, and a run measured before that
        // reads well above the steady state
        long jitEnd = System.nanoTime() + Math.min(JitQuiet.MAX_WAIT_NS, w.warmupMaxNs()); // a smoke run waits little
        for (; !jit.quiet() && System.nanoTime() - jitEnd < 0; i++) {
            rt.call(i);
        }
        Histogram h = new Histogram(HIGHEST_NS, 3);
        line("PHASE sync start");
        long start = System.nanoTime();
        end = start + w.measureMaxNs();
        for (int n = 0; n < w.measuredCalls(); n++, i++) {
            long t0 = System.nanoTime();
            rt.call(i);
            long t1 = System.nanoTime();
            h.recordValue(Math.min(t1 - t0, HIGHEST_NS));
            if (t1 - end > 0) {
                break;
            }
        }
        long elapsed = System.nanoTime() - start;
        line("PHASE sync end");
        line("RESULT sync count=" + h.getTotalCount() + " p50Ns=" + h.getValueAtPercentile(50) + " p99Ns="
            + h.getValueAtPercentile(99) + " maxNs=" + h.getMaxValue() + " meanNs=" + (long) h.getMean()
            + " elapsedNs=" + elapsed);
    }

    /**
     * The end of an asynchronous warm-up, the same rule for ours and every peer: at least the workload's warm-up time,
     * then until the JITs of the measurement's JVMs have compiled nothing for a while (as the synchronous warm-up, at
     * most {@link Workload#asyncWarmupMaxNs} more). A caller's asynchronous path is cold when its phase begins (in the
     * synchronous phase only process 0 called), and a throughput measured while C2 still compiles it on the same two
     * cores reads a fraction of the steady state.
     */
    public static final class AsyncWarmup {
        private final JitQuiet jit = JitQuiet.ofMeasurement();
        private final long leastEnd;
        private final long latestEnd;

        public AsyncWarmup(Workload w) {
            long now = System.nanoTime();
            leastEnd = now + w.asyncWarmupNs();
            latestEnd = leastEnd + w.asyncWarmupMaxNs();
        }

        /** Whether the warm-up is over (call it as often as convenient: the clocks are read every few ms). */
        public boolean over() {
            boolean quiet = jit.quiet();
            long now = System.nanoTime();
            return now - leastEnd >= 0 && (quiet || now - latestEnd >= 0);
        }
    }

    /** Prints the async RESULT line. */
    public static void asyncResult(long calls, long elapsedNs) {
        line("RESULT async calls=" + calls + " elapsedNs=" + elapsedNs);
    }

    /** A payload of {@code n} bytes with a recognisable pattern. */
    public static byte[] payload(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 1);
        }
        return b;
    }
}
