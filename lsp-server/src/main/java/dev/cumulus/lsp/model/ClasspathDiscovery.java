package dev.cumulus.lsp.model;

import dev.cumulus.analysis.ClassSource;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Finds the classpath of a project. Sources, in order, all joined:
 * <ol>
 *   <li>the Cumulus API given by the client (initialization option {@code cumulusClasspath}, or the server's
 *       {@code --cumulus-classpath} argument);</li>
 *   <li>a Maven project ({@code pom.xml} in the root): {@code mvn dependency:build-classpath}, offline first (the
 *       local repository usually has everything) and online only if that fails; the result is cached in the cache
 *       folder (never in the project), keyed by the project folder and the text of its {@code pom.xml}, and used
 *       while every entry it names still exists;</li>
 *   <li>if the API is still missing: {@code cumulus classpath} from the Cumulus command line, if one is found
 *       ({@link CumulusTool}).</li>
 * </ol>
 * Blocking (runs child processes); call it off the LSP thread.
 */
public final class ClasspathDiscovery {
    private static final String API_CLASS = "dev/cumulus/Cloud$Root";
    private static final String POM_KEY = "# pom.xml sha256 ";

    private ClasspathDiscovery() {
    }

    /**
     * @param root     the workspace folder, or {@code null}
     * @param given    the API classpath from the client, or {@code null}
     * @param cumulus  the Cumulus command, or {@code null}
     * @param cache    the folder for cached classpaths (created if missing)
     * @param progress receives short progress messages ("running mvn dependency:build-classpath")
     */
    public static ClasspathInfo discover(Path root, String given, Path cumulus, Path cache,
                                         Consumer<String> progress) {
        LinkedHashSet<Path> entries = new LinkedHashSet<>();
        List<String> origins = new ArrayList<>();
        if (given != null && !given.isBlank()) {
            entries.addAll(split(given));
            origins.add("initialization option cumulusClasspath");
        }
        if (root != null && Files.isRegularFile(root.resolve("pom.xml"))) {
            try {
                entries.addAll(split(maven(root, cache, progress)));
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

    /** The default cache folder: {@code $XDG_CACHE_HOME/cumulus/lsp}, else {@code ~/.cache/cumulus/lsp}. */
    public static Path defaultCache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("cumulus").resolve("lsp");
    }

    /** The cache file of a project folder. */
    static Path cacheFile(Path cache, Path root) {
        return cache.resolve("maven-" + sha256(root.toAbsolutePath().normalize().toString()).substring(0, 16)
                + ".classpath");
    }

    private static String maven(Path root, Path cache, Consumer<String> progress) throws IOException {
        Path pom = root.resolve("pom.xml");
        String key = POM_KEY + sha256(Files.readString(pom, StandardCharsets.UTF_8));
        Path file = cacheFile(cache, root);
        if (Files.isRegularFile(file)) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            if (lines.size() == 2 && lines.get(0).equals(key)
                    && split(lines.get(1)).stream().allMatch(Files::exists)) {
                progress.accept("Maven classpath from the cache (pom.xml unchanged)");
                return lines.get(1);
            }
        }
        Files.createDirectories(cache);
        Path out = Files.createTempFile(cache, "mvn-", ".classpath");
        try {
            List<String> command = new ArrayList<>(List.of(mvnCommand(), "-q", "-B", "dependency:build-classpath",
                    "-Dmdep.outputFile=" + out));
            try {
                progress.accept("resolving the Maven classpath offline (mvn -o dependency:build-classpath)");
                List<String> offline = new ArrayList<>(command);
                offline.add(1, "-o");
                run(offline, root, 300);
            } catch (IOException offlineFailed) {
                progress.accept("not all dependencies are in the local Maven repository; resolving online "
                        + "(mvn dependency:build-classpath, once)");
                run(command, root, 900);
            }
            String classpath = Files.readString(out, StandardCharsets.UTF_8).strip();
            Files.writeString(file, key + "\n" + classpath + "\n", StandardCharsets.UTF_8);
            return classpath;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
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
