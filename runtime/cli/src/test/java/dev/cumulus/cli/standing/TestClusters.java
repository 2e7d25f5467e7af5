package dev.cumulus.cli.standing;

import dev.cumulus.cli.CliRun;
import dev.cumulus.cli.CumulusCli;
import dev.cumulus.cli.standing.mains.TallyImpl;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Standing clusters for the system tests: started with {@code cumulus cluster start} under a configuration directory
 * of the test's own (so the user's clusters and credentials are never touched) and stopped with
 * {@code cumulus cluster stop}, as a user does.
 */
final class TestClusters {
    private TestClusters() {
    }

    /** Where the test programs' classes are (the servers' {@code -cp} when they must have them). */
    static String testClasses() {
        try {
            return new File(TallyImpl.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Makes {@code configDir} the configuration directory of this JVM's standing clusters (the user's own are never
     * touched) until {@link #forgetConfigDir()}; returns its registry.
     */
    static ClusterRegistry useConfigDir(Path configDir) {
        System.setProperty(ClusterRegistry.CONFIG_DIR_PROPERTY, configDir.toString());
        return ClusterRegistry.ofUser();
    }

    /** Undoes {@link #useConfigDir}. */
    static void forgetConfigDir() {
        System.clearProperty(ClusterRegistry.CONFIG_DIR_PROPERTY);
    }

    /**
     * Starts cluster {@code name} of {@code servers} servers with its state under {@code configDir}, the servers'
     * classpath {@code classpath} (or none when null), and returns its record.
     */
    static ClusterRecord start(Path configDir, String name, int servers, String classpath) {
        ClusterRegistry registry = useConfigDir(configDir);
        List<String> args = new ArrayList<>(List.of("cluster", "start", name, "--nodes", Integer.toString(servers)));
        if (classpath != null) {
            args.addAll(List.of("-cp", classpath));
        }
        CliRun.ok(args.toArray(String[]::new));
        return registry.read(name).orElseThrow();
    }

    /** Stops cluster {@code name} (it must stop cleanly) and forgets the test's configuration directory. */
    static void stop(String name) {
        try {
            assertEquals(0, CumulusCli.execute(new String[] {"cluster", "stop", name}, System.out, System.err));
        } finally {
            forgetConfigDir();
        }
    }
}
