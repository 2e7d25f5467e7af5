package dev.cumulus.cli.launch;

import dev.cumulus.internal.launch.FailureReport;

import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Where a run's failure began: not simply the first node to exit (often a healthy node that detected the failure and
 * stopped), but the node that node's failure report names ({@link FailureReport}). A fail-stop names the node where
 * it began to every peer, so one report suffices; reports are not followed further (the failed node's own view may
 * be of a later event, such as its peers going silent). A node without a report (a program that never joined, or
 * whose own exit began the trouble) is where it began.
 */
final class FailureOrigin {
    private FailureOrigin() {
    }

    /**
     * @param firstFailed the first node that exited non-zero on its own
     * @param reports     each node's report, if it wrote one
     * @param size        the number of nodes (a report naming another node is ignored)
     * @return the node where the failure began
     */
    static int of(int firstFailed, IntFunction<Optional<FailureReport>> reports, int size) {
        Optional<FailureReport> report = reports.apply(firstFailed);
        if (report.isEmpty()) {
            return firstFailed;
        }
        int origin = report.get().origin();
        return origin >= 0 && origin < size ? origin : firstFailed;
    }
}
