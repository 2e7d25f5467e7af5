package dev.cumulus.lsp.model;

import java.util.List;
import java.util.Map;

/**
 * The result of one analysis of the whole workspace: problems and method classifications per document, placed in the
 * text that was analysed. Immutable; request handlers read the newest one.
 *
 * @param generation     increases with every analysis
 * @param versions       the version of each open document that was analysed (normalized uri to version)
 * @param texts          the analysed text of every source (normalized uri to index)
 * @param problems       per document
 * @param marks          per document
 * @param compileErrors  the Java compile errors per document (the analysis covers what compiled)
 * @param classes        the class files produced (internal name to bytes), e.g. to run the program
 * @param classpath      the classpath used
 * @param compileMillis  time to compile
 * @param analyzeMillis  time to analyse and place the findings
 */
public record Snapshot(long generation, Map<String, Integer> versions, Map<String, SourceIndex> texts,
                       Map<String, List<Problem>> problems, Map<String, List<MethodMark>> marks,
                       Map<String, List<CompileError>> compileErrors, Map<String, byte[]> classes, ClasspathInfo classpath,
                       long compileMillis, long analyzeMillis) {

    /** An empty snapshot (before the first analysis). */
    public static Snapshot empty() {
        return new Snapshot(0, Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), ClasspathInfo.none(), 0, 0);
    }

    public List<Problem> problems(String uri) {
        return problems.getOrDefault(Workspace.normalize(uri), List.of());
    }

    public List<MethodMark> marks(String uri) {
        return marks.getOrDefault(Workspace.normalize(uri), List.of());
    }

    public List<CompileError> compileErrors(String uri) {
        return compileErrors.getOrDefault(Workspace.normalize(uri), List.of());
    }

    public SourceIndex index(String uri) {
        return texts.get(Workspace.normalize(uri));
    }
}
