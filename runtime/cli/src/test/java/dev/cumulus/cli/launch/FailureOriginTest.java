package dev.cumulus.cli.launch;

import dev.cumulus.internal.launch.FailureReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class FailureOriginTest {
    @TempDir
    Path runDir;

    @Test
    void theFirstFailedNodesReportNamesTheOriginElseItIsTheOrigin() {
        Map<Integer, FailureReport> reports = Map.of(
            0, new FailureReport(0, 2, "node 2 has not been heard from"),
            2, new FailureReport(2, 0, "node 0 has not been heard from (later, when node 0 had stopped)"),
            3, new FailureReport(3, 99, "not a node of this run"));
        assertEquals(2, FailureOrigin.of(0, n -> Optional.ofNullable(reports.get(n)), 4), "one report, not a chain");
        assertEquals(1, FailureOrigin.of(1, n -> Optional.ofNullable(reports.get(n)), 4), "no report: it began there");
        assertEquals(3, FailureOrigin.of(3, n -> Optional.ofNullable(reports.get(n)), 4), "a report naming no node");
    }

    @Test
    void aReportIsWrittenOnceAndReadBack() {
        assertTrue(new FailureReport(1, 2, "first cause\nwith a newline").writeOnce(runDir));
        assertTrue(new FailureReport(1, 0, "a later cause").writeOnce(runDir));
        assertEquals(Optional.of(new FailureReport(1, 2, "first cause\nwith a newline")), FailureReport.read(runDir, 1));
        assertEquals(Optional.empty(), FailureReport.read(runDir, 0));
    }
}
