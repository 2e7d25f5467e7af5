package dev.cumulus.analysis;

import java.util.Comparator;
import java.util.List;

/**
 * Compiler-style lines for findings, as printed by {@code cumulus check} and the agent:
 * <pre>Foo.java:12: error CUM104 [dev.example.Foo.counter] static field 'counter' is mutable state shared by all replicas; make it an instance field of the cloud</pre>
 * The file is the class's {@code SourceFile} attribute (the class name when absent); the line is left out when
 * unknown. Stateless and thread-safe.
 */
public final class FindingFormatter {
    private FindingFormatter() {
    }

    /** Orders findings by source file, line, rule id and class. */
    public static final Comparator<Finding> ORDER = Comparator
            .comparing((Finding f) -> f.sourceFile() == null ? f.className() : f.sourceFile())
            .thenComparingInt(Finding::line)
            .thenComparing(Finding::ruleId)
            .thenComparing(Finding::className)
            .thenComparing(f -> f.memberName() == null ? "" : f.memberName());

    /** One line for one finding, without a trailing newline. */
    public static String format(Finding f) {
        StringBuilder sb = new StringBuilder();
        sb.append(f.sourceFile() != null ? f.sourceFile() : f.dottedClassName());
        if (f.line() > 0) {
            sb.append(':').append(f.line());
        }
        sb.append(": ").append(f.severity().label()).append(' ').append(f.ruleId()).append(" [")
                .append(f.dottedClassName());
        if (f.memberName() != null) {
            sb.append('.').append(f.memberName());
        }
        sb.append("] ").append(f.message());
        if (f.fixHint() != null && !f.fixHint().isEmpty()) {
            sb.append("; ").append(f.fixHint());
        }
        return sb.toString();
    }

    /** Findings in {@link #ORDER}, one line each, followed by their related locations indented. */
    public static String formatAll(List<Finding> findings) {
        StringBuilder sb = new StringBuilder();
        findings.stream().sorted(ORDER).forEach(f -> {
            sb.append(format(f)).append('\n');
            for (RelatedLocation r : f.related()) {
                sb.append("    ").append(r.sourceFile() != null ? r.sourceFile() : r.className().replace('/', '.'));
                if (r.line() > 0) {
                    sb.append(':').append(r.line());
                }
                sb.append(": note: ").append(r.message()).append('\n');
            }
        });
        return sb.toString();
    }
}
