package dev.cumulus.internal.service;

import dev.cumulus.CumulusException;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What a client reads of a standing cluster's owner-only state file ({@code cumulus cluster start} writes it): where
 * the cluster's media driver is, its run id and stream base, how many servers it has, and its credential.
 *
 * @param name       the cluster's name
 * @param file       the state file
 * @param driverDir  the Aeron directory the servers and clients share
 * @param runId      the servers' run id (their frames carry its tag)
 * @param streamBase the cluster's first stream id
 * @param servers    number of servers
 * @param keeperPid  the keeper's process
 * @param serverPids the servers' processes, by node id
 * @param credential    the cluster's credential
 * @param endpoints     with servers on several hosts ({@code --hosts}): each server's UDP endpoint, by node id (the
 *                      clients reach them over UDP through the keeper's driver, {@code driverDir}); empty on one host
 * @param clientSecret  with {@code endpoints}: the cluster's client secret, which seals the frames with clients
 * @param clientAddress with {@code endpoints}: the address of the keeper's host the servers reach clients at
 */
public record StandingClusterFile(String name, Path file, String driverDir, String runId, int streamBase, int servers,
                                  long keeperPid, List<Long> serverPids, byte[] credential, List<String> endpoints,
                                  byte[] clientSecret, String clientAddress) {
    /** The system property that chooses the configuration directory. */
    public static final String CONFIG_DIR_PROPERTY = "cumulus.config.dir";
    /** The environment variable that chooses it when the property is not set. */
    public static final String CONFIG_DIR_ENV = "CUMULUS_CONFIG_DIR";

    /**
     * The user's configuration directory: {@code -Dcumulus.config.dir}, else {@code $CUMULUS_CONFIG_DIR}, else
     * {@code $XDG_CONFIG_HOME/cumulus}, else {@code ~/.config/cumulus}.
     */
    public static Path configDir(String property, Map<String, String> env) {
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String explicit = env.get(CONFIG_DIR_ENV);
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = env.get("XDG_CONFIG_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "cumulus");
        }
        return Path.of(System.getProperty("user.home"), ".config", "cumulus");
    }

    /** The directory of the user's clusters' state files. */
    public static Path clustersDir() {
        return configDir(System.getProperty(CONFIG_DIR_PROPERTY), System.getenv()).toAbsolutePath().normalize()
            .resolve("clusters");
    }

    /** The cluster's own directory, next to its state file. */
    public Path clusterDir() {
        return file.resolveSibling(name);
    }

    /**
     * Reads the state file of cluster {@code name} from the user's clusters.
     *
     * @throws CumulusException when there is no such cluster, the file is damaged, or its keeper is gone
     */
    public static StandingClusterFile read(String name) {
        if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
            throw new CumulusException("cluster name '" + name + "' is not valid: use 1 to 64 letters, digits, '.', "
                + "'_' or '-', starting with a letter or digit");
        }
        Path file = clustersDir().resolve(name + ".properties");
        if (!Files.isRegularFile(file)) {
            throw new CumulusException("there is no standing cluster " + name + " (no " + file + "); start one with "
                + "'cumulus cluster start " + name + " --nodes N'");
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new CumulusException("cannot read " + file + ": " + e.getMessage(), e);
        }
        StandingClusterFile s;
        try {
            List<Long> pids = Arrays.stream(p.getProperty("server.pids").split(",")).map(String::trim)
                .map(Long::parseLong).toList();
            String endpoints = p.getProperty("server.endpoints", "");
            String clientSecret = p.getProperty("client.secret");
            s = new StandingClusterFile(name, file, p.getProperty("driver.dir"), p.getProperty("run.id"),
                Integer.parseInt(p.getProperty("stream.base")), pids.size(), Long.parseLong(p.getProperty("keeper.pid")),
                pids, HexFormat.of().parseHex(p.getProperty("admin.credential")),
                endpoints.isBlank() ? List.of() : List.of(endpoints.split(",")),
                clientSecret == null ? null : HexFormat.of().parseHex(clientSecret), p.getProperty("client.address"));
            if (!s.endpoints().isEmpty() && (s.endpoints().size() != pids.size() || s.clientSecret() == null
                || s.clientAddress() == null)) {
                throw new IllegalArgumentException("its servers' endpoints, client secret or client address are "
                    + "missing");
            }
        } catch (RuntimeException e) {
            throw new CumulusException("the state file " + file + " of cluster " + name + " is damaged (" + e
                + "); stop the cluster with 'cumulus cluster stop " + name + "' and start it again", e);
        }
        if (s.driverDir() == null || s.runId() == null) {
            throw new CumulusException("the state file " + file + " of cluster " + name + " lacks the driver directory "
                + "or run id; stop the cluster with 'cumulus cluster stop " + name + "' and start it again");
        }
        if (!ProcessHandle.of(s.keeperPid()).map(ProcessHandle::isAlive).orElse(false)) {
            throw new CumulusException("cluster " + name + " is stale: its keeper (pid " + s.keeperPid() + ") is gone; "
                + "'cumulus cluster stop " + name + "' cleans it up, then start it again");
        }
        return s;
    }
}
