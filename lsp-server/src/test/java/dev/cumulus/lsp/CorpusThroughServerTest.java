package dev.cumulus.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.InlayHint;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The shared analysis corpus through the language server over JSON-RPC: for every corpus file, the published
 * diagnostics (rule id per line) equal the file's {@code // expect:} comments and the R/W inlay hints equal its
 * {@code // classify:} comments.
 *
 * <p>Lines: the analyzer reports class-file lines, the server places diagnostics precisely. Instruction-, field- and
 * class-level findings start on the annotated line; method-level ones (CUM103, CUM108, CUM120) sit on the method
 * name, on or above it, and carry the analyzer's line in {@code data.reportedLine}, which must equal the annotation
 * (CUM202's native method has no line of its own: it is reported at the class line, above its name). Files of the
 * single-VM rules' folders ({@code CUM2xx}) go to a second server whose workspace is single-VM ({@code singleVm}).
 */
@Timeout(180)
class CorpusThroughServerTest {
    private static final Pattern EXPECT = Pattern.compile("//.*expect:\\s*(CUM\\d+(?:\\s*,\\s*CUM\\d+)*)");
    private static final Pattern CLASSIFY = Pattern.compile("//.*classify:\\s*(read|write)");
    private static final Set<String> METHOD_LEVEL = Set.of("CUM103", "CUM108", "CUM120", "CUM202");

    static Harness h;
    static Harness singleVm;

    @BeforeAll
    static void start() throws Exception {
        h = Harness.inProcess();
        h.initialize(Harness.CORPUS, Harness.options(true, 0));
        singleVm = Harness.inProcess();
        JsonObject o = Harness.options(true, 0);
        o.addProperty("singleVm", true);
        singleVm.initialize(Harness.CORPUS, o);
    }

    @AfterAll
    static void stop() throws Exception {
        h.shutdown();
        h.close();
        singleVm.shutdown();
        singleVm.close();
    }

    static List<Path> corpusFiles() throws IOException {
        try (Stream<Path> s = Files.walk(Harness.CORPUS)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> corpusFile() throws IOException {
        List<Path> files = corpusFiles();
        assertFalse(files.isEmpty(), "no corpus under " + Harness.CORPUS);
        return files.stream().map(f -> DynamicTest.dynamicTest(Harness.CORPUS.relativize(f).toString(),
                () -> check(Harness.CORPUS.relativize(f).getName(0).toString().startsWith("CUM2") ? singleVm : h, f)));
    }

    /** The data-driven check of one file against its annotations. */
    static void check(Harness h, Path file) throws Exception {
        List<String> lines = Files.readAllLines(file);
        Map<Integer, List<String>> expectedFindings = new TreeMap<>();
        Map<Integer, String> expectedHints = new TreeMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher e = EXPECT.matcher(lines.get(i));
            if (e.find()) {
                List<String> ids = new ArrayList<>();
                for (String id : e.group(1).split(",")) {
                    ids.add(id.trim());
                }
                ids.sort(null);
                expectedFindings.put(i + 1, ids);
            }
            Matcher c = CLASSIFY.matcher(lines.get(i));
            if (c.find()) {
                expectedHints.put(i + 1, c.group(1).equals("write") ? "W" : "R");
            }
        }

        String uri = h.open(file);
        PublishDiagnosticsParams published = h.client.awaitDiagnostics(uri, 1);
        Map<Integer, List<String>> actual = new TreeMap<>();
        List<String> described = new ArrayList<>();
        for (Diagnostic d : published.getDiagnostics()) {
            String rule = d.getCode().getLeft();
            int reported = ((JsonObject) d.getData()).get("reportedLine").getAsInt();
            int start = d.getRange().getStart().getLine() + 1;
            described.add(rule + " at " + start + " (reported " + reported + "): " + d.getMessage());
            assertEquals("cumulus", d.getSource());
            assertTrue(d.getCodeDescription().getHref().endsWith(rule + ".md"));
            if (METHOD_LEVEL.contains(rule) && start != reported) {
                String name = text(lines, d);
                assertTrue((start < reported || rule.equals("CUM202")) && name.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*"),
                        file + ": " + rule + " should sit on a method name above line " + reported + ", is '" + name
                                + "' at " + start);
                actual.computeIfAbsent(reported, k -> new ArrayList<>()).add(rule);
            } else {
                assertEquals(reported, start, file + ": " + rule + " placed away from the reported line");
                assertFalse(text(lines, d).isBlank(), file + ": empty range for " + rule);
                actual.computeIfAbsent(start, k -> new ArrayList<>()).add(rule);
            }
        }
        actual.values().forEach(l -> l.sort(null));
        assertEquals(expectedFindings, actual, "diagnostics of " + file + ":\n" + String.join("\n", described));

        Map<Integer, String> hints = new TreeMap<>();
        for (InlayHint hint : h.inlayHints(uri)) {
            String label = hint.getLabel().getLeft();
            String before = hints.put(hint.getPosition().getLine() + 1, label);
            assertEquals(null, before, "two hints on one line in " + file);
            // the hint sits right before a method name
            String rest = lines.get(hint.getPosition().getLine()).substring(hint.getPosition().getCharacter());
            assertTrue(rest.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*\\s*\\(.*"), "hint not before a name: " + rest);
            assertTrue(hint.getTooltip().getRight().getValue().contains(label.equals("W") ? "**write**" : "**read**"));
        }
        assertEquals(expectedHints, hints, "R/W hints of " + file);
    }

    private static String text(List<String> lines, Diagnostic d) {
        var r = d.getRange();
        String line = lines.get(r.getStart().getLine());
        int end = r.getEnd().getLine() == r.getStart().getLine() ? r.getEnd().getCharacter() : line.length();
        return line.substring(r.getStart().getCharacter(), Math.min(end, line.length()));
    }

    @Test
    void readNamedWriteWarningPointsAtTheWrite() throws Exception {
        Path file = Harness.CORPUS.resolve("CUM120/CountingBroadcast.java");
        String uri = h.open(file);
        Diagnostic d = h.client.awaitDiagnostics(uri, 1).getDiagnostics().stream()
                .filter(x -> x.getCode().getLeft().equals("CUM120")).findFirst().orElseThrow();
        assertEquals(DiagnosticSeverity.Warning, d.getSeverity());
        assertEquals(1, d.getRelatedInformation().size());
        var rel = d.getRelatedInformation().getFirst().getLocation();
        assertEquals(uri, rel.getUri());
        assertEquals(10, rel.getRange().getStart().getLine(), "the write 'receives++' on line 11");
    }

    @Test
    void hoverExplainsTheWriteDownToTheAssignment() throws Exception {
        Path file = Harness.CORPUS.resolve("classify/Stack.java");
        String uri = h.open(file);
        h.client.awaitDiagnostics(uri, 1);
        List<String> lines = Files.readAllLines(file);
        int line = 0;
        while (!lines.get(line).contains("void pushTwice(")) {
            line++;
        }
        int col = lines.get(line).indexOf("pushTwice") + 2;
        var hover = h.server.getTextDocumentService().hover(new HoverParams(
                new TextDocumentIdentifier(uri), new Position(line, col)))
                .get(30, TimeUnit.SECONDS);
        String md = hover.getContents().getRight().getValue();
        assertTrue(md.contains("**write**") && md.contains("Stack.push()") && md.contains("PUTFIELD Stack.top"), md);
    }
}
