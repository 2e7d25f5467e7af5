package dev.cumulus.internal.singlevm;

import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.launch.NodeRuntime;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * What every node of {@code cumulus run --single-vm} runs (the agent weaves the program's classes,
 * {@code -Dcumulus.singleVm=true}): joins the cluster (whose heap opened the node's {@link ObjectSpace}), and on node 0
 * runs the program's {@code main}; the other nodes serve the shared heap and run the threads the program starts on
 * them. The
 * run ends when {@code main} and every thread the program started (on any node) have ended; the exit code is
 * {@code main}'s (1 if it threw, as {@code java} gives), the status of the program's {@code System.exit}
 * ({@link ProgramExit}), or {@link LimitStop#EXIT} once the program went beyond a limit of the single-VM mode on this
 * node.
 */
public final class SingleVmMain {
    private SingleVmMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: SingleVmMain MAIN [ARGS...] (started by cumulus run --single-vm)");
            System.exit(2);
        }
        int code;
        try {
            code = run(args[0], Arrays.copyOfRange(args, 1, args.length));
        } catch (RuntimeException e) {
            if (ProgramExit.exitKnown()) {
                ProgramExit.awaitEnd(); // the program called System.exit: the other nodes' leaving broke the barrier
            }
            if (LimitStop.stopping()) {
                code = LimitStop.EXIT; // the cluster failed because this node stops the run (reported by LimitStop)
            } else if (e instanceof RunEndedElsewhere) {
                code = NodeRuntime.EXIT_CLUSTER_FAILED;
            } else {
                throw e;
            }
        }
        if (ProgramExit.underway()) {
            ProgramExit.awaitEnd(); // the program's System.exit decides the status
        }
        System.out.flush();
        System.exit(LimitStop.stopping() ? LimitStop.EXIT : code);
    }

    private static int run(String mainClass, String[] args) throws Exception {
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        try (Cluster cluster = Cluster.join()) {
            ObjectSpace space = ObjectSpace.current(); // opened with the node's heap (SharedHeapProvider)
            space.bind();
            int code = 0;
            if (cluster.nodeId() == 0) {
                space.threads().main(Thread.currentThread());
                DumpSignal.install(space, cluster.size());
                ProgramPriority.lower();
                code = runMain(mainClass, args, loader);
                space.threads().awaitQuiet();
                if (code != 0) {
                    ProgramExit.mainThrew(cluster.nodeId(), code);
                }
            }
            try {
                cluster.barrier();
            } catch (CumulusException e) {
                if (cluster.nodeId() == 0 || e instanceof NodeFailedException) {
                    throw e; // a failed cluster: the node's failure listener has said why and ends the node
                }
                if (ProgramExit.exitKnown() || LimitStop.stopping()) {
                    throw e; // node 0 left because the program exits (or the run stops): main ends the node quietly
                }
                System.err.println("cumulus: node " + cluster.nodeId() + " stops: " + e.getMessage());
                System.err.flush();
                throw new RunEndedElsewhere(e);
            }
            space.close();
            return code;
        }
    }

    /**
     * A node other than 0 cannot meet node 0 at the run's last barrier: node 0 left (its process is ending: a signal,
     * the launcher stopping the run at its timeout or on Ctrl-C, nodes stopped one after the other), so the program's
     * one JVM is gone and this node ends too, with fail-stop's code. Its one line says why, in place of the barrier's stack trace; the launcher reports the run.
     */
    private static final class RunEndedElsewhere extends RuntimeException {
        RunEndedElsewhere(CumulusException cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    private static int runMain(String mainClass, String[] args, ClassLoader loader) throws Exception {
        Method main;
        try {
            main = Class.forName(mainClass, true, loader).getMethod("main", String[].class);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            System.err.println("cumulus run --single-vm: cannot find public static void main(String[]) in "
                + mainClass + " on the classpath: " + e);
            return 1;
        }
        if (!Modifier.isStatic(main.getModifiers())) {
            System.err.println("cumulus run --single-vm: " + mainClass + ".main is not static");
            return 1;
        }
        Thread.UncaughtExceptionHandler runtime = Thread.getDefaultUncaughtExceptionHandler();
        try {
            main.invoke(null, (Object) args);
            return 0;
        } catch (InvocationTargetException e) {
            if (ProgramExit.exitKnown()) {
                ProgramExit.awaitEnd(); // main broke on another node's exit: on one JVM it would simply stop
            }
            if (LimitStop.stopping()) {
                return LimitStop.EXIT; // whatever main threw, LimitStop reported why the run ends
            }
            uncaught(e.getCause(), runtime);
            return LimitStop.stopping() ? LimitStop.EXIT : 1;
        }
    }

    /**
     * What the java launcher does with an exception {@code main} threw: the main thread's uncaught-exception handler gets
     * it — one the program set on the thread, else the default handler the program set (which may call
     * {@code System.exit}) — or, when the program set neither, {@code Exception in thread "main"} and the trace are
     * printed as the thread group prints them ({@code runtime}, the node's own default handler, would stop the node as
     * failed). What a handler throws is reported as the JVM reports it.
     */
    private static void uncaught(Throwable thrown, Thread.UncaughtExceptionHandler runtime) {
        Thread thread = Thread.currentThread();
        Thread.UncaughtExceptionHandler own = thread.getUncaughtExceptionHandler();
        Thread.UncaughtExceptionHandler byDefault = Thread.getDefaultUncaughtExceptionHandler();
        Thread.UncaughtExceptionHandler handler = own != thread.getThreadGroup() ? own
            : byDefault != runtime ? byDefault : null;
        if (handler == null) {
            System.err.print("Exception in thread \"" + thread.getName() + "\" ");
            thrown.printStackTrace();
            return;
        }
        try {
            handler.uncaughtException(thread, thrown);
        } catch (RuntimeException | Error e) {
            System.err.println("Exception: " + e.getClass().getName()
                + " thrown from the UncaughtExceptionHandler in thread \"" + thread.getName() + "\"");
        }
    }
}
