package dev.cumulus.cli.launch;

import java.nio.file.Path;
import java.util.List;

/**
 * How a run ended.
 *
 * @param exitCode    what {@code cumulus run} exits with: 0, the code of the node where the failure began (3 when it
 *                    hung), 124 on timeout, 130 when the launcher itself was stopped, the status a single-VM
 *                    program passed to {@code System.exit}
 * @param ending      why the run ended
 * @param runId       the run's id
 * @param runDir      the run directory (JFR files, launch.properties)
 * @param driverDir   the Aeron directory the run used (deleted by now)
 * @param failedNode  the node where the failure began, or -1
 * @param stillRunning nodes that were running when the run ended on a timeout or a stop, and were stopped
 */
public record RunResult(int exitCode, Ending ending, String runId, Path runDir, String driverDir, int failedNode,
                        List<Integer> stillRunning) {
    /** The run's code when the node where the failure began did not exit on its own (it hung), as fail-stop's. */
    public static final int EXIT_NODE_HUNG = 3;
    public static final int EXIT_TIMEOUT = 124;
    public static final int EXIT_STOPPED = 130;

    /**
     * Why a run ended: every node's program ended with 0; a node failed; the run timed out; the launcher was stopped;
     * or a single-VM program called {@code System.exit} (the exit code is its status).
     */
    public enum Ending { ALL_SUCCEEDED, NODE_FAILED, TIMED_OUT, STOPPED, PROGRAM_EXITED }
}
