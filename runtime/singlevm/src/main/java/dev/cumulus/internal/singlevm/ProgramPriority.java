package dev.cumulus.internal.singlevm;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The program's threads run below the node's own threads: Linux's nice value {@value #NICE} for each thread that runs
 * program code (set by the thread itself, which any user may do). A node's heap serves the other nodes' fetches,
 * write-backs and monitor requests on its polling thread; among dozens of busy program threads on a few cores that
 * thread, at the default priority of a thread of the same weight, waited its turn behind every one of them, and a
 * request of another node waited seconds. With the program's threads lighter the polling thread (and the heartbeat,
 * the failure detector) runs when it has work, and the program still has every core it leaves idle. Program threads
 * of all nodes have the same value, so none is favoured. Best effort: off Linux or without native access nothing
 * changes.
 */
final class ProgramPriority {
    /** The program threads' nice value (0 is the default; higher runs less when the CPU is contended). */
    static final int NICE = 10;
    private static final int PRIO_PROCESS = 0; // with a thread id: that thread only (Linux)
    private static final MethodHandle GETTID = glibc("gettid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
    private static final MethodHandle SETPRIORITY = glibc("setpriority",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    private ProgramPriority() {
    }

    /** Lowers the calling thread to the program threads' priority; false when it could not. */
    static boolean lower() {
        if (GETTID == null || SETPRIORITY == null) {
            return false;
        }
        try {
            int tid = (int) GETTID.invokeExact();
            return (int) SETPRIORITY.invokeExact(PRIO_PROCESS, tid, NICE) == 0;
        } catch (Throwable e) {
            return false;
        }
    }

    private static MethodHandle glibc(String name, FunctionDescriptor signature) {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find(name).orElseThrow(), signature);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }
}
