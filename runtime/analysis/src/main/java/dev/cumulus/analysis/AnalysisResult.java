package dev.cumulus.analysis;

import java.util.List;
import java.util.Optional;

/**
 * What one analysis run found: findings sorted by class, line and rule id, the classification of every analysed
 * cloud method, and the inputs that could not be read (each one an error: its classes were not checked).
 *
 * @param findings        rule violations and warnings
 * @param classifications one entry per instance method with code (excluding constructors, synthetic and bridge
 *                        methods) of the analysed cloud classes
 * @param unreadable      class files and classpath entries that could not be read, sorted by location
 */
public record AnalysisResult(List<Finding> findings, List<MethodClassification> classifications,
                             List<UnreadableInput> unreadable) {
    public AnalysisResult {
        findings = List.copyOf(findings);
        classifications = List.copyOf(classifications);
        unreadable = List.copyOf(unreadable);
    }

    /** A result in which every input could be read. */
    public AnalysisResult(List<Finding> findings, List<MethodClassification> classifications) {
        this(findings, classifications, List.of());
    }

    /** True when at least one finding is an {@link Severity#ERROR} or an input could not be read. */
    public boolean hasErrors() {
        return !unreadable.isEmpty() || findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
    }

    /** The number of errors: error findings plus unreadable inputs. */
    public long errorCount() {
        return unreadable.size() + findings.stream().filter(f -> f.severity() == Severity.ERROR).count();
    }

    /** The classification of one method, if it was analysed. */
    public Optional<MethodClassification> classification(String className, String methodName, String descriptor) {
        return classifications.stream()
                .filter(c -> c.className().equals(className) && c.methodName().equals(methodName)
                        && c.descriptor().equals(descriptor))
                .findFirst();
    }
}
