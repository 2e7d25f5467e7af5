package dev.cumulus.cli;

import dev.cumulus.analysis.AnalysisResult;
import dev.cumulus.analysis.CloudAnalyzer;
import dev.cumulus.analysis.Finding;
import dev.cumulus.analysis.FindingFormatter;
import dev.cumulus.analysis.Severity;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code cumulus run} checks the program's cloud classes before it starts anything: a violation of rules
 * CUM101-CUM120 is reported compiler-style and the run does not start. Only the user's class directories are
 * checked (jars are libraries; the agent still checks every cloud class at load time).
 */
final class RestrictionPreCheck {
    private RestrictionPreCheck() {
    }

    /** True when no error was found; otherwise prints the findings and a one-line verdict to {@code err}. */
    static boolean passes(String classpath, PrintStream err) {
        List<Path> dirs = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (!entry.isBlank() && Files.isDirectory(Path.of(entry))) {
                dirs.add(Path.of(entry).toAbsolutePath());
            }
        }
        if (dirs.isEmpty()) {
            return true;
        }
        AnalysisResult result;
        try (CloudAnalyzer analyzer = CloudAnalyzer.forClasspath(dirs)) {
            result = analyzer.analyzeAll();
        }
        if (!result.hasErrors()) {
            return true;
        }
        List<Finding> errors = result.findings().stream().filter(f -> f.severity() == Severity.ERROR).toList();
        err.print(FindingFormatter.formatAll(errors));
        err.println("cumulus run: " + errors.size() + " error" + (errors.size() == 1 ? "" : "s")
            + " in cloud classes; nothing was started (fix them, see docs/rules, or pass --no-check)");
        return false;
    }
}
