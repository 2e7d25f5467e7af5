package dev.cumulus.internal.node;

import dev.cumulus.NodeFailedException;

import java.util.function.Consumer;

/**
 * How a launched node's process ends, and what it tells its peers and its launcher about it. A node where a failure
 * begins says so, and a node that fails because of another names that one:
 * <ul>
 *   <li>the program's {@code main} throws: the node fails (fail-stop for every peer) naming the exception, unless the
 *   trouble began elsewhere (a failed peer, a peer that left); the JVM then exits with 1 as usual;</li>
 *   <li>a {@link NodeFailedException} escapes the program: exit with fail-stop's code, quietly (the failure was
 *   reported in one line);</li>
 *   <li>the process exits while {@code main} still runs ({@code System.exit}, a signal): its goodbye says so
 *   ({@link Leaving#EXITING}), never "it called close()";</li>
 *   <li>{@code main} returned: goodbye ({@link Leaving#ENDED}) if {@code close()} did not say it already.</li>
 * </ul>
 * In every failing case the node hands the first cause it saw to its launcher's reporter (runtime/launch writes it
 * into the run directory) before the process ends. Runs on the failing thread, the JVM's shutdown hook thread and the
 * agent thread (the cluster failure); reports are written once, under this object's lock.
 */
public final class LaunchedNodeEnd {
    /** How long a node whose program threw waits for its failure to be on its way to the peers. */
    private static final long FAILURE_SEND_WAIT_MS = 1_000;

    private final ClusterNode node;
    private final Consumer<FailureCause> reporter;
    private final Thread mainThread;
    private final int clusterFailedExit;
    private volatile boolean programThrew;
    private boolean reported; // guarded by this

    /**
     * @param reporter          tells the launcher where a failure began, or {@code null} for none (not started by
     *                          the launcher)
     * @param mainThread        the thread that runs the program's {@code main}
     * @param clusterFailedExit the exit code of a node whose program a {@link NodeFailedException} ended
     */
    public LaunchedNodeEnd(ClusterNode node, Consumer<FailureCause> reporter, Thread mainThread,
                           int clusterFailedExit) {
        this.node = node;
        this.reporter = reporter;
        this.mainThread = mainThread;
        this.clusterFailedExit = clusterFailedExit;
    }

    /** Installs the default uncaught-exception handler and the shutdown hook. */
    public void install() {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> onUncaught(thread, error, previous));
        Runtime.getRuntime().addShutdownHook(new Thread(this::onShutdown, "cumulus-node-shutdown"));
    }

    /** The cluster failed (agent thread): report where it began. */
    public void onClusterFailure(NodeFailedException failure) {
        FailureCause c = node.firstCause();
        report(c != null ? c : new FailureCause(failure.nodeId(), failure.getMessage()));
    }

    private void onUncaught(Thread thread, Throwable error, Thread.UncaughtExceptionHandler previous) {
        if (error instanceof NodeFailedException f) {
            onClusterFailure(f);
            System.exit(clusterFailedExit);
            return;
        }
        if (previous != null) {
            previous.uncaughtException(thread, error);
        } else {
            System.err.print("Exception in thread \"" + thread.getName() + "\" ");
            error.printStackTrace();
        }
        if (thread == mainThread) {
            programThrew = true;
            onProgramThrew(error);
        }
    }

    private void onProgramThrew(Throwable error) {
        FailureCause c = node.firstCause();
        if (c != null && c.origin() != node.nodeId()) {
            report(c); // it threw because the trouble began elsewhere
            return;
        }
        String cause = "node " + node.nodeId() + "'s program threw " + error;
        report(new FailureCause(node.nodeId(), cause));
        if (node.failure() == null && !node.hasLeft()) {
            node.failSelfAndWait(cause, FAILURE_SEND_WAIT_MS);
        }
    }

    private void onShutdown() {
        if (mainThread.isAlive() && !programThrew && !node.hasLeft() && node.failure() == null) {
            FailureCause c = node.firstCause();
            report(c != null ? c : new FailureCause(node.nodeId(), "node " + node.nodeId()
                + "'s process exited while its program ran (System.exit or a signal)"));
            node.leave(Leaving.EXITING);
        } else {
            node.leave(Leaving.ENDED);
        }
    }

    private synchronized void report(FailureCause cause) {
        if (reported || reporter == null) {
            return;
        }
        reported = true;
        reporter.accept(cause);
    }
}
