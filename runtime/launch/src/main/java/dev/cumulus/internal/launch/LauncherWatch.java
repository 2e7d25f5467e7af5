package dev.cumulus.internal.launch;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Ends a launched node at once when its launcher is gone (killed with SIGKILL, crashed): the launcher hosts the run's
 * media driver and reads the node's output, so a node without it can only do harm (it would run on for the driver
 * timeout, its output lost). Two signals, either enough:
 * <ul>
 *   <li>the node's stdin is a pipe the launcher holds open (it writes the run's secret first, {@link NodeSecret},
 *   read before this watch starts; later lines only over ssh, below); a daemon thread
 *   reads it, and its end of file means the launcher process is gone ({@code System.in} is replaced by an empty
 *   stream for the program, {@link EmptyStdin}, which says so on its first read);</li>
 *   <li>on Linux, {@code prctl(PR_SET_PDEATHSIG, SIGKILL)} through the FFM API: the kernel kills the node when the
 *   launcher's thread that started it ends (it runs the whole run), also when the node is stopped or hangs.</li>
 * </ul>
 * Active only in a node started by {@code cumulus run}, which sets {@code cumulus.launcher.pid} to its own pid, or to
 * {@value #OVER_SSH} for a node it started on another host through {@code ssh}: there the node's parent is the ssh
 * server's session, which ends (and closes the node's stdin) when the launcher's ssh client does; or to
 * {@value #OVER_SRUN} for a node it started as a step of a Slurm job through {@code srun}: there the node's parent is
 * Slurm's step daemon, and its stdin is forwarded by the launcher's srun, which ends it when its own stdin ends (the
 * launcher's pipe) or srun is killed. Started by the
 * Cumulus agent before {@code main}, and again (a no-op) by {@code Cluster.join()}.
 *
 * <p>Over ssh (and srun) a signal cannot reach the node, so the launcher asks it to stop with the line {@value #STOP}
 * on its stdin: the node then ends as on SIGTERM (shutdown hooks and the JFR dump run), exit code {@value #EXIT_STOPPED}.
 */
public final class LauncherWatch {
    /** The launcher's pid, set by the launcher on every node's command line. */
    /** Exit code of a node whose launcher is gone (nobody reads it: the launcher is gone). */
    public static final int EXIT_LAUNCHER_GONE = 3;
    /** {@code cumulus.launcher.pid}'s value for a node started through ssh on another host. */
    public static final String OVER_SSH = "ssh";
    /** The pid property's value for a node started through srun as a step of the Slurm job the launcher is in. */
    public static final String OVER_SRUN = "srun";
    /** The line on a node's stdin that asks it to stop as on SIGTERM. */
    public static final String STOP = "stop";
    /** Exit code of a node stopped by {@value #STOP}: the code of a JVM ended by SIGTERM. */
    public static final int EXIT_STOPPED = 143;
    private static final int PR_SET_PDEATHSIG = 1;
    private static final long SIGKILL = 9;
    private static boolean started;

    private LauncherWatch() {
    }

    /** Starts watching when this process was started by {@code cumulus run}; idempotent. */
    public static synchronized void startIfLaunched() {
        String pid = System.getProperty(LaunchConfig.LAUNCHER_PID);
        if (started || pid == null || pid.isBlank()) {
            return;
        }
        started = true;
        try {
            NodeSecret.get(); // the first line is the run's secret: read it before this watch reads the rest
        } catch (dev.cumulus.CumulusException e) {
            System.err.println("cumulus: node " + System.getProperty(LaunchConfig.NODE_ID, "?")
                + " cannot start: " + e.getMessage());
            Runtime.getRuntime().halt(EXIT_LAUNCHER_GONE);
        }
        boolean overSsh = pid.trim().equals(OVER_SSH) || pid.trim().equals(OVER_SRUN);
        long launcher = -1;
        if (!overSsh) {
            try {
                launcher = Long.parseLong(pid.trim());
            } catch (NumberFormatException e) {
                System.err.println("cumulus: -D" + LaunchConfig.LAUNCHER_PID + "=" + pid + " is neither a pid nor '"
                    + OVER_SSH + "' nor '" + OVER_SRUN + "'; this node does not watch its launcher");
                return;
            }
        }
        killedWithParent();
        if (!overSsh && !parentIs(launcher)) {
            launcherGone(); // it died before the watch began
        }
        InputStream stdin = new FileInputStream(FileDescriptor.in);
        System.setIn(new EmptyStdin(System.getProperty(LaunchConfig.NODE_ID, "?"), System.err));
        Thread watch = new Thread(() -> {
            StringBuilder line = new StringBuilder();
            try {
                int b;
                while ((b = stdin.read()) >= 0) {
                    if (b != '\n') {
                        if (line.length() < 64) {
                            line.append((char) b);
                        }
                        continue;
                    }
                    if (overSsh && line.toString().trim().equals(STOP)) {
                        System.exit(EXIT_STOPPED); // as SIGTERM: hooks and the JFR dump run; this thread waits here
                    }
                    line.setLength(0);
                }
            } catch (IOException e) {
                // the pipe broke: the same news
            }
            launcherGone();
        }, "cumulus-launcher-watch");
        watch.setDaemon(true);
        watch.start();
    }

    private static boolean parentIs(long launcher) {
        Optional<Long> parent = ProcessHandle.current().parent().map(ProcessHandle::pid);
        return parent.isEmpty() || parent.get() == launcher; // no parent to ask: rely on stdin
    }

    private static void launcherGone() {
        System.err.println("cumulus: node " + System.getProperty(LaunchConfig.NODE_ID, "?")
            + " stops: its launcher (cumulus run) is gone");
        Runtime.getRuntime().halt(EXIT_LAUNCHER_GONE);
    }

    /** On Linux: asks the kernel to SIGKILL this process when its parent ends. Best effort; stdin still watches. */
    private static void killedWithParent() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return;
        }
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle prctl = linker.downcallHandle(linker.defaultLookup().find("prctl").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                Linker.Option.firstVariadicArg(1));
            int rc = (int) prctl.invokeExact(PR_SET_PDEATHSIG, SIGKILL);
            if (rc != 0) {
                System.err.println("cumulus: prctl(PR_SET_PDEATHSIG) failed; the node relies on stdin to notice its "
                    + "launcher's end");
            }
        } catch (Throwable t) {
            System.err.println("cumulus: no parent-death signal (" + t + "); the node relies on stdin to notice its "
                + "launcher's end");
        }
    }
}
