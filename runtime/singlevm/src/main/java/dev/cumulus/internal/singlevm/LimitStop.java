package dev.cumulus.internal.singlevm;

import dev.cumulus.internal.launch.FailureReport;
import dev.cumulus.internal.launch.LaunchConfig;

import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ends the run when the program goes beyond a limit of the single-VM mode. Such a program cannot go on as one JVM
 * would (the thread that met the limit cannot do its work, and whoever waits for it would go on with a wrong result),
 * so the node where it happened fails the run as a node whose program failed does: it writes its failure report
 * ({@link FailureReport}: the cause says what was wrong, where, and what to do) for the launcher, which prints it once,
 * stops every node and returns this node's exit code, {@link #EXIT}; it fails the cluster (fail-stop: every node
 * stops, saying in one line that the program went beyond a limit on this node); and its process exits. The node's
 * program threads that end meanwhile tell nobody ({@link ProgramThreads}), so no joiner goes on without them.
 *
 * <p>Threads: any thread that meets a limit (a program thread, or the polling thread storing a write-back); the
 * first one stops the node, the others only get their error. Only a launched node stops ({@link #launchedNode}).
 */
final class LimitStop {
    /** The node's exit code, as when the program's {@code main} throws. */
    static final int EXIT = 1;
    /** How long the node waits for its failure to be on its way to the other nodes before it exits. */
    private static final long FAILURE_SEND_WAIT_MS = 1_000;

    private static final AtomicBoolean STOPPING = new AtomicBoolean();

    private LimitStop() {
    }

    /**
     * Reports that the program went beyond a limit on {@code space}'s node ({@code message}: what, where and what to
     * do), begins to stop the run, and returns the error for the calling thread to throw.
     */
    static SingleVmLimitError stop(ObjectSpace space, String message) {
        if (launchedNode() && STOPPING.compareAndSet(false, true)) {
            int node = space.nodeId();
            String cause = "a limit of the single-VM mode: " + message;
            if (!reported(node, cause)) {
                System.err.println("cumulus: node " + node + " stops the run, " + cause);
                System.err.flush();
            }
            SharedHeap heap = space.heap();
            heap.failRun("the program went beyond a limit of the single-VM mode on node " + node);
            Thread.ofPlatform().name("cumulus-limit-stop").start(() -> {
                try {
                    heap.awaitFailure(FAILURE_SEND_WAIT_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    System.exit(EXIT);
                }
            });
        }
        return new SingleVmLimitError(message);
    }

    /** True once the program went beyond a limit on this node: the run is ending. */
    static boolean stopping() {
        return STOPPING.get();
    }

    /**
     * True in a node JVM that {@code cumulus run} launched. Nodes that share a JVM (in-process tests of the heap) do not
     * stop it: there the error is only thrown to the thread that met the limit.
     */
    static boolean launchedNode() {
        Properties props = System.getProperties();
        return LaunchConfig.isPresent(props) && props.getProperty(LaunchConfig.LAUNCHER_PID) != null;
    }

    /** Writes the node's failure report for the launcher; false when it cannot be written. */
    private static boolean reported(int node, String cause) {
        return new FailureReport(node, node, cause).writeOnce(LaunchConfig.fromProperties(System.getProperties())
            .runDir());
    }
}
