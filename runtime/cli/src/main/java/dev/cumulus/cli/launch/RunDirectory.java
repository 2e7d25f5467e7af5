package dev.cumulus.cli.launch;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.auth.OwnerOnly;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * A run's directory ({@code ./cumulus-runs/<runId>} by default). It holds:
 * <ul>
 *   <li>{@code launch.properties}: run id, node count, main class, arguments, classpath, transport;</li>
 *   <li>{@code result.properties}: how the run ended, its exit code, the node where a failure began and its cause;</li>
 *   <li>{@code node-<i>.failure}: node i's failure report, when it failed or saw a failure
 *   ({@code dev.cumulus.internal.launch.FailureReport});</li>
 *   <li>with {@code --profile}: {@code cumulus.jfc} (the recording settings) and {@code node-<i>.jfr} per node.</li>
 * </ul>
 * The directory outlives the run; {@code cumulus profile RUN_DIR} reads it later.
 */
public final class RunDirectory {
    public static final String LAUNCH_PROPERTIES = "launch.properties";
    public static final String RESULT_PROPERTIES = "result.properties";
    public static final String PROFILE_SETTINGS = "cumulus.jfc";
    /** The ending of the nodes' recordings' file names. */
    static final String JFR_SUFFIX = ".jfr";
    /** The ending of the nodes' failure reports' file names. */
    static final String FAILURE_SUFFIX = ".failure";
    /** The ending of a single-VM program's exit report's file name ({@link dev.cumulus.internal.launch.ExitReport}). */
    static final String EXIT_SUFFIX = ".exit";

    private final Path path;

    private RunDirectory(Path path) {
        this.path = path;
    }

    /**
     * Creates the directory (and its parents) if needed; the directory itself is owner-only (0700), made so if it
     * existed: its recordings and reports show the run's calls.
     */
    static RunDirectory create(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        try {
            OwnerOnly.createDirectory(abs);
        } catch (CumulusException e) {
            throw new LaunchException("cannot create the run directory " + abs + ": " + e.getMessage()
                + "; choose another with --run-dir");
        }
        return new RunDirectory(abs);
    }

    /** The file name of node {@code node}'s recording: {@code node-<i>.jfr}. */
    public static String jfrFileName(int node) {
        return "node-" + node + JFR_SUFFIX;
    }

    public Path path() {
        return path;
    }

    Path jfrFile(int node) {
        return path.resolve(jfrFileName(node));
    }

    /**
     * Node {@code node}'s JFR disk repository while it runs ({@code -XX:FlightRecorderOptions:repository}): the
     * launcher streams its live profile from there. Its JVM removes its chunks when it exits; {@link
     * #deleteJfrRepository} removes the rest.
     */
    Path jfrRepository(int node) {
        return path.resolve("jfr-repository-node-" + node);
    }

    /** Deletes node {@code node}'s repository directory and whatever is left in it. */
    void deleteJfrRepository(int node) {
        DriverDirectories.deleteTree(jfrRepository(node)); // what cannot be deleted is left for the user
    }

    Path writeText(String name, String text) {
        Path file = path.resolve(name);
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CumulusException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    void writeProperties(String name, Map<String, String> values, String comment) {
        Properties p = new Properties();
        p.putAll(values);
        Path file = path.resolve(name);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, comment);
        } catch (IOException e) {
            throw new CumulusException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
