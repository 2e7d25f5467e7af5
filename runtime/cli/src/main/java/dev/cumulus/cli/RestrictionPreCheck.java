package dev.cumulus.cli;

import dev.cumulus.analysis.AnalysisResult;
import dev.cumulus.analysis.ClassSource;
import dev.cumulus.analysis.CloudAnalyzer;
import dev.cumulus.analysis.Finding;
import dev.cumulus.analysis.FindingFormatter;
import dev.cumulus.analysis.Severity;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code cumulus run} checks the program's cloud classes before it starts anything: a violation of rules
 * CUM101-CUM120, or a class file or jar that cannot be read, is reported compiler-style and the run does not start.
 * Only the user's class directories are analysed (jars are libraries; the agent still checks every class at load
 * time), but the jars are read when analysed code calls into them, as the agent reads them at run time, so both give
 * the same verdict. A {@code --single-vm} run is checked against the single-VM rules too (CUM201-CUM207): their
 * warnings are printed and the run starts; an error (a native method, which the agent would refuse) stops it.
 */
final class RestrictionPreCheck {
    private RestrictionPreCheck() {
    }

    /**
     * True when no error was found; otherwise prints the findings and a one-line verdict to {@code err}. With
     * {@code singleVm}, the single-VM rules' warnings are printed to {@code err} either way.
     */
    static boolean passes(String classpath, PrintStream err, boolean singleVm) {
        List<Path> entries = new ArrayList<>();
        Set<Path> dirs = new HashSet<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (entry.isBlank() || !Files.exists(Path.of(entry))) {
                continue;
            }
            Path p = Path.of(entry).toAbsolutePath();
            entries.add(p);
            if (Files.isDirectory(p)) {
                dirs.add(p);
            }
        }
        if (dirs.isEmpty()) {
            return true;
        }
        AnalysisResult result;
        try (CloudAnalyzer analyzer = new CloudAnalyzer(ClassSource.classpath(entries, dirs), singleVm)) {
            result = analyzer.analyzeAll();
        }
        err.print(FindingFormatter.formatAll(result.findings().stream()
            .filter(f -> f.severity() != Severity.ERROR && f.ruleId().startsWith("CUM2")).toList()));
        if (!result.hasErrors()) {
            return true;
        }
        result.unreadable().forEach(u -> err.println(u.format()));
        List<Finding> errors = result.findings().stream().filter(f -> f.severity() == Severity.ERROR).toList();
        err.print(FindingFormatter.formatAll(errors));
        long n = result.errorCount();
        err.println("cumulus run: " + n + " error" + (n == 1 ? "" : "s")
            + " in the program's classes; nothing was started (fix them, see docs/rules, or pass --no-check)");
        return false;
    }
}
