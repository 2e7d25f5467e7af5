package dev.cumulus.cli;

import dev.cumulus.profiler.report.HtmlReport;
import dev.cumulus.profiler.report.JsonReport;
import dev.cumulus.profiler.report.RunProfile;
import dev.cumulus.profiler.report.TextReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code cumulus profile RUN_DIR}: the per-object report of a finished run, as text or JSON, plus an HTML page. */
@Command(name = "profile",
    mixinStandardHelpOptions = true,
    description = {
        "Report a profiled run (cumulus run --profile) from its node-<i>.jfr files.",
        "The report covers remote objects, clouds and the sequencer, tuple elements, shared arrays and partitions, "
            + "and per node totals. Prints text tables (or JSON with --json) and writes a self-contained HTML page "
            + "with charts (default RUN_DIR/profile.html).",
        ""},
    footer = {
        "",
        "Exit code: 0 when the report was made (a missing recording is a warning in it); 2 when RUN_DIR is not a "
            + "directory; 1 when the HTML page cannot be written.",
        "",
        "Examples:",
        "  cumulus profile cumulus-runs/250605-101500-3fa9",
        "  cumulus profile --json --html /tmp/p.html cumulus-runs/250605-101500-3fa9"})
final class ProfileCommand implements Callable<Integer> {
    @ParentCommand
    CumulusCli cli;

    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "The run directory (cumulus run prints it).")
    Path runDir;

    @Option(names = "--html", paramLabel = "FILE", description = "Where to write the HTML page (default RUN_DIR/profile.html).")
    Path html;

    @Option(names = "--no-html", description = "Do not write the HTML page.")
    boolean noHtml;

    @Option(names = "--json", description = "Print one JSON object (for editors and scripts) instead of the tables.")
    boolean json;

    @Override
    public Integer call() {
        if (!Files.isDirectory(runDir)) {
            cli.err().println("cumulus profile: " + runDir + (Files.exists(runDir) ? " is not a directory" : " does not exist")
                + "; give a run directory, e.g. cumulus-runs/<runId> (cumulus run prints it at the end)");
            return CumulusCli.EXIT_USAGE;
        }
        RunProfile profile = RunProfile.read(runDir);
        if (json) {
            cli.out().println(JsonReport.render(profile));
            cli.out().flush();
        } else {
            TextReport.print(profile, cli.out());
        }
        if (noHtml) {
            return 0;
        }
        Path file = html != null ? html : runDir.resolve("profile.html");
        try {
            HtmlReport.write(profile, file);
        } catch (IOException e) {
            cli.err().println("cumulus profile: cannot write " + file + ": " + e.getMessage());
            return CumulusCli.EXIT_ERROR;
        }
        cli.err().println("cumulus profile: wrote " + file.toAbsolutePath().normalize());
        return 0;
    }
}
