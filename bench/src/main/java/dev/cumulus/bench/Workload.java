package dev.cumulus.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * How long a measurement runs, handed to every child process as {@code -Dbench.*} properties. A phase ends at its
 * call count or its time budget, whichever comes first, so a slow configuration (e.g. {@code sleep:100000}) still
 * finishes in a few seconds.
 *
 * @param warmupCalls      synchronous round trips before measuring
 * @param measuredCalls    synchronous round trips measured
 * @param warmupMaxNs      time budget of the synchronous warm-up (it runs at least half of it)
 * @param measureMaxNs     time budget of the synchronous measurement
 * @param asyncWarmupNs    least asynchronous warm-up time per caller (then until the JITs are quiet:
 *                         {@link ChildIo.AsyncWarmup})
 * @param asyncWarmupMaxNs the longest the asynchronous warm-up goes on past {@code asyncWarmupNs} for the JITs to
 *                         quiet down (four JVMs on two cores compile a caller's path for ten seconds and more)
 * @param asyncMeasureNs   asynchronous measurement time (per caller, callers run concurrently)
 * @param window           outstanding asynchronous calls per caller
 * @param payloadBytes     bytes per request and per reply
 * @param async            whether to run the asynchronous phase
 */
public record Workload(int warmupCalls, int measuredCalls, long warmupMaxNs, long measureMaxNs, long asyncWarmupNs,
                       long asyncWarmupMaxNs, long asyncMeasureNs, int window, int payloadBytes, boolean async) {
    public static final int PAYLOAD_BYTES = 32;

    /**
     * The default: 20k warm-up, 50k measured (at most 2 s + 3 s); async at least 1 s warm-up (at most 15 s more for
     * the JITs), 2 s measured, 32 outstanding.
     */
    public static Workload standard() {
        return new Workload(20_000, 50_000, TimeUnit.SECONDS.toNanos(2), TimeUnit.SECONDS.toNanos(3),
            TimeUnit.SECONDS.toNanos(1), TimeUnit.SECONDS.toNanos(15), TimeUnit.SECONDS.toNanos(2), 32, PAYLOAD_BYTES,
            true);
    }

    /** A smoke-test run: a few thousand calls, well under a second per phase. */
    public static Workload quick() {
        return new Workload(2_000, 5_000, TimeUnit.MILLISECONDS.toNanos(300), TimeUnit.MILLISECONDS.toNanos(700),
            TimeUnit.MILLISECONDS.toNanos(200), TimeUnit.MILLISECONDS.toNanos(300), TimeUnit.MILLISECONDS.toNanos(500),
            32, PAYLOAD_BYTES, true);
    }

    public Workload withAsync(boolean on) {
        return new Workload(warmupCalls, measuredCalls, warmupMaxNs, measureMaxNs, asyncWarmupNs, asyncWarmupMaxNs,
            asyncMeasureNs, window, payloadBytes, on);
    }

    /** As {@code -Dbench.x=y} JVM arguments. */
    public List<String> toJvmArguments() {
        List<String> a = new ArrayList<>();
        a.add("-Dbench.warmup.calls=" + warmupCalls);
        a.add("-Dbench.measured.calls=" + measuredCalls);
        a.add("-Dbench.warmup.max.ns=" + warmupMaxNs);
        a.add("-Dbench.measure.max.ns=" + measureMaxNs);
        a.add("-Dbench.async.warmup.ns=" + asyncWarmupNs);
        a.add("-Dbench.async.warmup.max.ns=" + asyncWarmupMaxNs);
        a.add("-Dbench.async.measure.ns=" + asyncMeasureNs);
        a.add("-Dbench.window=" + window);
        a.add("-Dbench.payload.bytes=" + payloadBytes);
        a.add("-Dbench.async=" + async);
        return a;
    }

    /** Reads what {@link #toJvmArguments()} wrote (in a child process). */
    public static Workload fromProperties(Properties p) {
        return new Workload(
            Integer.parseInt(p.getProperty("bench.warmup.calls")),
            Integer.parseInt(p.getProperty("bench.measured.calls")),
            Long.parseLong(p.getProperty("bench.warmup.max.ns")),
            Long.parseLong(p.getProperty("bench.measure.max.ns")),
            Long.parseLong(p.getProperty("bench.async.warmup.ns")),
            Long.parseLong(p.getProperty("bench.async.warmup.max.ns")),
            Long.parseLong(p.getProperty("bench.async.measure.ns")),
            Integer.parseInt(p.getProperty("bench.window")),
            Integer.parseInt(p.getProperty("bench.payload.bytes")),
            Boolean.parseBoolean(p.getProperty("bench.async")));
    }

    /** Workload of this child process. */
    public static Workload current() {
        return fromProperties(System.getProperties());
    }
}
