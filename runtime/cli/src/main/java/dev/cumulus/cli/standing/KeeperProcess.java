package dev.cumulus.cli.standing;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.auth.OwnerOnly;
import dev.cumulus.internal.cloud.AgentLoader;
import dev.cumulus.internal.service.StandingServer;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code cumulus cluster start}'s side of a keeper: starts {@code cumulus cluster serve NAME} as a JVM of its own in
 * the background (its own session when {@code setsid} is there, so the terminal's Ctrl-C and hang-up do not reach
 * it; stdin from {@code /dev/null}; output into the cluster's {@code keeper.log}), and waits until the cluster's state
 * file appears (it serves) or the keeper ends (it failed).
 */
public final class KeeperProcess {
    /** The keeper's log in the cluster's directory. */
    public static final String LOG = "keeper.log";
    private static final List<String> JVM_FLAGS = List.of(
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED");
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    private KeeperProcess() {
    }

    /**
     * Starts the keeper and waits for the cluster to serve.
     *
     * @return the cluster's record
     * @throws CumulusException when the keeper ends or the timeout passes first (the keeper is then stopped), with
     *                          the end of the keeper's log
     */
    public static ClusterRecord start(ClusterRegistry registry, String name, int nodes, String classpath,
                                      Duration timeout, ServerHosts hosts) {
        Path dir = registry.clusterDirectory(name);
        Path log = dir.resolve(LOG);
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            cmd.add(SETSID.toString());
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_FLAGS);
        cmd.add("-D" + ClusterRegistry.CONFIG_DIR_PROPERTY + "=" + registry.configDir());
        String agentJar = System.getProperty(AgentLoader.JAR_PROPERTY);
        if (agentJar != null && !agentJar.isBlank()) {
            cmd.add("-D" + AgentLoader.JAR_PROPERTY + "=" + agentJar); // the servers' agent is the starter's
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("dev.cumulus.cli.CumulusCli");
        cmd.addAll(List.of("cluster", "serve", name, "--nodes", Integer.toString(nodes),
            "--start-timeout", timeout.toMillis() + "ms", "--classpath", classpath));
        if (hosts != null) {
            cmd.addAll(hosts.args());
        }
        Process keeper;
        try {
            Files.deleteIfExists(log);
            Files.createFile(log, OwnerOnly.fileAttributes()); // the servers' output may show the clients' data
            keeper = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectErrorStream(true)
                .start();
        } catch (IOException e) {
            throw new CumulusException("cannot start the keeper of cluster " + name + " (" + cmd.getFirst() + "): "
                + e.getMessage(), e);
        }
        // The keeper gives up by itself after the timeout; a little more here lets it say why in its log.
        Duration wait = timeout.plusSeconds(15);
        boolean serving = FileWait.await(registry.stateFile(name), wait, () -> !keeper.isAlive());
        if (serving) {
            return registry.read(name).orElseThrow();
        }
        keeper.destroy();
        try {
            keeper.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            keeper.destroyForcibly();
        }
        throw new CumulusException("cluster " + name + " did not start: " + (keeper.isAlive() ? "no answer within "
            + wait.toSeconds() + "s" : "its keeper ended with code " + keeper.exitValue()) + "; its log (" + log
            + ") ends:\n" + tail(log, 20));
    }

    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read it: " + e.getMessage() + ")";
        }
    }

    /** Whether {@code pid} is a server node of a standing cluster (a pid may have been reused since it was noted). */
    static boolean isServer(ProcessHandle p) {
        return p.info().arguments().map(args -> List.of(args).contains(StandingServer.class.getName()))
            .orElse(false);
    }
}
