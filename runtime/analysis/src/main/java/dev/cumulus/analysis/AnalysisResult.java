package dev.cumulus.analysis;

import java.util.List;
import java.util.Optional;

/**
 * What one analysis run found: findings sorted by class, line and rule id, and the classification of every analysed
 * cloud method.
 *
 * @param findings        rule violations and warnings
 * @param classifications one entry per instance method with code (excluding constructors, synthetic and bridge
 *                        methods) of the analysed cloud classes
 */
public record AnalysisResult(List<Finding> findings, List<MethodClassification> classifications) {
    public AnalysisResult {
        findings = List.copyOf(findings);
        classifications = List.copyOf(classifications);
    }

    /** True when at least one finding is an {@link Severity#ERROR}. */
    public boolean hasErrors() {
        return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
    }

    /** The classification of one method, if it was analysed. */
    public Optional<MethodClassification> classification(String className, String methodName, String descriptor) {
        return classifications.stream()
                .filter(c -> c.className().equals(className) && c.methodName().equals(methodName)
                        && c.descriptor().equals(descriptor))
                .findFirst();
    }
}
