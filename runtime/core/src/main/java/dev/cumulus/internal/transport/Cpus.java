package dev.cumulus.internal.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteOrder;

/**
 * The CPU the calling thread runs on (glibc's {@code sched_getcpu}, through the JDK's foreign function API; tens of
 * nanoseconds). Used to see whether a spinning thread holds the core a waiting thread needs ({@link Doorbells}), and to
 * move such a thread off that CPU ({@link #leave}).
 */
public final class Cpus {
    private static final MethodHandle GET_CPU = glibc("sched_getcpu", FunctionDescriptor.of(ValueLayout.JAVA_INT),
        Linker.Option.critical(false));
    private static final FunctionDescriptor AFFINITY =
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
    private static final MethodHandle GET_AFFINITY = glibc("sched_getaffinity", AFFINITY);
    private static final MethodHandle SET_AFFINITY = glibc("sched_setaffinity", AFFINITY);
    private static final long MASK_BYTES = 128; // glibc's cpu_set_t: 1024 CPUs

    private static final MethodHandle SET_SCHEDULER = glibc("sched_setscheduler",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    /** Linux's {@code SCHED_BATCH} policy number. */
    private static final int SCHED_BATCH = 3;

    private Cpus() {
    }

    /** A downcall to the C library's {@code name}, or null off Linux or without native access (callers do without). */
    private static MethodHandle glibc(String name, FunctionDescriptor signature, Linker.Option... options) {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find(name).orElseThrow(), signature, options);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * Puts the calling thread under Linux's {@code SCHED_BATCH} policy: when it wakes up it no longer preempts the
     * thread running on its CPU (it waits for that thread's slice), and it keeps a normal share of the CPU when it
     * runs. For a thread that wakes often only to look at something. Any user may set it; returns false when it could
     * not (not Linux, no native access).
     */
    public static boolean batchPolicy() {
        if (SET_SCHEDULER == null) {
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = arena.allocate(ValueLayout.JAVA_INT); // struct sched_param { int priority = 0; }
            return (int) SET_SCHEDULER.invokeExact(0, SCHED_BATCH, param) == 0; // pid 0: the calling thread
        } catch (Throwable e) {
            return false;
        }
    }

    /**
     * Moves the calling thread off {@code cpu} to another CPU it may run on, leaving its allowed CPUs as they were
     * (it is bound away for a moment only, which makes the kernel migrate it at once). Returns false when it could
     * not move (no other CPU allowed, or no native access).
     */
    public static boolean leave(int cpu) {
        return leave(cpu, () -> { });
    }

    /** {@link #leave(int)}, running {@code whileAway} on the calling thread while it is bound away from {@code cpu}. */
    static boolean leave(int cpu, Runnable whileAway) {
        if (GET_AFFINITY == null || SET_AFFINITY == null || cpu < 0 || cpu >= MASK_BYTES * 8
            || ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) { // the mask's byte and bit order
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment allowed = arena.allocate(MASK_BYTES, 8);
            if ((int) GET_AFFINITY.invokeExact(0, MASK_BYTES, allowed) != 0) {
                return false;
            }
            MemorySegment away = arena.allocate(MASK_BYTES, 8);
            away.copyFrom(allowed);
            long at = cpu / 8;
            away.set(ValueLayout.JAVA_BYTE, at, (byte) (away.get(ValueLayout.JAVA_BYTE, at) & ~(1 << (cpu % 8))));
            boolean other = false;
            for (long i = 0; i < MASK_BYTES && !other; i++) {
                other = away.get(ValueLayout.JAVA_BYTE, i) != 0;
            }
            if (!other || (int) SET_AFFINITY.invokeExact(0, MASK_BYTES, away) != 0) {
                return false;
            }
            whileAway.run();
            if ((int) SET_AFFINITY.invokeExact(0, MASK_BYTES, allowed) != 0) {
                // e.g. the cgroup's CPUs changed in between: try once more, else stay where the kernel put us
                int ignored = (int) SET_AFFINITY.invokeExact(0, MASK_BYTES, allowed);
            }
            return true;
        } catch (Throwable e) {
            return false;
        }
    }

    /** True when {@link #current()} can answer. */
    public static boolean available() {
        return GET_CPU != null;
    }

    /** The calling thread's CPU, or -1 when unknown. */
    public static int current() {
        if (GET_CPU == null) {
            return -1;
        }
        try {
            return (int) GET_CPU.invokeExact();
        } catch (Throwable e) {
            return -1;
        }
    }
}
