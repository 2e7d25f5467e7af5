package dev.cumulus.internal.launch;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * What a node of a single-VM run tells its launcher when it ends because the program called {@code System.exit}: the
 * program's exit status, which ends every node as it ends the one JVM the program believes it runs on. Node
 * {@code reporter} writes it as {@code RUN_DIR/node-<i>.exit} (properties; written to a temporary file and renamed, so
 * a reader never sees part of one) before its process ends; the node where the program called {@code exit} writes it
 * before it tells the others. The launcher reads it when a node ends, and then returns {@code status} without calling
 * the run failed; a node that wrote one writes no {@link FailureReport}.
 *
 * @param reporter the node that wrote the report
 * @param origin   the node where the program called {@code System.exit}
 * @param status   the status it passed
 */
public record ExitReport(int reporter, int origin, int status) {
    /** The report's file name for node {@code node}: {@code node-<i>.exit}. */
    public static String fileName(int node) {
        return "node-" + node + ".exit";
    }

    /** Writes the report into {@code runDir}; false if it could not. */
    public boolean write(Path runDir) {
        Properties p = new Properties();
        p.setProperty("reporter", Integer.toString(reporter));
        p.setProperty("origin", Integer.toString(origin));
        p.setProperty("status", Integer.toString(status));
        return ReportFile.write(runDir.resolve(fileName(reporter)), p, "cumulus program exit");
    }

    /** Node {@code node}'s report in {@code runDir}, if it wrote one (an unreadable one counts as none). */
    public static Optional<ExitReport> read(Path runDir, int node) {
        return ReportFile.read(runDir.resolve(fileName(node))).flatMap(p -> {
            try {
                return Optional.of(new ExitReport(Integer.parseInt(p.getProperty("reporter")),
                    Integer.parseInt(p.getProperty("origin")), Integer.parseInt(p.getProperty("status"))));
            } catch (RuntimeException e) {
                return Optional.empty(); // not one of ours
            }
        });
    }

    /** The first report any of nodes {@code 0 .. size - 1} wrote into {@code runDir}, by node id. */
    public static Optional<ExitReport> first(Path runDir, int size) {
        for (int node = 0; node < size; node++) {
            Optional<ExitReport> r = read(runDir, node);
            if (r.isPresent()) {
                return r;
            }
        }
        return Optional.empty();
    }
}
