package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class ApiTest {
    @TempDir
    Path tmp;

    @Test
    void formatsCompilerStyleLines() {
        Finding f = new Finding("CUM104", Severity.ERROR, "dev/example/Foo", "counter", "I", "Foo.java", 12,
                "static field 'counter' is mutable state shared by all replicas", Rules.CUM104.fixHint(), null);
        assertEquals("Foo.java:12: error CUM104 [dev.example.Foo.counter] static field 'counter' is mutable state "
                + "shared by all replicas; make it an instance field of the cloud", FindingFormatter.format(f));
        Finding noLine = new Finding("CUM101", Severity.ERROR, "dev/example/Bar", null, null, null, -1, "m", "", null);
        assertEquals("dev.example.Bar: error CUM101 [dev.example.Bar] m", FindingFormatter.format(noLine));
    }

    @Test
    void everyRuleHasADocPageAndAHint() {
        Path repo = Path.of(System.getProperty("basedir", "."), "..", "..");
        for (Rule r : Rules.all()) {
            assertTrue(Files.isRegularFile(repo.resolve(r.docPath())), "missing " + r.docPath());
            assertTrue(!r.fixHint().isBlank() && !r.fixHint().contains("\n"), r.id());
            assertEquals(r, Rules.byId(r.id()).orElseThrow());
        }
    }

    /** The same corpus classes, read from a jar and from memory, give the same result as from a directory. */
    @Test
    void jarAndInMemorySourcesAgreeWithDirectory() throws IOException {
        Path classes = tmp.resolve("classes");
        Files.createDirectories(classes);
        List<Path> sources;
        try (Stream<Path> s = Files.walk(CorpusTest.CORPUS.resolve("classify"))) {
            sources = s.filter(p -> p.toString().endsWith(".java")).toList();
        }
        CorpusTest.compile(sources, classes);
        Map<String, byte[]> bytes = new HashMap<>();
        Path jar = tmp.resolve("corpus.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> s = Files.walk(classes)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                String rel = classes.relativize(p).toString().replace('\\', '/');
                out.putNextEntry(new JarEntry(rel));
                byte[] b = Files.readAllBytes(p);
                out.write(b);
                out.closeEntry();
                bytes.put(rel.substring(0, rel.length() - ".class".length()), b);
            }
        }
        AnalysisResult fromDir;
        try (CloudAnalyzer a = CloudAnalyzer.forClasspath(List.of(classes))) {
            fromDir = a.analyzeAll();
        }
        assertTrue(fromDir.classifications().size() > 10, "classify corpus should yield classifications");
        try (CloudAnalyzer a = CloudAnalyzer.forClasspath(List.of(jar))) {
            assertEquals(fromDir, a.analyzeAll());
        }
        try (CloudAnalyzer a = CloudAnalyzer.forClassBytes(bytes)) {
            assertEquals(fromDir, a.analyzeAll());
        }
    }

    @Test
    void unknownClassesGiveEmptyResultsAndBrokenOnesAreUnreadable() {
        try (CloudAnalyzer a = CloudAnalyzer.forClassBytes(Map.of("x/Broken", new byte[] {1, 2, 3}))) {
            AnalysisResult all = a.analyzeAll();
            assertEquals(List.of(), all.findings());
            assertEquals(1, all.unreadable().size(), all.toString());
            assertEquals("x/Broken.class", all.unreadable().getFirst().location());
            assertTrue(all.hasErrors());
            assertEquals(1, all.errorCount());
            assertEquals(all.unreadable(), a.analyzeClass("x/Broken").unreadable());
            assertEquals(new AnalysisResult(List.of(), List.of()), a.analyzeClass("x/Missing"));
        }
    }

    @Test
    void truncatedClassFileInADirectoryIsAnErrorNamingTheFile() throws IOException {
        byte[] whole = Files.readAllBytes(Path.of(ApiTest.class.getResource("ApiTest.class").getPath()));
        Path f = Files.createDirectories(tmp.resolve("classes/x")).resolve("Cut.class");
        Files.write(f, java.util.Arrays.copyOf(whole, whole.length / 2));
        try (CloudAnalyzer a = CloudAnalyzer.forClasspath(List.of(tmp.resolve("classes")))) {
            AnalysisResult r = a.analyzeAll();
            assertEquals(1, r.unreadable().size(), r.toString());
            assertEquals(f.toString(), r.unreadable().getFirst().location());
            assertTrue(r.unreadable().getFirst().format().startsWith(f + ": error: cannot read class file: "),
                    r.unreadable().getFirst().format());
        }
    }

    @Test
    void corruptJarIsAnErrorNamingTheJar() throws IOException {
        Path jar = Files.write(tmp.resolve("broken.jar"), new byte[] {'P', 'K', 3, 4, 0, 0, 1, 2, 3});
        try (CloudAnalyzer a = CloudAnalyzer.forClasspath(List.of(jar))) {
            AnalysisResult r = a.analyzeAll();
            assertEquals(1, r.unreadable().size(), r.toString());
            assertEquals(jar.toString(), r.unreadable().getFirst().location());
            assertTrue(r.unreadable().getFirst().format().startsWith(jar + ": error: cannot read classpath entry: "),
                    r.unreadable().getFirst().format());
        }
    }

}
