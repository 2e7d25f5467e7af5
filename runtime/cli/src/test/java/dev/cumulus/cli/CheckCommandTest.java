package dev.cumulus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cumulus check} on the analysis corpus (runtime/analysis/src/test/corpus) compiled to a temp dir: exit codes,
 * compiler-style lines in order, the summary, {@code --classify}, {@code --format json}, usage errors.
 */
@Timeout(120)
class CheckCommandTest {
    static final Path CORPUS = Path.of(System.getProperty("basedir", "."), "..", "analysis", "src", "test", "corpus")
        .normalize();
    private static final Pattern SUMMARY = Pattern.compile("(\\d+) errors?, (\\d+) warnings? in (\\d+) class(?:es)?");
    private static final Pattern LINE = Pattern.compile("^(\\w+\\.java):(\\d+): (error|warning) (CUM\\d{3}) \\[.*");

    @TempDir
    static Path tmp;
    static Path all;
    static Path clean;

    static CliRun check(String... args) {
        String[] full = new String[args.length + 1];
        full[0] = "check";
        System.arraycopy(args, 0, full, 1, args.length);
        return CliRun.of(full);
    }

    @BeforeAll
    static void compileCorpus() throws IOException {
        all = Files.createDirectories(tmp.resolve("all"));
        clean = Files.createDirectories(tmp.resolve("clean"));
        compile(sources(CORPUS), all);
        // warnings only: the classify folder and CUM120
        List<Path> ok = new ArrayList<>(sources(CORPUS.resolve("classify")));
        ok.addAll(sources(CORPUS.resolve("CUM120")));
        compile(ok, clean);
    }

    static List<Path> sources(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    static void compile(List<Path> sources, Path out) {
        assertFalse(sources.isEmpty(), "no corpus sources under " + CORPUS);
        List<String> args = new ArrayList<>(List.of("-g", "-proc:none", "-d", out.toString(), "-classpath",
            System.getProperty("java.class.path")));
        sources.forEach(p -> args.add(p.toString()));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, javac.run(null, err, err, args.toArray(String[]::new)), err.toString(StandardCharsets.UTF_8));
    }

    static long classFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".class")).count();
        }
    }

    @Test
    void violationsGiveCompilerStyleLinesErrorsFirstSortedAndExitCode1() throws IOException {
        CliRun r = check("-cp", all.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.contains("StaticState.java:13: error CUM104 [corpus.cum104.StaticState.counter] static field "
            + "'counter' is mutable state shared by all replicas; make it an instance field of the cloud"), r.out());
        String last = lines.getLast();
        Matcher m = SUMMARY.matcher(last);
        assertTrue(m.matches(), last);
        List<String[]> findings = lines.stream().map(LINE::matcher).filter(Matcher::matches)
            .map(x -> new String[] {x.group(1), x.group(2), x.group(3), x.group(4)}).toList();
        long errors = findings.stream().filter(f -> f[2].equals("error")).count();
        assertEquals(Long.parseLong(m.group(1)), errors);
        assertEquals(Long.parseLong(m.group(2)), findings.size() - errors);
        assertEquals(classFiles(all), Long.parseLong(m.group(3)));
        assertTrue(errors > 0 && findings.size() > errors, "the corpus has errors and warnings");
        // errors first, then warnings, each by file and line
        for (int i = 1; i < findings.size(); i++) {
            String[] a = findings.get(i - 1);
            String[] b = findings.get(i);
            int sev = Boolean.compare(a[2].equals("warning"), b[2].equals("warning"));
            assertTrue(sev < 0 || sev == 0 && (a[0].compareTo(b[0]) < 0
                || a[0].equals(b[0]) && Integer.parseInt(a[1]) <= Integer.parseInt(b[1])),
                "order: " + String.join(":", a) + " before " + String.join(":", b));
        }
        Stream.of("CUM101", "CUM102", "CUM103", "CUM104", "CUM105", "CUM106", "CUM107", "CUM108", "CUM109", "CUM120")
            .forEach(id -> assertTrue(findings.stream().anyMatch(f -> f[3].equals(id)), id + " in\n" + r.out()));
        assertTrue(r.err().isEmpty(), r.err());
    }

    @Test
    void singleVmRulesOnlyWithTheOption() {
        CliRun plain = check("-cp", all.toString());
        assertFalse(plain.out().contains(" CUM2"), plain.out());
        CliRun r = check("-cp", all.toString(), "--single-vm");
        assertEquals(1, r.exit(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.contains("Native.java:4: error CUM202 [corpus.cum202.Native.checksum] method 'checksum' is "
            + "native: with --single-vm the class is refused when it loads, as native code cannot run on the shared "
            + "heap; move the native method into a library class outside the program (a JDK or dependency class)"),
            r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("Pools.java:10: warning CUM203 [corpus.cum203.Pools.main]"
            + " method 'main' makes a JDK thread pool (Executors.newFixedThreadPool())") && l.endsWith(
            "use SingleVm.executor(n), whose workers are spread over the nodes round robin")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("Escapes.java:10: warning CUM201 "
            + "[corpus.cum201.Escapes.TOTALS] field 'TOTALS' holds a HashMap")), r.out());
        assertTrue(lines.stream().filter(l -> l.contains(" CUM1")).count()
            == plain.out().lines().filter(l -> l.contains(" CUM1")).count(), "the cloud rules as without it");
    }

    /** {@code cumulus run --single-vm}'s pre-check prints the single-VM warnings and lets the run start. */
    @Test
    void aSingleVmRunsPreCheckPrintsItsWarningsAndPasses() throws IOException {
        Path pools = Files.createDirectories(tmp.resolve("pools"));
        compile(sources(CORPUS.resolve("CUM203")), pools);
        CapturedOutput err = new CapturedOutput();
        assertTrue(RestrictionPreCheck.passes(pools.toString(), err.stream(), true));
        assertTrue(err.text().startsWith("Pools.java:10: warning CUM203 [corpus.cum203.Pools.main]"), err.text());
        CapturedOutput quiet = new CapturedOutput();
        assertTrue(RestrictionPreCheck.passes(pools.toString(), quiet.stream(), false));
        assertEquals("", quiet.text());
    }

    @Test
    void warningsAloneExitWith0() {
        CliRun r = check("--classpath", clean.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains(": warning CUM120 ["), r.out());
        assertFalse(r.out().contains(": error "), r.out());
        assertTrue(r.out().lines().toList().getLast().startsWith("0 errors, "), r.out());
        assertFalse(r.out().contains(" W corpus."), "no classification without --classify");
    }

    @Test
    void classifyListsEveryCloudMethodWithItsReason() {
        CliRun r = check("-cp", clean.toString(), "--classify");
        assertEquals(0, r.exit(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.stream().anyMatch(l -> l.matches(
            "Stack\\.java:\\d+: W corpus\\.classify\\.Stack\\.push\\(I\\)V: Stack\\.push\\(\\) -> PUTFIELD .*")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches(
            "Stack\\.java:\\d+: W corpus\\.classify\\.Stack\\.pushTwice\\(I\\)V: Stack\\.pushTwice\\(\\) -> "
                + "Stack\\.push\\(\\) -> .*")), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("Stack\\.java:\\d+: R corpus\\.classify\\.Stack\\.top\\(\\)I")),
            r.out());
        assertTrue(lines.stream().anyMatch(l -> l.contains(" W corpus.classify.Bin.get()I: ")), r.out());
    }

    @Test
    void jsonIsOneParsableArray() {
        CliRun r = check("-cp", all.toString(), "--classify", "--format", "json");
        assertEquals(1, r.exit(), r.err());
        Object parsed = new Json(r.out()).parse();
        List<?> items = assertInstanceOf(List.class, parsed);
        assertFalse(items.isEmpty());
        Map<?, ?> cum104 = items.stream().map(Map.class::cast)
            .filter(o -> "finding".equals(o.get("kind")) && "CUM104".equals(o.get("rule"))
                && "counter".equals(o.get("member")))
            .findFirst().orElseThrow(() -> new AssertionError(r.out()));
        assertEquals("error", cum104.get("severity"));
        assertEquals("corpus.cum104.StaticState", cum104.get("class"));
        assertEquals("StaticState.java", cum104.get("file"));
        assertEquals("corpus/cum104/StaticState.java", cum104.get("path"));
        assertEquals(13L, cum104.get("line"));
        assertEquals("docs/rules/CUM104.md", cum104.get("doc"));
        assertInstanceOf(List.class, cum104.get("related"));
        Map<?, ?> push = items.stream().map(Map.class::cast)
            .filter(o -> "method".equals(o.get("kind")) && "push".equals(o.get("method"))
                && "corpus.classify.Stack".equals(o.get("class")))
            .findFirst().orElseThrow(() -> new AssertionError(r.out()));
        assertEquals("write", push.get("access"));
        assertEquals("(I)V", push.get("descriptor"));
        assertFalse(((List<?>) push.get("reason")).isEmpty());
        assertTrue(SUMMARY.matcher(r.err().strip()).matches(), "summary on stderr: " + r.err());
    }

    @Test
    void jsonStringsAreEscaped() {
        String s = CheckCommand.str("a\"b\\c\nd\te\u0001f\u2028");
        assertEquals("\"a\\\"b\\\\c\\nd\\te\\u0001f\\u2028\"", s);
        assertEquals("a\"b\\c\nd\te\u0001f\u2028", new Json(s).parse());
    }

    @Test
    void aTruncatedClassFileIsAnErrorNamingTheFile() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("truncated/corpus/cum104"));
        byte[] whole = Files.readAllBytes(all.resolve("corpus/cum104/StaticState.class"));
        Path cut = Files.write(dir.resolve("StaticState.class"), Arrays.copyOf(whole, whole.length / 2));
        CliRun r = check("-cp", tmp.resolve("truncated").toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().startsWith(cut + ": error: cannot read class file: "), r.out());
        assertTrue(r.out().lines().toList().getLast().startsWith("1 error, 0 warnings in 1 class"), r.out());
        CliRun json = check("-cp", tmp.resolve("truncated").toString(), "--format", "json");
        assertEquals(1, json.exit(), json.out() + json.err());
        assertTrue(json.out().contains("\"kind\":\"unreadable\",\"severity\":\"error\",\"path\":"
            + CheckCommand.str(cut.toString())), json.out());
    }

    @Test
    void aCorruptJarIsAnErrorNamingTheJarNotAStackTrace() throws IOException {
        Path jar = Files.write(tmp.resolve("corrupt.jar"), new byte[] {'P', 'K', 3, 4, 9, 9, 9});
        CliRun r = check("-cp", jar + File.pathSeparator + clean);
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().startsWith(jar + ": error: cannot read classpath entry: "), r.out());
        assertTrue(r.out().contains(": warning CUM120 ["), "the rest of the classpath is still checked: " + r.out());
        assertTrue(r.out().lines().toList().getLast().startsWith("1 error, "), r.out());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void badUsageExitsWith2() {
        CliRun missing = check();
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("Missing required option: '--classpath=CP'"), missing.err());
        CliRun nonexistent = check("-cp", tmp.resolve("nope").toString());
        assertEquals(2, nonexistent.exit());
        assertTrue(nonexistent.err().startsWith("cumulus check: classpath entry " + tmp.resolve("nope")
            + " does not exist"), nonexistent.err());
        CliRun empty = check("-cp", "");
        assertEquals(2, empty.exit());
        assertTrue(empty.err().contains("the classpath is empty"), empty.err());
        assertEquals(2, check("-cp", all.toString(), "--format", "xml").exit());
        assertEquals(0, check("--help").exit());
    }

    /** A minimal JSON reader for the test (objects, arrays, strings, numbers as Long/Double, true/false/null). */
    static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        Object parse() {
            Object v = value();
            ws();
            if (i != s.length()) {
                throw new AssertionError("trailing text at " + i);
            }
            return v;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private Object value() {
            ws();
            char c = s.charAt(i);
            switch (c) {
                case '{' -> {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        ws();
                        String k = string();
                        ws();
                        expect(':');
                        m.put(k, value());
                        ws();
                        if (s.charAt(i) == ',') {
                            i++;
                        } else {
                            expect('}');
                            return m;
                        }
                    }
                }
                case '[' -> {
                    i++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        ws();
                        if (s.charAt(i) == ',') {
                            i++;
                        } else {
                            expect(']');
                            return l;
                        }
                    }
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    for (String lit : List.of("true", "false", "null")) {
                        if (s.startsWith(lit, i)) {
                            i += lit.length();
                            return lit.equals("null") ? null : Boolean.valueOf(lit);
                        }
                    }
                    int start = i;
                    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                        i++;
                    }
                    String n = s.substring(start, i);
                    if (n.isEmpty()) {
                        throw new AssertionError("unexpected '" + c + "' at " + start);
                    }
                    return n.contains(".") || n.contains("e") || n.contains("E") ? (Object) Double.valueOf(n)
                        : (Object) Long.valueOf(n);
                }
            }
        }

        private void expect(char c) {
            if (s.charAt(i) != c) {
                throw new AssertionError("expected '" + c + "' at " + i + " but was '" + s.charAt(i) + "'");
            }
            i++;
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c < 0x20) {
                    throw new AssertionError("raw control character in a string at " + (i - 1));
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> throw new AssertionError("bad escape \\" + e);
                }
            }
        }
    }
}
