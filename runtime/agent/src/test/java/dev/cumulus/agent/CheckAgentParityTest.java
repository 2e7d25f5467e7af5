package dev.cumulus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.CumulusException;
import dev.cumulus.analysis.AnalysisResult;
import dev.cumulus.analysis.CloudAnalyzer;
import dev.cumulus.analysis.Finding;
import dev.cumulus.analysis.Severity;
import java.io.IOException;
import java.lang.instrument.ClassFileTransformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One verdict: every test class (src/test/cloud) goes through {@code cumulus check}'s path (an analyzer over the
 * classpath directory, {@code analyzeAll}) and the agent's (an analyzer over the defining class loader,
 * {@code analyzeClass}, then the transformer at load); both must give the same findings, and the agent must refuse
 * exactly the classes with error findings. {@code weave.Dictionary} (a {@code HashMap} field) once passed the check
 * and was refused by the agent, which analysed {@code HashMap.put} down to {@code System.identityHashCode}.
 */
@Timeout(120)
class CheckAgentParityTest {
    @TempDir
    static Path classes;
    static AnalysisResult check;
    static List<String> names;

    @BeforeAll
    static void compileAndCheck() throws IOException {
        TestClasses.compile(classes);
        try (CloudAnalyzer analyzer = CloudAnalyzer.forClasspath(List.of(classes))) {
            check = analyzer.analyzeAll();
        }
        try (Stream<Path> s = Files.walk(classes)) {
            names = s.filter(p -> p.toString().endsWith(".class")).map(p -> classes.relativize(p).toString()
                    .replace(p.getFileSystem().getSeparator(), "/").replaceAll("\\.class$", "")).sorted().toList();
        }
    }

    @Test
    void theAgentsAnalysisFindsWhatTheCheckFinds() throws Exception {
        TestClasses.WeavingLoader loader = new TestClasses.WeavingLoader(classes, new ClassFileTransformer() { });
        try (CloudAnalyzer agent = new CloudAnalyzer(new LoaderClassSource(loader))) {
            for (String name : names) {
                List<Finding> expected = check.findings().stream().filter(f -> f.className().equals(name)).toList();
                assertEquals(expected, agent.analyzeClass(name).findings(), name);
            }
        }
        assertTrue(check.findings().stream().noneMatch(f -> f.className().equals("weave/Dictionary")),
                check.findings().toString());
    }

    @Test
    void theAgentRefusesExactlyTheClassesTheCheckReportsErrorsIn() throws Exception {
        TestClasses.Captured err = new TestClasses.Captured();
        TestClasses.WeavingLoader loader =
                new TestClasses.WeavingLoader(classes, new CloudTransformer(err.stream, AgentSettings.NONE));
        Set<String> refused = new TreeSet<>();
        for (String name : names) {
            try {
                Class.forName(name.replace('/', '.'), true, loader);
            } catch (ExceptionInInitializerError e) {
                assertInstanceOf(CumulusException.class, e.getCause(), name);
                refused.add(name);
            }
        }
        Set<String> withErrors = check.findings().stream().filter(f -> f.severity() == Severity.ERROR)
                .map(Finding::className).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(withErrors, refused, err.text());
        assertTrue(refused.containsAll(List.of("weave/Refused", "weave/Peeker")), refused.toString());
        assertFalse(refused.contains("weave/Dictionary"), err.text());
        assertFalse(err.text().contains("cannot weave"), err.text());
    }
}
