package dev.cumulus.cli;

import com.google.gson.Gson;
import dev.cumulus.cli.launch.RuntimeClasspath;
import dev.cumulus.cli.launch.mains.BlockMain;
import dev.cumulus.cli.launch.mains.PrintArgsMain;
import dev.cumulus.internal.launch.LaunchConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.Comparator;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code ./cumulus} script, run with bash from another directory. {@code CUMULUS_CLI_CLASSPATH} points it at the
 * classes of this build, so it does not start a Maven build of its own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CumulusScriptTest {
    @TempDir
    Path tmp;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void noProcessLeft() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        List<ProcessHandle> left = ProcessHandle.current().descendants().toList();
        left.forEach(ProcessHandle::destroyForcibly);
        assertTrue(left.isEmpty(), "processes left: " + left);
    }

    @Test
    void helpWorksFromAnotherDirectory() throws Exception {
        Process p = script("--help");
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes()));
        assertTrue(out.startsWith("Usage: cumulus "), out);
        assertTrue(out.contains("  run "), out);
    }

    @Test
    void lspExecsTheServerJvmInPlaceOfTheScript() throws Exception {
        Path jar = fakeServerJar();
        Process p = script("lsp", "--server-jar", jar.toString());
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        CompletableFuture.runAsync(() -> copy(p, out, false));
        CompletableFuture.runAsync(() -> copy(p, err, true));
        out.awaitContains(Duration.ofSeconds(40), "server pid=");
        Matcher m = Pattern.compile("server pid=(\\d+) args=(.*)").matcher(out.text());
        assertTrue(m.find(), out.text());
        assertEquals(p.pid(), Long.parseLong(m.group(1)), "the script's own process runs the server: " + out.text());
        assertTrue(p.descendants().findAny().isEmpty(), "no second JVM: " + p.descendants().toList());
        assertTrue(m.group(2).startsWith("[--cumulus-classpath, "), m.group(2));
        assertTrue(m.group(2).contains("--cumulus-command, " + repoRoot().resolve("cumulus")), m.group(2));
        p.getOutputStream().close();                    // the editor goes away: the server's stdin ends
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err.text());
    }

    @Test
    void lspWithoutABuiltServerSaysWhatToDo() throws Exception {
        Process p = script("lsp", "--server-jar", tmp.resolve("missing.jar").toString());
        String err = new String(p.getErrorStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(1, p.exitValue(), err);
        assertTrue(err.contains("the language server is not built") && err.contains("--server-jar"), err);
    }

    /**
     * A jar whose {@code dev.cumulus.lsp.CumulusLanguageServer} prints its pid and arguments, then waits for stdin to
     * end, as the real server does; compiled here so that this module needs no language server build.
     */
    private Path fakeServerJar() throws IOException {
        Path src = tmp.resolve("fake/dev/cumulus/lsp/CumulusLanguageServer.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, """
            package dev.cumulus.lsp;
            public class CumulusLanguageServer {
                public static void main(String[] args) throws Exception {
                    System.out.println("server pid=" + ProcessHandle.current().pid() + " args="
                        + java.util.Arrays.toString(args));
                    System.out.flush();
                    System.in.transferTo(java.io.OutputStream.nullOutputStream());
                }
            }
            """);
        Path classes = tmp.resolve("fake-classes");
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
            src.toString()));
        Path jar = tmp.resolve("fake-lsp/cumulus-lsp.jar");
        Files.createDirectories(jar.getParent());
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(jar))) {
            j.putNextEntry(new JarEntry("dev/cumulus/lsp/CumulusLanguageServer.class"));
            j.write(Files.readAllBytes(classes.resolve("dev/cumulus/lsp/CumulusLanguageServer.class")));
            j.closeEntry();
        }
        return jar;
    }

    @Test
    void sigtermToTheLauncherStopsEveryNodeAndDeletesTheDriverDirectory() throws Exception {
        Path runDir = tmp.resolve("run");
        Process p = script("run", "--nodes", "2", "--run-dir", runDir.toString(), "-cp",
            CumulusCliTest.TEST_CLASSES, "--jvm-arg=-XX:TieredStopAtLevel=1", BlockMain.class.getName());
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        CompletableFuture.runAsync(() -> copy(p, out, false));
        CompletableFuture<Void> errCopied = CompletableFuture.runAsync(() -> copy(p, err, true));
        out.awaitContains(Duration.ofSeconds(40), "[0] ready pid=", "[1] ready pid=");
        List<ProcessHandle> nodes = new ArrayList<>();
        Matcher m = Pattern.compile("ready pid=(\\d+)").matcher(out.text());
        while (m.find()) {
            nodes.add(ProcessHandle.of(Long.parseLong(m.group(1))).orElseThrow());
        }
        String runId = launchProperties(runDir).getProperty(LaunchConfig.RUN_ID);
        assertNotNull(runId);
        String driverDir = launchProperties(runDir).getProperty(LaunchConfig.AERON_DIR);
        assertTrue(Files.isDirectory(Path.of(driverDir)), driverDir);

        p.toHandle().destroy();               // SIGTERM to the launcher JVM (Process.destroy would close our pipes)
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "launcher ended");
        assertEquals(143, p.exitValue(), err.text());
        for (ProcessHandle node : nodes) {
            node.onExit().get(10, TimeUnit.SECONDS);
            assertFalse(node.isAlive(), "node " + node.pid());
        }
        assertFalse(Files.exists(Path.of(driverDir)), "driver directory deleted: " + driverDir);
        assertTrue(driverDir.endsWith("cumulus-" + runId), driverDir);
        errCopied.get(10, TimeUnit.SECONDS);
        Properties result = properties(runDir.resolve("result.properties"));
        assertEquals("STOPPED", result.getProperty("ending"), "result.properties is written on a stop too");
        assertEquals("130", result.getProperty("exit.code"));
        assertTrue(err.text().contains("cumulus: run " + runId + " directory: " + runDir), err.text());
    }

    @Test
    void aKilledLauncherTakesItsNodesWithItAndTheNextRunRemovesItsDriverDirectory() throws Exception {
        Path runDir = tmp.resolve("killed");
        Process p = script("run", "--nodes", "2", "--run-dir", runDir.toString(), "-cp",
            CumulusCliTest.TEST_CLASSES, "--jvm-arg=-XX:TieredStopAtLevel=1", BlockMain.class.getName());
        CapturedOutput out = new CapturedOutput();
        CompletableFuture.runAsync(() -> copy(p, out, false));
        CompletableFuture.runAsync(() -> copy(p, new CapturedOutput(), true));
        out.awaitContains(Duration.ofSeconds(40), "[0] ready pid=", "[1] ready pid=");
        List<ProcessHandle> nodes = new ArrayList<>();
        Matcher m = Pattern.compile("ready pid=(\\d+)").matcher(out.text());
        while (m.find()) {
            nodes.add(ProcessHandle.of(Long.parseLong(m.group(1))).orElseThrow());
        }
        String driverDir = launchProperties(runDir).getProperty(LaunchConfig.AERON_DIR);
        ProcessHandle launcher = nodes.getFirst().parent().orElseThrow();

        try {
            launcher.destroyForcibly();                                   // SIGKILL: no shutdown hook runs
            for (ProcessHandle node : nodes) {
                node.onExit().get(10, TimeUnit.SECONDS);                   // they die with it, not 15 s later
            }
            assertTrue(Files.isDirectory(Path.of(driverDir)), "nobody cleaned up after a SIGKILL: " + driverDir);

            Process next = script("run", "--nodes", "1", "--run-dir", tmp.resolve("next").toString(), "-cp",
                CumulusCliTest.TEST_CLASSES, "--jvm-arg=-XX:TieredStopAtLevel=1", PrintArgsMain.class.getName());
            CapturedOutput nextErr = new CapturedOutput();
            CompletableFuture.runAsync(() -> copy(next, new CapturedOutput(), false));
            CompletableFuture<Void> copied = CompletableFuture.runAsync(() -> copy(next, nextErr, true));
            assertTrue(next.waitFor(40, TimeUnit.SECONDS), "the next run ended");
            copied.get(10, TimeUnit.SECONDS);
            assertEquals(0, next.exitValue(), nextErr.text());
            assertFalse(Files.exists(Path.of(driverDir)), "the next run removed " + driverDir);
            assertTrue(nextErr.text().contains("cumulus: removed " + driverDir + ", left by a run whose launcher is "
                + "gone"), nextErr.text());
        } finally {
            deleteTree(Path.of(driverDir));
        }
    }

    private Process script(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("bash", repoRoot().resolve("cumulus").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        pb.environment().put("CUMULUS_CLI_CLASSPATH", cliClasspath());
        pb.environment().put("CUMULUS_JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private static String cliClasspath() {
        List<String> cp = new ArrayList<>();
        cp.add(CumulusCliTest.location(CumulusCli.class));
        cp.add(CumulusCliTest.location(CommandLine.class));
        cp.add(CumulusCliTest.location(Gson.class)); // cumulus new reads and writes its JSON with Gson
        RuntimeClasspath.entries().forEach(e -> cp.add(e.toString()));
        return String.join(File.pathSeparator, cp);
    }

    private static Path repoRoot() {
        for (Path d = Path.of(CumulusCliTest.TEST_CLASSES); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("cumulus")) && Files.isRegularFile(d.resolve("build"))) {
                return d;
            }
        }
        throw new IllegalStateException("no ./cumulus above " + CumulusCliTest.TEST_CLASSES);
    }

    private static Properties launchProperties(Path runDir) throws IOException {
        return properties(runDir.resolve("launch.properties"));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static Properties properties(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        return p;
    }

    private static void copy(Process p, CapturedOutput to, boolean stderr) {
        try {
            (stderr ? p.getErrorStream() : p.getInputStream()).transferTo(to);
        } catch (IOException e) {
            // process gone
        }
    }
}
