package dev.cumulus.cli;

import dev.cumulus.cli.launch.ClusterLauncher;
import dev.cumulus.cli.launch.LaunchContext;
import dev.cumulus.cli.launch.RunResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cumulus new}: every template in the repository's {@code templates/} is generated, built with Maven (offline,
 * against the {@code cumulus-runtime} that the build installed in the local repository) and run on 3 real node
 * processes through the launcher; plus the validation errors.
 */
class NewCommandTest {
    /** template name → the line its program prints when it checked its own result. */
    private static final Map<String, String> EXPECTED = Map.of(
        "replicated", "shortest tour: verified",
        "arrays", "C = A x B: verified",
        "tuplespace", "sum of contributions: verified",
        "remote", "primes: verified");

    @TempDir
    static Path tmp;

    private static Path templates;

    @BeforeAll
    static void findTemplates() {
        templates = NewCommand.defaultTemplatesDir();
        assertNotNull(templates, "templates/ is found from the CLI's class directory");
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void everyTemplateIsGeneratedBuiltAndRunsOnThreeNodes() throws Exception {
        List<String> names = new ArrayList<>();
        try (var dirs = Files.list(templates)) {
            dirs.filter(d -> Files.isRegularFile(d.resolve("template.json")))
                .forEach(d -> names.add(d.getFileName().toString()));
        }
        assertTrue(names.containsAll(EXPECTED.keySet()), "templates present: " + names);

        Path root = tmp.resolve("generated");
        StringBuilder modules = new StringBuilder();
        for (String name : names) {
            CliRun r = CliRun.of("new", name, root.resolve(name).toString(), "--package", "org.acme." + name,
                "--toolchains", tmp.resolve("m2/toolchains.xml").toString());
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().contains("Created"), r.out());
            assertTrue(r.out().contains(tmp.resolve("m2/toolchains.xml") + (names.indexOf(name) == 0
                ? " with the JDK " + Runtime.version().feature() : " already offers a JDK")), r.out());
            String pom = Files.readString(root.resolve(name).resolve("pom.xml"));
            assertTrue(pom.contains("<artifactId>cumulus-runtime</artifactId>") && pom.contains("0.1.0-SNAPSHOT")
                && pom.contains("<release>25</release>"), pom);
            assertTrue(Files.readString(root.resolve(name).resolve("README.md")).contains("cumulus run --nodes 3"),
                "the README has the run command");
            assertTrue(Files.isRegularFile(root.resolve(name).resolve("src/main/java/org/acme/" + name + "/Main.java")));
            modules.append("<module>").append(name).append("</module>");
        }

        // One Maven invocation builds all generated projects (each is a standalone project; this pom only aggregates).
        Files.writeString(root.resolve("pom.xml"), """
            <project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
            <groupId>test</groupId><artifactId>all</artifactId><version>1</version><packaging>pom</packaging>
            <modules>%s</modules></project>""".formatted(modules));
        mavenPackage(root);

        for (String name : names) {
            Path classes = root.resolve(name).resolve("target/classes");
            CapturedOutput out = new CapturedOutput();
            CapturedOutput err = new CapturedOutput();
            RunResult result = new ClusterLauncher(new LaunchContext().nodes(3).mainClass("org.acme." + name + ".Main")
                .classpath(classes.toString()).runsRoot(tmp.resolve("runs")).timeout(Duration.ofSeconds(40)),
                out.stream(), err.stream()).run();
            assertEquals(0, result.exitCode(), name + ":\n" + out.text() + err.text());
            String expected = EXPECTED.get(name);
            if (expected != null) {
                assertTrue(out.text().lines().anyMatch(l -> l.startsWith("[0] ") && l.contains(expected)), name + " prints '" + expected + "':\n" + out.text());
            }
        }
    }

    private static void mavenPackage(Path dir) throws IOException, InterruptedException {
        String javaHome = System.getProperty("java.home");
        Path log = dir.resolve("maven.log");
        ProcessBuilder pb = new ProcessBuilder("mvn", "-B", "-q", "package")
            .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", javaHome);
        pb.environment().put("PATH", javaHome + File.separator + "bin" + File.pathSeparator + System.getenv("PATH"));
        String mavenOpts = System.getenv("MAVEN_OPTS");   // kept: it may name another local repository
        pb.environment().put("MAVEN_OPTS", (mavenOpts == null ? "" : mavenOpts + " ") + "--sun-misc-unsafe-memory-access=allow");
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("mvn package did not finish in 120 s:\n" + Files.readString(log));
        }
        assertEquals(0, p.exitValue(), "mvn -q package of the generated projects:\n"
            + Files.readString(log, StandardCharsets.UTF_8));
    }

    /**
     * Where the JDK that runs Maven is older (17), the generated project still builds and runs its LocalCluster test
     * with JDK 25: the pom selects a JDK 25 toolchain, found in the toolchains file that cumulus new registered its
     * JDK in (the plugin's own discovery of installed JDKs is switched off here, so the registration is what counts).
     */
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void aTemplateBuildsAndTestsWithMavenOnAnOlderJdk() throws Exception {
        Path jdk17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64");
        Assumptions.assumeTrue(Files.isExecutable(jdk17.resolve("bin/java")), "no JDK 17 at " + jdk17);
        Path project = tmp.resolve("on-17");
        Path toolchainsFile = tmp.resolve("m2-17/toolchains.xml");
        CliRun r = CliRun.of("new", "replicated", project.toString(), "--package", "org.acme.old", "--toolchains",
            toolchainsFile.toString());
        assertEquals(0, r.exit(), r.err());
        Path log = project.resolve("maven.log");
        ProcessBuilder pb = new ProcessBuilder("mvn", "-B", "-t", toolchainsFile.toString(),
            "-Dtoolchain.jdk.discover=false", "package").directory(project.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", jdk17.toString());
        // ./build's MAVEN_OPTS names a flag JDK 17 does not know; the rest (another local repository) is kept
        String mavenOpts = System.getenv("MAVEN_OPTS");
        pb.environment().put("MAVEN_OPTS", mavenOpts == null ? "" : mavenOpts.replace("--sun-misc-unsafe-memory-access=allow", ""));
        pb.environment().put("PATH", jdk17.resolve("bin") + File.pathSeparator + System.getenv("PATH"));
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("mvn package did not finish in 120 s:\n" + Files.readString(log));
        }
        String out = Files.readString(log);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("Toolchain in maven-compiler-plugin: JDK[" + System.getProperty("java.home") + "]"), out);
        assertTrue(out.contains("Tests run: 1, Failures: 0, Errors: 0"), "MinimumTest ran LocalCluster.run:\n" + out);
    }

    @Test
    void listNamesEveryTemplate() {
        CliRun r = CliRun.of("new", "--list");
        assertEquals(0, r.exit(), r.err());
        for (String name : EXPECTED.keySet()) {
            assertTrue(r.out().contains(name), r.out());
        }
        CliRun json = CliRun.of("new", "--list", "--json");
        assertEquals(0, json.exit(), json.err());
        assertTrue(json.out().startsWith("[{\"name\":"), json.out());
    }

    @Test
    void aBadPackageNamesTheVariableTheValueAndTheRule() {
        CliRun r = CliRun.of("new", "replicated", tmp.resolve("bad-package").toString(), "--package", "Org.Example");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("variable 'package'") && r.err().contains("'Org.Example'")
            && r.err().contains("Java package name") && r.err().contains("pattern"), r.err());
        assertTrue(!Files.exists(tmp.resolve("bad-package")), "nothing is written on a validation error");
    }

    @Test
    void aBadVariableValueAndAnUnknownVariableAreRefused() {
        CliRun r = CliRun.of("new", "tuplespace", tmp.resolve("bad-var").toString(), "--var", "laps=many");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("variable 'laps'") && r.err().contains("'many'"), r.err());

        CliRun unknown = CliRun.of("new", "tuplespace", tmp.resolve("bad-var").toString(), "--var", "colour=blue");
        assertEquals(CumulusCli.EXIT_USAGE, unknown.exit());
        assertTrue(unknown.err().contains("no variable 'colour'") && unknown.err().contains("laps"), unknown.err());
    }

    @Test
    void aNonEmptyDirectoryAndAnUnknownTemplateAreRefused() throws IOException {
        Path full = Files.createDirectories(tmp.resolve("full"));
        Files.writeString(full.resolve("keep.txt"), "mine");
        CliRun r = CliRun.of("new", "remote", full.toString());
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("is not empty"), r.err());
        assertEquals("mine", Files.readString(full.resolve("keep.txt")));

        CliRun unknown = CliRun.of("new", "nosuch", tmp.resolve("x").toString());
        assertEquals(CumulusCli.EXIT_USAGE, unknown.exit());
        assertTrue(unknown.err().contains("no template 'nosuch'") && unknown.err().contains("replicated"), unknown.err());
    }

    @Test
    void aTemplatesFolderCanBeGivenExplicitly() throws IOException {
        Path mine = Files.createDirectories(tmp.resolve("my-templates/hello"));
        Files.writeString(mine.resolve("template.json"), """
            { "name": "hello", "description": "d",
              "variables": [ { "name": "who", "default": "world", "pattern": "[a-z]+", "message": "lower-case" } ],
              "files": [ { "from": "hi.txt", "to": "{{who}}/hi.txt" } ] }""");
        Files.writeString(mine.resolve("hi.txt"), "hello {{who}} {{unknown}}");
        CliRun r = CliRun.of("new", "hello", tmp.resolve("out-hello").toString(), "--templates",
            tmp.resolve("my-templates").toString(), "--var", "who=cumulus");
        assertEquals(0, r.exit(), r.err());
        assertEquals("hello cumulus {{unknown}}", Files.readString(tmp.resolve("out-hello/cumulus/hi.txt")));
    }
}
