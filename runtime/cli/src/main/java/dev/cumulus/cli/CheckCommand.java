package dev.cumulus.cli;

import dev.cumulus.analysis.Access;
import dev.cumulus.analysis.AnalysisResult;
import dev.cumulus.analysis.ClassSource;
import dev.cumulus.analysis.CloudAnalyzer;
import dev.cumulus.analysis.Finding;
import dev.cumulus.analysis.FindingFormatter;
import dev.cumulus.analysis.MethodClassification;
import dev.cumulus.analysis.RelatedLocation;
import dev.cumulus.analysis.Rules;
import dev.cumulus.analysis.Severity;
import dev.cumulus.analysis.UnreadableInput;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code cumulus check}: the replication restrictions (CUM101–CUM120) and the read/write classification over a
 * classpath, with the same analysis the agent runs at load time ({@link CloudAnalyzer}); with {@code --single-vm} also
 * the single-VM rules (CUM201–CUM207) for a program run with {@code cumulus run --single-vm}. A class file or jar that
 * cannot be read is an error naming the file (its classes were not checked). Exit code 1 if any error, 0 otherwise,
 * 2 for bad usage.
 */
@Command(name = "check",
    mixinStandardHelpOptions = true,
    description = {
        "Check the cloud classes (Cloud.Root / Cloud.Node) on a classpath against the replication restrictions "
            + "(CUM101-CUM120, docs/rules/) and classify their methods as read or write, as the agent does at load time.",
        "With --single-vm, also check what a program run with 'cumulus run --single-vm' must not do (CUM201-CUM207).",
        "Prints compiler-style lines (File.java:12: error CUM104 [...] ...), errors first, then a summary line.",
        "A class file or jar that cannot be read is an error naming it (path: error: cannot read ...).",
        "Exit code: 0 no errors (warnings allowed), 1 errors, 2 bad usage."})
final class CheckCommand implements Callable<Integer> {
    enum Format { text, json }

    @ParentCommand
    CumulusCli cli;

    @Spec
    CommandSpec spec;

    @Option(names = {"-cp", "--classpath"}, paramLabel = "CP", required = true,
        description = "Class directories and jars to check, joined with the path separator (':' on Unix); "
            + "'dir/*' means the jars in dir. Every class on it is analysed.")
    String classpath;

    @Option(names = "--classify",
        description = "Also list every cloud method as R (read: runs locally) or W (write: broadcast) with the reason.")
    boolean classify;

    @Option(names = "--single-vm",
        description = "Also check the single-VM rules (CUM201-CUM207): JDK objects escaping to threads that may run on "
            + "other nodes, native methods, JDK thread pools, state in enums and interfaces (per node there), locks "
            + "on strings and boxes.")
    boolean singleVm;

    @Option(names = "--format", paramLabel = "text|json", defaultValue = "text",
        description = "text (default; compiler-style lines) or json (one array of findings and methods, for editors).")
    Format format;

    @Override
    public Integer call() {
        List<Path> entries = entries();
        long classes;
        try (ClassSource source = ClassSource.classpath(entries)) {
            classes = source.allClassNames().count();
        }
        AnalysisResult result;
        try (CloudAnalyzer analyzer = CloudAnalyzer.forClasspath(entries, singleVm)) {
            result = analyzer.analyzeAll();
        }
        List<Finding> findings = new ArrayList<>(result.findings());
        findings.sort(Comparator.comparing(Finding::severity).thenComparing(FindingFormatter.ORDER));
        List<MethodClassification> methods = classify ? result.classifications() : List.of();
        long errors = result.errorCount();
        long warnings = findings.stream().filter(f -> f.severity() != Severity.ERROR).count();
        String summary = count(errors, "error") + ", " + count(warnings, "warning") + " in " + count(classes, "class");
        PrintStream out = cli.out();
        if (format == Format.json) {
            out.println(json(result.unreadable(), findings, methods));
            cli.err().println(summary);
        } else {
            for (MethodClassification m : methods) {
                out.println(classificationLine(m));
            }
            for (UnreadableInput u : result.unreadable()) {
                out.println(u.format());
            }
            for (Finding f : findings) {
                out.println(FindingFormatter.format(f));
                for (RelatedLocation r : f.related()) {
                    out.println("    " + (r.sourceFile() != null ? r.sourceFile() : r.className().replace('/', '.'))
                        + (r.line() > 0 ? ":" + r.line() : "") + ": note: " + r.message());
                }
            }
            out.println(summary);
        }
        out.flush();
        return errors > 0 ? CumulusCli.EXIT_ERROR : 0;
    }

    /** The classpath entries; a usage error (exit 2) if it is empty or an entry does not exist. */
    private List<Path> entries() {
        List<Path> paths = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            if (entry.equals("*") || entry.endsWith(File.separator + "*")) {
                Path dir = Path.of(entry.substring(0, entry.length() - 1)).toAbsolutePath().normalize();
                try (Stream<Path> s = Files.list(dir)) {
                    s.filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar")).sorted()
                        .forEach(paths::add);
                } catch (IOException e) {
                    throw new ParameterException(spec.commandLine(), "classpath entry " + entry + " does not exist");
                }
                continue;
            }
            Path p = Path.of(entry).toAbsolutePath().normalize();
            if (!Files.exists(p)) {
                throw new ParameterException(spec.commandLine(), "classpath entry " + entry + " does not exist");
            }
            paths.add(p);
        }
        if (paths.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "the classpath is empty; give the class directories "
                + "or jars to check with -cp");
        }
        return paths;
    }

    private static String count(long n, String noun) {
        return n + " " + (n == 1 ? noun : noun.endsWith("s") ? noun + "es" : noun + "s");
    }

    /** {@code Stack.java:19: W corpus.classify.Stack.push(I)V: Stack.push() -> PUTFIELD Stack.top at Stack.java:20}. */
    static String classificationLine(MethodClassification m) {
        StringBuilder sb = new StringBuilder();
        sb.append(m.sourceFile() != null ? m.sourceFile() : m.className().replace('/', '.'));
        if (m.line() > 0) {
            sb.append(':').append(m.line());
        }
        sb.append(": ").append(m.access() == Access.WRITE ? 'W' : 'R').append(' ')
            .append(m.className().replace('/', '.')).append('.').append(m.methodName()).append(m.descriptor());
        if (!m.reasonChain().isEmpty()) {
            sb.append(": ").append(m.reason());
        }
        return sb.toString();
    }

    /**
     * The JSON array: one object per unreadable input ({@code "kind":"unreadable"}), per finding
     * ({@code "kind":"finding"}), then per method ({@code "kind":"method"}).
     */
    static String json(List<UnreadableInput> unreadable, List<Finding> findings, List<MethodClassification> methods) {
        StringBuilder sb = new StringBuilder("[");
        String sep = "\n  ";
        for (UnreadableInput u : unreadable) {
            sb.append(sep);
            sep = ",\n  ";
            sb.append("{\"kind\":\"unreadable\",\"severity\":\"error\",\"path\":").append(str(u.location()))
                .append(",\"message\":").append(str(u.reason())).append(",\"text\":").append(str(u.format()))
                .append('}');
        }
        for (Finding f : findings) {
            sb.append(sep);
            sep = ",\n  ";
            sb.append("{\"kind\":\"finding\",\"rule\":").append(str(f.ruleId()))
                .append(",\"severity\":").append(str(f.severity().label()))
                .append(",\"class\":").append(str(f.dottedClassName()))
                .append(",\"member\":").append(str(f.memberName()))
                .append(",\"descriptor\":").append(str(f.memberDescriptor()))
                .append(",\"file\":").append(str(f.sourceFile()))
                .append(",\"path\":").append(str(path(f.className(), f.sourceFile())))
                .append(",\"line\":").append(f.line())
                .append(",\"message\":").append(str(f.message()))
                .append(",\"hint\":").append(str(f.fixHint()))
                .append(",\"doc\":").append(str(Rules.byId(f.ruleId()).map(r -> r.docPath()).orElse(null)))
                .append(",\"text\":").append(str(FindingFormatter.format(f)))
                .append(",\"related\":[");
            String rsep = "";
            for (RelatedLocation r : f.related()) {
                sb.append(rsep);
                rsep = ",";
                sb.append("{\"class\":").append(str(r.className().replace('/', '.')))
                    .append(",\"member\":").append(str(r.memberName()))
                    .append(",\"file\":").append(str(r.sourceFile()))
                    .append(",\"path\":").append(str(path(r.className(), r.sourceFile())))
                    .append(",\"line\":").append(r.line())
                    .append(",\"message\":").append(str(r.message())).append('}');
            }
            sb.append("]}");
        }
        for (MethodClassification m : methods) {
            sb.append(sep);
            sep = ",\n  ";
            sb.append("{\"kind\":\"method\",\"class\":").append(str(m.className().replace('/', '.')))
                .append(",\"method\":").append(str(m.methodName()))
                .append(",\"descriptor\":").append(str(m.descriptor()))
                .append(",\"file\":").append(str(m.sourceFile()))
                .append(",\"path\":").append(str(path(m.className(), m.sourceFile())))
                .append(",\"line\":").append(m.line())
                .append(",\"access\":").append(str(m.access().name().toLowerCase(Locale.ROOT)))
                .append(",\"reason\":[");
            String rsep = "";
            for (String step : m.reasonChain()) {
                sb.append(rsep).append(str(step));
                rsep = ",";
            }
            sb.append("]}");
        }
        return sb.append(unreadable.isEmpty() && findings.isEmpty() && methods.isEmpty() ? "]" : "\n]").toString();
    }

    /** Source path relative to a source root, from the package and the SourceFile attribute, or null. */
    private static String path(String internalName, String sourceFile) {
        if (sourceFile == null) {
            return null;
        }
        int slash = internalName.lastIndexOf('/');
        return slash < 0 ? sourceFile : internalName.substring(0, slash + 1) + sourceFile;
    }

    /** Writes JSON string literals: the one JSON library outside node JVMs, without HTML escaping. */
    private static final Gson JSON = new GsonBuilder().disableHtmlEscaping().create();

    /** A JSON string literal (RFC 8259 escaping), or {@code null}. */
    static String str(String s) {
        return JSON.toJson(s);
    }
}
