package dev.cumulus.lsp.model;

import dev.cumulus.analysis.AnalysisResult;
import dev.cumulus.analysis.ClassSource;
import dev.cumulus.analysis.CloudAnalyzer;
import dev.cumulus.analysis.Finding;
import dev.cumulus.analysis.MethodClassification;
import dev.cumulus.analysis.RelatedLocation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.SimpleName;

/**
 * Compiles the workspace in memory, runs the shared {@link CloudAnalyzer} on the class files (with the project
 * classpath behind them) and places each finding and classification in the source with the JDT DOM.
 *
 * <p>Placement: a class-level finding goes on the class name; a field-level one on the field name; a method-level one
 * (signature rules CUM103, CUM108, CUM120, and CUM202's native methods) on the method name; an instruction-level one on the offending call,
 * field access or creation on the reported line, else the statement starting there. Classifications go on method
 * names. Owned by the analysis thread (not thread-safe); the snapshots it returns are immutable.
 */
public final class WorkspaceAnalysis implements AutoCloseable {
    private static final Set<String> METHOD_LEVEL = Set.of("CUM103", "CUM108", "CUM120", "CUM202");
    private static final Pattern CALL = Pattern.compile("calls (?:new )?([\\w.$]+)\\(\\)");
    private static final Pattern CLUSTER_CALL = Pattern.compile("by Cluster\\.(\\w+)");

    private final EcjCompiler compiler = new EcjCompiler();
    private final Map<String, SourceIndex> indexCache = new HashMap<>();
    private final Map<String, String> indexedText = new HashMap<>();
    private ClasspathInfo openClasspath;
    private final Map<String, Optional<byte[]>> classpathCache = new HashMap<>();
    private long generation;

    /** Analyses the given sources (normalized uri to text); {@code versions} are the open documents' versions. */
    public Snapshot analyze(Map<String, String> sources, Map<String, Integer> versions, ClasspathInfo classpath) {
        return analyze(sources, versions, classpath, false);
    }

    /** Like {@link #analyze(Map, Map, ClasspathInfo)}; {@code fullCompile} recompiles every unit, not just changed ones. */
    public Snapshot analyze(Map<String, String> sources, Map<String, Integer> versions, ClasspathInfo classpath,
                            boolean fullCompile) {
        return analyze(sources, versions, classpath, fullCompile, false);
    }

    /**
     * Like {@link #analyze(Map, Map, ClasspathInfo, boolean)}; {@code singleVm} also checks the single-VM rules
     * (CUM2xx), and then the program is checked even without the Cumulus API on its classpath (a single-VM program
     * need not use it).
     */
    public Snapshot analyze(Map<String, String> sources, Map<String, Integer> versions, ClasspathInfo classpath,
                            boolean fullCompile, boolean singleVm) {
        long t0 = System.nanoTime();
        Map<String, EcjCompiler.UnitOutput> compiled = compiler.compile(sources, classpath.entries(), fullCompile);
        long t1 = System.nanoTime();

        Map<String, SourceIndex> indexes = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            indexes.put(e.getKey(), index(e.getKey(), e.getValue()));
        }
        indexCache.keySet().retainAll(sources.keySet());
        indexedText.keySet().retainAll(sources.keySet());

        Map<String, byte[]> classes = new LinkedHashMap<>();
        Map<String, String> uriByClass = new HashMap<>();
        Map<String, List<CompileError>> errors = new HashMap<>();
        compiled.forEach((uri, unit) -> {
            unit.classes().forEach((name, bytes) -> {
                classes.put(name, bytes);
                uriByClass.put(name, uri);
            });
            SourceIndex idx = indexes.get(uri);
            List<CompileError> errs = unit.problems().stream().filter(EcjCompiler.CompileProblem::error)
                    .map(p -> new CompileError(placeError(idx.lines(), p), p.line(), p.message())).toList();
            if (!errs.isEmpty()) {
                errors.put(uri, errs);
            }
        });

        Map<String, List<Problem>> problems = new HashMap<>();
        Map<String, List<MethodMark>> marks = new HashMap<>();
        if ((classpath.apiPresent() || singleVm) && !classes.isEmpty()) {
            AnalysisResult result;
            try (CloudAnalyzer analyzer = new CloudAnalyzer(source(classes, classpath), singleVm)) {
                result = analyzer.analyzeAll();
            }
            for (Finding f : result.findings()) {
                String uri = uriByClass.get(f.className());
                SourceIndex idx = uri == null ? null : indexes.get(uri);
                if (idx == null) {
                    continue;
                }
                List<Problem.Related> related = new ArrayList<>();
                for (RelatedLocation r : f.related()) {
                    related(r, uriByClass, indexes).ifPresent(related::add);
                }
                problems.computeIfAbsent(uri, k -> new ArrayList<>()).add(new Problem(uri, place(idx, f), f.ruleId(),
                        f.severity(), f.message(), f.fixHint(), f.line(), f.className(), f.memberName(),
                        f.memberDescriptor(), related));
            }
            for (MethodClassification c : result.classifications()) {
                String uri = uriByClass.get(c.className());
                SourceIndex idx = uri == null ? null : indexes.get(uri);
                AbstractTypeDeclaration type = idx == null ? null : idx.type(c.className());
                MethodDeclaration m = type == null ? null : idx.method(type, c.methodName(), c.descriptor());
                if (m != null) {
                    marks.computeIfAbsent(uri, k -> new ArrayList<>()).add(new MethodMark(uri, idx.range(m.getName()),
                            c.access(), c.reasonChain(), c.className(), c.methodName(), c.descriptor()));
                }
            }
        }
        long t2 = System.nanoTime();
        return new Snapshot(++generation, Map.copyOf(versions), Map.copyOf(indexes), freeze(problems), freeze(marks),
                Map.copyOf(errors), Map.copyOf(classes), classpath, (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);
    }

    /** The compiler's range; its line when the range is missing or outside the text (ECJ uses -1 for "none"). */
    static SourceRange placeError(LineMap lines, EcjCompiler.CompileProblem p) {
        int length = lines.text().length();
        if (p.startOffset() >= 0 && p.startOffset() <= length && p.endOffset() >= p.startOffset()) {
            return lines.range(p.startOffset(), Math.max(p.endOffset(), p.startOffset() + 1));
        }
        return lines.trimmedLine(Math.max(0, p.line() - 1));
    }

    private static <T> Map<String, List<T>> freeze(Map<String, List<T>> m) {
        Map<String, List<T>> out = new HashMap<>();
        m.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return Map.copyOf(out);
    }

    private SourceIndex index(String uri, String text) {
        SourceIndex cached = indexCache.get(uri);
        if (cached != null && text.equals(indexedText.get(uri))) {
            return cached;
        }
        SourceIndex idx = new SourceIndex(text);
        indexCache.put(uri, idx);
        indexedText.put(uri, text);
        return idx;
    }

    /**
     * Workspace classes (the ones analysed) backed by the project classpath (read for supertypes and callees). Class
     * files read from the classpath are cached across analyses (jars do not change under a running server; a new
     * classpath clears the cache); the jars themselves are opened only on a miss and closed with the analyzer.
     */
    private ClassSource source(Map<String, byte[]> classes, ClasspathInfo classpath) {
        if (!classpath.equals(openClasspath)) {
            classpathCache.clear();
            openClasspath = classpath;
        }
        ClassSource[] jars = new ClassSource[1];
        return new ClassSource() {
            @Override
            public Optional<byte[]> classBytes(String internalName) {
                byte[] b = classes.get(internalName);
                if (b != null) {
                    return Optional.of(b);
                }
                Optional<byte[]> cached = classpathCache.get(internalName);
                if (cached == null) {
                    if (jars[0] == null) {
                        jars[0] = ClassSource.classpath(classpath.entries());
                    }
                    cached = jars[0].classBytes(internalName);
                    classpathCache.put(internalName, cached);
                }
                return cached;
            }

            @Override
            public Stream<String> allClassNames() {
                return classes.keySet().stream();
            }

            @Override
            public void close() {
                if (jars[0] != null) {
                    jars[0].close();
                }
            }
        };
    }

    /** Where a finding goes in the source (see the class comment). */
    static SourceRange place(SourceIndex idx, Finding f) {
        AbstractTypeDeclaration type = idx.type(f.className());
        if (f.memberName() == null) {
            return type != null ? idx.range(type.getName()) : idx.line(f.line());
        }
        boolean field = f.memberDescriptor() != null && !f.memberDescriptor().startsWith("(");
        if (field) {
            SimpleName n = type == null ? null : idx.fieldName(type, f.memberName());
            return n != null ? idx.range(n) : idx.line(f.line());
        }
        MethodDeclaration m = type == null ? null : idx.method(type, f.memberName(), f.memberDescriptor());
        if (METHOD_LEVEL.contains(f.ruleId()) && m != null) {
            return idx.range(m.getName());
        }
        if (f.line() <= 0) {
            return m != null ? idx.range(m.getName()) : type != null ? idx.range(type.getName()) : idx.line(1);
        }
        ASTNode scope = m != null && covers(idx, m, f.line()) ? m : type != null && covers(idx, type, f.line()) ? type
                : idx.unit();
        SourceRange r = idx.nodeOnLine(scope, f.line(), preferredName(f));
        return r != null ? r : idx.line(f.line());
    }

    private static boolean covers(SourceIndex idx, ASTNode node, int line1) {
        LineMap l = idx.lines();
        return l.line(node.getStartPosition()) <= line1 - 1
                && l.line(node.getStartPosition() + node.getLength()) >= line1 - 1;
    }

    /** The name of the call or field that an instruction-level finding is about, if the finding says. */
    static String preferredName(Finding f) {
        Matcher m;
        switch (f.ruleId()) {
            case "CUM107" -> {
                m = CALL.matcher(f.message());
                if (m.find()) {
                    String n = m.group(1);
                    n = n.substring(n.lastIndexOf('.') + 1);
                    return n.substring(n.lastIndexOf('$') + 1);
                }
            }
            case "CUM102" -> {
                m = CLUSTER_CALL.matcher(f.message());
                if (m.find()) {
                    return m.group(1);
                }
            }
            case "CUM104", "CUM106" -> {
                if (!f.related().isEmpty() && f.related().getFirst().memberName() != null) {
                    return f.related().getFirst().memberName();
                }
            }
            default -> {
                return null;
            }
        }
        return null;
    }

    private static Optional<Problem.Related> related(RelatedLocation r, Map<String, String> uriByClass,
                                                     Map<String, SourceIndex> indexes) {
        String uri = uriByClass.get(r.className());
        SourceIndex idx = uri == null ? null : indexes.get(uri);
        if (idx == null) {
            return Optional.empty();
        }
        AbstractTypeDeclaration type = idx.type(r.className());
        SourceRange range = null;
        if (r.line() > 0) {
            // the reported line is the interesting one (the write, the assignment); the name on it if present
            range = idx.nodeOnLine(type != null && covers(idx, type, r.line()) ? type : idx.unit(), r.line(),
                    r.memberName());
        }
        if (range == null && type != null && r.memberName() != null) {
            SimpleName n = idx.fieldName(type, r.memberName());
            if (n == null) {
                MethodDeclaration m = idx.method(type, r.memberName(), null);
                n = m == null ? null : m.getName();
            }
            range = n == null ? null : idx.range(n);
        } else if (range == null && type != null) {
            range = idx.range(type.getName());
        }
        if (range == null) {
            range = idx.line(Math.max(1, r.line()));
        }
        return Optional.of(new Problem.Related(uri, range, r.message()));
    }

    @Override
    public void close() {
        classpathCache.clear();
    }
}
