package dev.cumulus.cli.launch;

import dev.cumulus.CumulusException;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The classpath a node needs for the Cumulus runtime: the jars or class directories that hold the public API, the
 * launched node's side of the launch ({@code Cluster.join}, runtime/launch), the capability modules (shared arrays, tuple space, replicated objects: each found by its {@code NodeServices.Provider}),
 * the standing cluster's service (its servers' main, {@code Cluster.connect}), moving objects
 * ({@code Remote.migrate}),
 * the restriction checker and the agent (which weaves cloud classes), the profiler, the Aeron client and driver, and
 * Agrona, found through their classes' {@link CodeSource}s in this JVM. Whatever way the launcher was started (the
 * {@code ./cumulus} script, Maven's test classpath, an IDE), the nodes get the same runtime the launcher has. The
 * single-VM heap (runtime/singlevm) is not here: {@code cumulus run --single-vm} adds it.
 */
public final class RuntimeClasspath {
    /** One class from each artifact a node needs; looked up by name so this package does not import Aeron. */
    private static final List<String> ANCHORS = List.of(
        "dev.cumulus.Cluster",
        "dev.cumulus.internal.launch.NodeRuntime",
        "dev.cumulus.internal.array.ArraysProvider",
        "dev.cumulus.internal.pastset.PastSetProvider",
        "dev.cumulus.internal.cloud.CloudsProvider",
        "dev.cumulus.internal.service.StandingServer",
        "dev.cumulus.internal.migration.MigrationsProvider",
        "dev.cumulus.analysis.CloudAnalyzer",
        "dev.cumulus.agent.CumulusAgent",
        "dev.cumulus.profiler.live.LiveProfiler",
        "org.HdrHistogram.Histogram",
        "io.aeron.Aeron",
        "io.aeron.driver.MediaDriver",
        "org.agrona.DirectBuffer");

    private RuntimeClasspath() {
    }

    /** Absolute paths, in a stable order, without duplicates. */
    public static List<Path> entries() {
        Set<Path> paths = new LinkedHashSet<>();
        for (String name : ANCHORS) {
            paths.add(locate(name));
        }
        return new ArrayList<>(paths);
    }

    /** {@link #entries()} joined with the platform's path separator. */
    public static String asString() {
        return String.join(File.pathSeparator, entries().stream().map(Path::toString).toList());
    }

    /** Where {@code className} was loaded from: a jar or a class directory. */
    static Path locate(String className) {
        try {
            Class<?> c = Class.forName(className, false, RuntimeClasspath.class.getClassLoader());
            CodeSource cs = c.getProtectionDomain().getCodeSource();
            if (cs == null || cs.getLocation() == null) {
                throw new CumulusException("cannot tell where " + className + " was loaded from; the launcher must "
                    + "run from jars or class directories (use ./cumulus)");
            }
            return Path.of(cs.getLocation().toURI()).toAbsolutePath().normalize();
        } catch (ClassNotFoundException e) {
            throw new CumulusException("the launcher's classpath lacks " + className
                + "; run it through ./cumulus, which puts the Cumulus runtime on the classpath", e);
        } catch (URISyntaxException e) {
            throw new CumulusException("cannot turn the location of " + className + " into a path: " + e.getMessage(), e);
        }
    }
}
