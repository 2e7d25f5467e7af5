package dev.cumulus.analysis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Entry point: checks the replication restrictions (rules CUM101–CUM120, see {@link Rules}) and classifies every
 * method of every cloud class as read or write (Manta §2.2, §3.1); made for the single-VM mode, it also checks the
 * rules CUM2xx (what a program run with {@code cumulus run --single-vm} must not do).
 *
 * <pre>{@code
 * try (CloudAnalyzer analyzer = CloudAnalyzer.forClasspath(List.of(Path.of("target/classes")))) {
 *     AnalysisResult result = analyzer.analyzeAll();
 *     result.findings().forEach(f -> System.out.println(FindingFormatter.format(f)));
 * }
 * }</pre>
 *
 * <p>An analyzer caches parsed classes and derived facts, so reuse one per classpath (the agent keeps one for the
 * whole run). Global facts, such as which interfaces the program exports as remote objects or which roots reach a
 * node class, are computed from {@link ClassSource#allClassNames()} on first use. Thread-safe: calls are serialized.
 */
public final class CloudAnalyzer implements AutoCloseable {
    private final ClassSource source;
    private final Engine engine;

    /** An analyzer of the cloud rules (CUM1xx) over the given source; {@link #close()} closes the source. */
    public CloudAnalyzer(ClassSource source) {
        this(source, false);
    }

    /**
     * An analyzer over the given source; {@link #close()} closes the source.
     *
     * @param singleVm also check the single-VM rules (CUM2xx, {@link Rule#singleVm()}): for a program run with
     *                 {@code cumulus run --single-vm}
     */
    public CloudAnalyzer(ClassSource source, boolean singleVm) {
        this.source = Objects.requireNonNull(source, "source");
        this.engine = new Engine(source, singleVm);
    }

    /** An analyzer of the cloud rules over a classpath of directories and jars ({@link ClassSource#classpath(List)}). */
    public static CloudAnalyzer forClasspath(List<Path> entries) {
        return new CloudAnalyzer(ClassSource.classpath(entries));
    }

    /** An analyzer over a classpath; {@code singleVm} as in {@link #CloudAnalyzer(ClassSource, boolean)}. */
    public static CloudAnalyzer forClasspath(List<Path> entries, boolean singleVm) {
        return new CloudAnalyzer(ClassSource.classpath(entries), singleVm);
    }

    /** An analyzer over class files held in memory, keyed by internal name. */
    public static CloudAnalyzer forClassBytes(Map<String, byte[]> classes) {
        return new CloudAnalyzer(ClassSource.ofBytes(classes));
    }

    /** Checks and classifies every class of the source. */
    public synchronized AnalysisResult analyzeAll() {
        List<Finding> findings = new ArrayList<>();
        List<MethodClassification> classifications = new ArrayList<>();
        List<UnreadableInput> unreadable = new ArrayList<>(source.unreadableEntries());
        for (String name : engine.allNames()) {
            engine.info(name).ifPresent(c -> engine.check(c, findings, classifications));
            engine.unreadable(name).ifPresent(unreadable::add);
        }
        return result(findings, classifications, unreadable);
    }

    /**
     * Checks one class (the agent's per-class check): findings located in that class, and the classification of its
     * methods if it is a cloud class. Supertypes, callees and overrides are read from the source as needed. A class
     * the source does not have gives an empty result; one whose bytes cannot be read or parsed gives a result with
     * that {@link AnalysisResult#unreadable() unreadable input}.
     *
     * @param internalName e.g. {@code dev/example/Stack}
     */
    public synchronized AnalysisResult analyzeClass(String internalName) {
        List<Finding> findings = new ArrayList<>();
        List<MethodClassification> classifications = new ArrayList<>();
        Optional<ClassInfo> c = engine.info(internalName);
        c.ifPresent(ci -> engine.check(ci, findings, classifications));
        return result(findings, classifications, engine.unreadable(internalName).stream().toList());
    }

    private static AnalysisResult result(List<Finding> findings, List<MethodClassification> classifications,
                                         List<UnreadableInput> unreadable) {
        findings.sort(FindingFormatter.ORDER);
        classifications.sort(Engine.CLASSIFICATION_ORDER);
        List<UnreadableInput> sorted = new ArrayList<>(unreadable);
        sorted.sort(Comparator.comparing(UnreadableInput::location));
        return new AnalysisResult(findings, classifications, sorted);
    }

    /** Closes the class source (open jars). */
    @Override
    public void close() {
        source.close();
    }
}
