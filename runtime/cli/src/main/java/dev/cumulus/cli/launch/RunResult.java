package dev.cumulus.cli.launch;

import java.nio.file.Path;
import java.util.List;

/**
 * How a run ended.
 *
 * @param exitCode    what {@code cumulus run} exits with: 0, the first failing node's code, 124 on timeout, 130 when
 *                    the launcher itself was stopped
 * @param ending      why the run ended
 * @param runId       the run's id
 * @param runDir      the run directory (JFR files, launch.properties)
 * @param driverDir   the Aeron directory the run used (deleted by now)
 * @param failedNode  the first node that failed on its own, or -1
 * @param stillRunning nodes that were running when the run ended on a timeout or a stop, and were stopped
 */
public record RunResult(int exitCode, Ending ending, String runId, Path runDir, String driverDir, int failedNode,
                        List<Integer> stillRunning) {
    public static final int EXIT_TIMEOUT = 124;
    public static final int EXIT_STOPPED = 130;

    /** Why a run ended. */
    public enum Ending { ALL_SUCCEEDED, NODE_FAILED, TIMED_OUT, STOPPED }
}
