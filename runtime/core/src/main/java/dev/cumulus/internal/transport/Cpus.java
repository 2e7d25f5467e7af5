package dev.cumulus.internal.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/** The calling thread's scheduling policy (glibc's {@code sched_setscheduler}, through the JDK's foreign function API). */
public final class Cpus {
    private static final MethodHandle SET_SCHEDULER = setScheduler();
    /** Linux's {@code SCHED_BATCH} policy number. */
    private static final int SCHED_BATCH = 3;

    private Cpus() {
    }

    /** The downcall, or null off Linux or without native access (callers do without). */
    private static MethodHandle setScheduler() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find("sched_setscheduler").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS));
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
}
