package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared corpus ({@code src/test/corpus}, one folder per rule plus {@code classify}): compiles every file with
 * {@code -g}, analyses the classes and checks, per file, that the findings (rule id and line) and the classifications
 * are exactly those written in the source as {@code // expect: CUMnnn[, CUMnnn]} (on the reported line) and
 * {@code // classify: read|write} (on the method's declaration line). Both may share one comment, separated by
 * {@code ;}. Folders of the single-VM rules ({@code CUM2xx}) are checked against an analyzer made for the single-VM
 * mode, the others against the default one, which never reports a CUM2xx finding.
 */
@Timeout(120)
class CorpusTest {
    static final Path CORPUS = Path.of(System.getProperty("basedir", "."), "src", "test", "corpus");
    private static final Pattern EXPECT = Pattern.compile("//.*expect:\\s*(CUM\\d+(?:\\s*,\\s*CUM\\d+)*)");
    private static final Pattern CLASSIFY = Pattern.compile("//.*classify:\\s*(read|write)");
    private static final Pattern METHOD_NAME = Pattern.compile("(\\w+)\\s*\\(");
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);

    @TempDir
    static Path classes;
    static AnalysisResult result;
    static AnalysisResult singleVmResult;
    static List<Path> files;

    record Expected(Map<Integer, List<String>> findings, List<ExpectedClassification> classifications) {
    }

    record ExpectedClassification(String method, int line, Access access) {
    }

    @BeforeAll
    static void compileAndAnalyse() throws IOException {
        try (Stream<Path> s = Files.walk(CORPUS)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no corpus files under " + CORPUS.toAbsolutePath());
        compile(files, classes);
        try (CloudAnalyzer analyzer = CloudAnalyzer.forClasspath(List.of(classes))) {
            result = analyzer.analyzeAll();
        }
        try (CloudAnalyzer analyzer = CloudAnalyzer.forClasspath(List.of(classes), true)) {
            singleVmResult = analyzer.analyzeAll();
        }
    }

    /** Whether the file is in the folder of a single-VM rule ({@code CUM2xx}). */
    static boolean singleVmFile(Path file) {
        return CORPUS.relativize(file).getName(0).toString().startsWith("CUM2");
    }

    static void compile(List<Path> sources, Path out) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-g", "-proc:none", "-d", out.toString(), "-classpath",
                System.getProperty("java.class.path")));
        sources.forEach(p -> args.add(p.toString()));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac.run(null, err, err, args.toArray(String[]::new));
        diagnostics.write(err.toString(StandardCharsets.UTF_8));
        assertEquals(0, rc, "corpus does not compile:\n" + diagnostics);
    }

    /** Key of a file: package path plus file name, which is what a finding's class name and SourceFile give. */
    static String key(Path file) throws IOException {
        Matcher m = PACKAGE.matcher(Files.readString(file));
        String pkg = m.find() ? m.group(1).replace('.', '/') + "/" : "";
        return pkg + file.getFileName();
    }

    static String key(String className, String sourceFile) {
        return className.substring(0, className.lastIndexOf('/') + 1) + sourceFile;
    }

    static Expected expected(Path file) throws IOException {
        Map<Integer, List<String>> findings = new HashMap<>();
        List<ExpectedClassification> cls = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher e = EXPECT.matcher(line);
            if (e.find()) {
                List<String> ids = new ArrayList<>();
                for (String id : e.group(1).split(",")) {
                    ids.add(id.trim());
                }
                ids.sort(null);
                findings.put(i + 1, ids);
            }
            Matcher c = CLASSIFY.matcher(line);
            if (c.find()) {
                Matcher name = METHOD_NAME.matcher(line);
                assertTrue(name.find(), file + ":" + (i + 1) + ": classify comment on a line without a method");
                cls.add(new ExpectedClassification(name.group(1), i + 1, Access.valueOf(c.group(1).toUpperCase())));
            }
        }
        return new Expected(findings, cls);
    }

    @TestFactory
    Stream<DynamicTest> corpusFile() {
        return files.stream().map(f -> DynamicTest.dynamicTest(CORPUS.relativize(f).toString(), () -> check(f)));
    }

    private static void check(Path file) throws IOException {
        String key = key(file);
        Expected exp = expected(file);

        Map<Integer, List<String>> actual = new HashMap<>();
        List<String> described = new ArrayList<>();
        for (Finding f : (singleVmFile(file) ? singleVmResult : result).findings()) {
            if (f.sourceFile() != null && key(f.className(), f.sourceFile()).equals(key)) {
                actual.computeIfAbsent(f.line(), k -> new ArrayList<>()).add(f.ruleId());
                described.add(FindingFormatter.format(f));
            }
        }
        actual.values().forEach(l -> l.sort(null));
        assertEquals(new TreeMap<>(exp.findings()), new TreeMap<>(actual),
                "findings (line -> rule ids) in " + file + "; reported:\n" + String.join("\n", described));

        // each classification matches the classify comment with the same name on or before its first code line
        List<ExpectedClassification> unmatched = new ArrayList<>(exp.classifications());
        List<String> problems = new ArrayList<>();
        for (MethodClassification mc : result.classifications()) {
            if (mc.sourceFile() == null || !key(mc.className(), mc.sourceFile()).equals(key)) {
                continue;
            }
            ExpectedClassification match = unmatched.stream()
                    .filter(x -> x.method().equals(mc.methodName()) && x.line() <= mc.line())
                    .max(Comparator.comparingInt(ExpectedClassification::line)).orElse(null);
            if (match == null) {
                problems.add("unexpected classification " + mc.className() + "." + mc.methodName() + " at line "
                        + mc.line() + " = " + mc.access());
                continue;
            }
            unmatched.remove(match);
            if (match.access() != mc.access()) {
                problems.add(mc.methodName() + " (line " + match.line() + ") expected " + match.access() + " but was "
                        + mc.access() + (mc.reasonChain().isEmpty() ? "" : ": " + mc.reason()));
            }
        }
        unmatched.forEach(x -> problems.add("no classification for " + x.method() + " (line " + x.line() + ")"));
        if (!problems.isEmpty()) {
            fail("classifications in " + file + ":\n" + String.join("\n", problems));
        }
    }

    /** The default analyzer checks the cloud rules only; the single-VM one finds what it finds and more. */
    @Test
    void singleVmRulesOnlyInTheSingleVmMode() {
        assertTrue(result.findings().stream().noneMatch(f -> f.ruleId().startsWith("CUM2")));
        assertTrue(singleVmResult.findings().containsAll(result.findings()));
        for (Rule r : Rules.all()) {
            assertEquals(r.id().startsWith("CUM2"), r.singleVm(), r.id());
        }
    }

    /** Every rule has a folder with at least one violating and one conforming file. */
    @Test
    void everyRuleHasViolatingAndConformingExamples() throws IOException {
        for (Rule r : Rules.all()) {
            Path dir = CORPUS.resolve(r.id());
            assertTrue(Files.isDirectory(dir), "no corpus folder for " + r.id());
            int violating = 0;
            int conforming = 0;
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    boolean has = expected(f).findings().values().stream().anyMatch(l -> l.contains(r.id()));
                    if (has) {
                        violating++;
                    } else {
                        conforming++;
                    }
                }
            }
            assertTrue(violating > 0 && conforming > 0, r.id() + ": violating=" + violating + " conforming="
                    + conforming);
        }
    }

    /** The agent's per-class check gives exactly the findings and classifications analyzeAll gives for that class. */
    @Test
    void analyzeClassAgreesWithAnalyzeAll() {
        try (CloudAnalyzer analyzer = CloudAnalyzer.forClasspath(List.of(classes));
             Stream<String> names = ClassSource.classpath(List.of(classes)).allClassNames()) {
            for (String name : names.toList()) {
                AnalysisResult one = analyzer.analyzeClass(name);
                assertEquals(result.findings().stream().filter(f -> f.className().equals(name)).toList(),
                        one.findings(), "findings of " + name);
                assertEquals(result.classifications().stream().filter(c -> c.className().equals(name)).toList(),
                        one.classifications(), "classifications of " + name);
            }
        }
    }

    @Test
    void reasonChainFollowsCallsDownToTheWrite() {
        MethodClassification twice = result.classification("corpus/classify/Stack", "pushTwice", "(I)V").orElseThrow();
        assertEquals(List.of("Stack.pushTwice()", "Stack.push()", "PUTFIELD Stack.top at Stack.java:20"),
                twice.reasonChain());
        MethodClassification reading = result.classification("corpus/classify/Meter", "reading", "()I").orElseThrow();
        assertEquals(List.of("Meter.reading()", "CountingProbe.look()", "PUTFIELD CountingProbe.looks at Meter.java:35"),
                reading.reasonChain());
        MethodClassification register = result.classification("corpus/classify/Registry", "register",
                "(Ljava/lang/String;)V").orElseThrow();
        assertEquals(List.of("Registry.register()", "List.add() on Registry.names at Registry.java:16"),
                register.reasonChain());
    }

    @Test
    void readNamedWriteWarningPointsAtTheWrite() {
        Finding f = result.findings().stream()
                .filter(x -> x.ruleId().equals("CUM120") && "receive".equals(x.memberName())).findFirst().orElseThrow();
        assertEquals(Severity.WARNING, f.severity());
        assertEquals(1, f.related().size());
        RelatedLocation r = f.related().getFirst();
        assertEquals("receives", r.memberName());
        assertEquals("CountingBroadcast.java", r.sourceFile());
        assertEquals(11, r.line());
    }
}
