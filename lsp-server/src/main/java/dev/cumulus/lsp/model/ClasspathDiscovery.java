package dev.cumulus.lsp.model;

import dev.cumulus.analysis.ClassSource;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Finds the classpath of a project. Sources, in order, all joined:
 * <ol>
 *   <li>the Cumulus API given by the client (initialization option {@code cumulusClasspath}, or the server's
 *       {@code --cumulus-classpath} argument);</li>
 *   <li>a Maven project ({@code pom.xml} in the root): {@code mvn -q dependency:build-classpath}, run once and cached
 *       in {@code target/cumulus-lsp.classpath} until {@code pom.xml} changes;</li>
 *   <li>if the API is still missing: {@code cumulus classpath} from the Cumulus command line, if one is found
 *       ({@link CumulusTool}).</li>
 * </ol>
 * Blocking (runs child processes); call it off the LSP thread.
 */
public final class ClasspathDiscovery {
    private static final String API_CLASS = "dev/cumulus/Cloud$Root";

    private ClasspathDiscovery() {
    }

    /**
     * @param root     the workspace folder, or {@code null}
     * @param given    the API classpath from the client, or {@code null}
     * @param cumulus  the Cumulus command, or {@code null}
     * @param progress receives short progress messages ("running mvn dependency:build-classpath")
     */
    public static ClasspathInfo discover(Path root, String given, Path cumulus, Consumer<String> progress) {
        LinkedHashSet<Path> entries = new LinkedHashSet<>();
        List<String> origins = new ArrayList<>();
        if (given != null && !given.isBlank()) {
            entries.addAll(split(given));
            origins.add("initialization option cumulusClasspath");
        }
        if (root != null && Files.isRegularFile(root.resolve("pom.xml"))) {
            try {
                entries.addAll(split(maven(root, progress)));
                origins.add("pom.xml");
            } catch (IOException e) {
                progress.accept("could not read the Maven classpath: " + e.getMessage());
            }
        }
        if (!hasApi(List.copyOf(entries)) && cumulus != null) {
            try {
                progress.accept("running " + cumulus + " classpath");
                String out = run(List.of(cumulus.toString(), "classpath"), root, 600);
                String last = out.lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("");
                entries.addAll(split(last));
                origins.add("cumulus classpath");
            } catch (IOException e) {
                progress.accept("could not run cumulus classpath: " + e.getMessage());
            }
        }
        List<Path> list = List.copyOf(entries);
        return new ClasspathInfo(list, hasApi(list), origins.isEmpty() ? "none" : String.join(" + ", origins));
    }

    /** True if the Cumulus API ({@code dev.cumulus.Cloud.Root}) is on these entries. */
    public static boolean hasApi(List<Path> entries) {
        try (ClassSource s = ClassSource.classpath(entries)) {
            return s.classBytes(API_CLASS).isPresent();
        } catch (RuntimeException e) {
            return false;
        }
    }

    static List<Path> split(String classpath) {
        List<Path> out = new ArrayList<>();
        for (String s : classpath.trim().split(File.pathSeparator)) {
            if (s.isBlank()) {
                continue;
            }
            if (s.endsWith("/*") || s.endsWith(File.separator + "*")) {
                Path dir = Path.of(s.substring(0, s.length() - 2));
                try (var files = Files.list(dir)) {
                    files.filter(f -> f.toString().endsWith(".jar")).sorted().forEach(out::add);
                } catch (IOException e) {
                    // a wildcard over a missing folder contributes nothing
                }
            } else {
                out.add(Path.of(s.trim()));
            }
        }
        return out;
    }

    private static String maven(Path root, Consumer<String> progress) throws IOException {
        Path cache = root.resolve("target").resolve("cumulus-lsp.classpath");
        Path pom = root.resolve("pom.xml");
        if (Files.isRegularFile(cache)
                && Files.getLastModifiedTime(cache).compareTo(Files.getLastModifiedTime(pom)) >= 0) {
            return Files.readString(cache, StandardCharsets.UTF_8);
        }
        progress.accept("running mvn dependency:build-classpath (once; cached in target/cumulus-lsp.classpath)");
        Files.createDirectories(cache.getParent());
        run(List.of(mvnCommand(), "-q", "-B", "dependency:build-classpath", "-Dmdep.outputFile=" + cache), root, 900);
        if (!Files.isRegularFile(cache)) {
            throw new IOException("mvn wrote no classpath file");
        }
        return Files.readString(cache, StandardCharsets.UTF_8);
    }

    private static String mvnCommand() {
        return System.getProperty("os.name", "").startsWith("Windows") ? "mvn.cmd" : "mvn";
    }

    /** Runs a command, returns its standard output; fails on a non-zero exit or timeout. */
    static String run(List<String> command, Path dir, int timeoutSeconds) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(false)
                .redirectInput(ProcessBuilder.Redirect.from(new File(File.separatorChar == '\\' ? "NUL" : "/dev/null")));
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        File err = File.createTempFile("cumulus-lsp", ".err");
        try {
            pb.redirectError(err);
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command.getFirst() + " timed out");
            }
            if (p.exitValue() != 0) {
                String e = Files.readString(err.toPath(), StandardCharsets.UTF_8).strip();
                throw new IOException(String.join(" ", command) + " exited with " + p.exitValue()
                        + (e.isEmpty() ? "" : ": " + e.lines().reduce((a, b) -> b).orElse("")));
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            Files.deleteIfExists(err.toPath());
        }
    }
}
