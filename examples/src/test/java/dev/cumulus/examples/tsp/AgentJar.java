package dev.cumulus.examples.tsp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Points {@code -Dcumulus.agent.jar} at a usable agent for the tests of the replicated versions.
 *
 * <p>Work-around: the examples module has neither cumulus-agent nor cumulus-analysis on its test classpath, so
 * {@code LocalCluster} cannot find the agent, and the bare agent jar cannot start without the analysis classes. This
 * packs both jars (built by {@code ./build}) into one temporary agent jar. With cumulus-agent as a test dependency of
 * the examples module this class can go.
 */
public final class AgentJar {
    private static final String PROPERTY = "cumulus.agent.jar";

    private AgentJar() {
    }

    /** Sets the property unless it is set already. */
    public static synchronized void locate() {
        if (System.getProperty(PROPERTY) != null) {
            return;
        }
        Path agent = built("agent");
        Path analysis = built("analysis");
        try {
            Path merged = Files.createTempFile("cumulus-agent-examples", ".jar");
            merged.toFile().deleteOnExit();
            Manifest manifest;
            try (JarInputStream in = new JarInputStream(Files.newInputStream(agent))) {
                manifest = in.getManifest();
            }
            Set<String> seen = new HashSet<>();
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(merged), manifest)) {
                copy(agent, out, seen);
                copy(analysis, out, seen);
            }
            System.setProperty(PROPERTY, merged.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pack the agent for the tests", e);
        }
    }

    private static Path built(String module) {
        String name = "cumulus-" + module + "-0.1.0-SNAPSHOT.jar";
        Path checkout = Path.of(System.getProperty("user.dir"), "..", "runtime", module, "target", name).normalize();
        Path m2 = Path.of(System.getProperty("user.home"), ".m2", "repository", "dev", "cumulus", "cumulus-" + module,
            "0.1.0-SNAPSHOT", name);
        if (Files.isRegularFile(checkout)) {
            return checkout;
        }
        if (Files.isRegularFile(m2)) {
            return m2;
        }
        throw new IllegalStateException("no " + name + " in " + checkout + " or " + m2 + "; run ./build first");
    }

    private static void copy(Path jar, JarOutputStream out, Set<String> seen) throws IOException {
        try (JarInputStream in = new JarInputStream(Files.newInputStream(jar))) {
            for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
                if (e.isDirectory() || e.getName().startsWith("META-INF/") || !seen.add(e.getName())) {
                    continue;
                }
                out.putNextEntry(new JarEntry(e.getName()));
                transfer(in, out);
                out.closeEntry();
            }
        }
    }

    private static void transfer(InputStream in, OutputStream out) throws IOException {
        in.transferTo(out);
    }
}
