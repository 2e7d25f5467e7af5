package dev.cumulus.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Whether the JIT compilers of the JVMs a measurement runs on have compiled nothing during the last
 * {@link #QUIET_NS}: a warm-up goes on until then. With call paths as deep as a remote call's, C2 was still compiling
 * seconds into a run, on the cores the measured threads need; a series measured meanwhile reads well above the steady
 * state (a static sequencer's remote write: tens of µs instead of 2, its two processes squeezed onto the core left).
 * Each JVM is one clock: its compilers' total compile time, ms ({@link #ofThisJvm}, or a remote node's). The clocks
 * are read at most every {@link #LOOK_EVERY_NS}.
 */
public final class JitQuiet {
    static final long QUIET_NS = TimeUnit.MILLISECONDS.toNanos(500);
    static final long LOOK_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(5);
    private final List<LongSupplier> compileMillis;
    private long lastTotalMs = -1;
    private long sinceNs = System.nanoTime();
    private long nextLookNs;

    /** Watches the JVMs whose total compile times (ms) {@code compileMillis} read. */
    public JitQuiet(List<LongSupplier> compileMillis) {
        this.compileMillis = List.copyOf(compileMillis);
    }

    /** Watches this JVM alone. */
    public static JitQuiet ofThisJvm() {
        return new JitQuiet(List.of(JitQuiet::thisJvmCompileMillis));
    }

    /** This JVM's compilers' total compile time so far, ms; 0 where the JVM does not keep it. */
    public static long thisJvmCompileMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** Whether no JVM compiled anything during the last {@link #QUIET_NS}. */
    public boolean quiet() {
        long now = System.nanoTime();
        if (now - nextLookNs < 0) {
            return false;
        }
        nextLookNs = now + LOOK_EVERY_NS;
        long total = 0;
        for (LongSupplier c : compileMillis) {
            total += c.getAsLong();
        }
        if (total != lastTotalMs) {
            lastTotalMs = total;
            sinceNs = now;
            return false;
        }
        return now - sinceNs >= QUIET_NS;
    }
}
