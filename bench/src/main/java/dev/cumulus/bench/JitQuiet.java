package dev.cumulus.bench;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * Whether the JIT compilers of the JVMs a measurement runs on have compiled nothing during the last
 * {@link #QUIET_NS}: a warm-up goes on until then (for at most what its caller allows). With call paths as deep as a
 * remote call's, C2 was still compiling seconds into a run, on the cores the measured threads need; a series measured
 * meanwhile reads well above the steady state (a static sequencer's remote write: tens of µs instead of 2, its two
 * processes squeezed onto the core the compilers left).
 *
 * <p>{@link #ofMeasurement} watches every JVM of the measurement on this host, whoever wrote it (ours and the peers'
 * alike): this process, its parent (the bench, which hosts the media driver) and the parent's other children, by the
 * CPU time of their compiler threads ({@code /proc/PID/task/TID}, threads named {@code C1 CompilerThre…} and
 * {@code C2 CompilerThre…}). Where there is no {@code /proc}, it watches this JVM alone.
 */
public final class JitQuiet {
    static final long QUIET_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /** The longest a full-size warm-up goes on past its own for the compilers to quiet down (a quick one, less). */
    public static final long MAX_WAIT_NS = TimeUnit.SECONDS.toNanos(6);
    /** How often the clocks are read (CPU time in {@code /proc} moves in 10 ms ticks). */
    static final long LOOK_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final Path PROC = Path.of("/proc");
    private final LongSupplier compileClock;
    private long lastClock = -1;
    private long sinceNs = System.nanoTime();
    private long nextLookNs;

    /** Watches whatever {@code compileClock} reads: it moves while a watched compiler compiles. */
    JitQuiet(LongSupplier compileClock) {
        this.compileClock = compileClock;
    }

    /** Watches every JVM of this measurement on this host (see the class comment). */
    public static JitQuiet ofMeasurement() {
        if (!Files.isDirectory(PROC.resolve("self/task"))) {
            return ofThisJvm();
        }
        return new JitQuiet(JitQuiet::measurementCompilerTicks);
    }

    /** Watches this JVM alone: its compilers' total compile time ({@code CompilationMXBean}). */
    private static JitQuiet ofThisJvm() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean kept = jit != null && jit.isCompilationTimeMonitoringSupported();
        return new JitQuiet(() -> kept ? jit.getTotalCompilationTime() : 0);
    }

    /** Whether no watched JVM compiled anything during the last {@link #QUIET_NS}. */
    public boolean quiet() {
        long now = System.nanoTime();
        if (now - nextLookNs < 0) {
            return false;
        }
        nextLookNs = now + LOOK_EVERY_NS;
        long clock = compileClock.getAsLong();
        if (clock != lastClock) {
            lastClock = clock;
            sinceNs = now;
            return false;
        }
        return now - sinceNs >= QUIET_NS;
    }

    /** CPU ticks of the compiler threads of this process, its parent and its parent's other children. */
    static long measurementCompilerTicks() {
        ProcessHandle self = ProcessHandle.current();
        List<ProcessHandle> jvms = self.parent()
            .map(p -> Stream.concat(Stream.of(p), p.children()).toList())
            .orElse(List.of(self));
        long ticks = 0;
        for (ProcessHandle p : jvms) {
            ticks += compilerTicks(p.pid());
        }
        return ticks;
    }

    /** utime + stime of the compiler threads of process {@code pid}; 0 once it is gone. */
    static long compilerTicks(long pid) {
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(PROC.resolve(pid + "/task"))) {
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm"));
                    if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
                        ticks += cpuTicks(Files.readString(task.resolve("stat")));
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return 0; // the process ended meanwhile
        }
        return ticks;
    }

    /** Fields 14 and 15 (utime, stime) of a {@code stat} line; the name in parentheses may hold spaces. */
    static long cpuTicks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
