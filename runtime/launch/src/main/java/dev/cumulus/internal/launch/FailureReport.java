package dev.cumulus.internal.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * What a launched node tells its launcher about the failure it saw first: the node where it began ({@code origin})
 * and what happened there ({@code cause}). Node {@code reporter} writes it once, as {@code RUN_DIR/node-<i>.failure}
 * (properties; written to a temporary file and renamed, so a reader never sees part of one), before its process
 * ends; the launcher reads it to name the node where a failure began rather than the first node to exit.
 *
 * @param reporter the node that wrote the report
 * @param origin   the node where the failure began ({@code reporter} itself when its own program failed)
 * @param cause    what happened, in words, as the reporter knows it
 */
public record FailureReport(int reporter, int origin, String cause) {
    /** The report's file name for node {@code node}: {@code node-<i>.failure}. */
    public static String fileName(int node) {
        return "node-" + node + ".failure";
    }

    /** Writes the report into {@code runDir} unless this node already wrote one; false if it could not. */
    public boolean writeOnce(Path runDir) {
        Path file = runDir.resolve(fileName(reporter));
        if (Files.exists(file)) {
            return true;
        }
        Properties p = new Properties();
        p.setProperty("reporter", Integer.toString(reporter));
        p.setProperty("origin", Integer.toString(origin));
        p.setProperty("cause", cause);
        return ReportFile.write(file, p, "cumulus node failure report");
    }

    /** Node {@code node}'s report in {@code runDir}, if it wrote one (an unreadable one counts as none). */
    public static Optional<FailureReport> read(Path runDir, int node) {
        return ReportFile.read(runDir.resolve(fileName(node))).flatMap(p -> {
            try {
                return Optional.of(new FailureReport(Integer.parseInt(p.getProperty("reporter")),
                    Integer.parseInt(p.getProperty("origin")), p.getProperty("cause", "")));
            } catch (RuntimeException e) {
                return Optional.empty(); // not one of ours
            }
        });
    }
}
