package dev.cumulus.cli.standing;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.auth.OwnerOnly;
import dev.cumulus.internal.service.StandingClusterFile;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The user's standing clusters: one owner-only state file per cluster, {@code <dir>/NAME.properties} (0600), and one
 * owner-only directory, {@code <dir>/NAME/} (0700: the servers' run directory and the keeper's log), in an owner-only
 * directory (0700). The directory is {@code -Dcumulus.config.dir}, else {@code $CUMULUS_CONFIG_DIR}, else
 * {@code $XDG_CONFIG_HOME/cumulus}, else {@code ~/.config/cumulus}, with {@code clusters} below it.
 */
public final class ClusterRegistry {
    /** The system property that chooses the configuration directory (tests, and the keeper its starter's). */
    public static final String CONFIG_DIR_PROPERTY = StandingClusterFile.CONFIG_DIR_PROPERTY;
    private static final String SUFFIX = ".properties";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private final Path configDir;
    private final Path dir;

    public ClusterRegistry(Path configDir) {
        this.configDir = configDir.toAbsolutePath().normalize();
        this.dir = this.configDir.resolve("clusters");
    }

    /** The registry of this user, as the class comment says where. */
    public static ClusterRegistry ofUser() {
        return new ClusterRegistry(configDir(System.getProperty(CONFIG_DIR_PROPERTY), System.getenv()));
    }

    static Path configDir(String property, Map<String, String> env) {
        return StandingClusterFile.configDir(property, env);
    }

    public Path configDir() {
        return configDir;
    }

    /**
     * Checks a cluster's name.
     *
     * @throws CumulusException saying what a name may hold
     */
    public static String checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new CumulusException("cluster name '" + name + "' is not valid: use 1 to 64 letters, digits, '.', "
                + "'_' or '-', starting with a letter or digit");
        }
        return name;
    }

    /** The state file of cluster {@code name}. */
    public Path stateFile(String name) {
        return dir.resolve(checkName(name) + SUFFIX);
    }

    /** The owner-only directory of cluster {@code name} (created with its parents if missing). */
    public Path clusterDirectory(String name) {
        OwnerOnly.createDirectory(configDir);
        OwnerOnly.createDirectory(dir);
        return OwnerOnly.createDirectory(dir.resolve(checkName(name)));
    }

    /** The directory of cluster {@code name}, created or not. */
    Path clusterDirectoryPath(String name) {
        return dir.resolve(checkName(name));
    }

    /** Writes the state file whole (a reader sees the old file, none, or the new one), owner-only. */
    public void write(ClusterRecord record) {
        clusterDirectory(record.name());
        Path file = stateFile(record.name());
        Path tmp = dir.resolve("." + record.name() + SUFFIX + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            Files.createFile(tmp, OwnerOnly.fileAttributes());
            Properties p = new Properties();
            p.putAll(record.toMap());
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "cumulus standing cluster " + record.name() + " (owner-only: holds the admin credential)");
            }
            OwnerOnly.restrict(tmp);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new CumulusException("cannot write the cluster state file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The record of cluster {@code name}, or empty when there is no state file. */
    public Optional<ClusterRecord> read(String name) {
        Path file = stateFile(name);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new CumulusException("cannot read the cluster state file " + file + ": " + e.getMessage(), e);
        }
        return Optional.of(ClusterRecord.fromProperties(p, file));
    }

    /** Every cluster with a state file, by name; damaged files are skipped with their names in {@code damaged}. */
    public List<ClusterRecord> list(List<String> damaged) {
        List<ClusterRecord> all = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return all;
        }
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
            for (Path f : files) {
                String n = f.getFileName().toString();
                names.add(n.substring(0, n.length() - SUFFIX.length()));
            }
        } catch (IOException e) {
            throw new CumulusException("cannot list the clusters in " + dir + ": " + e.getMessage(), e);
        }
        names.sort(null);
        for (String n : names) {
            try {
                read(n).ifPresent(all::add);
            } catch (CumulusException e) {
                damaged.add(n);
            }
        }
        return all;
    }

    /** Deletes the state file and the cluster's directory. */
    public void remove(String name) {
        try {
            Files.deleteIfExists(stateFile(name));
        } catch (IOException e) {
            throw new CumulusException("cannot delete " + stateFile(name) + ": " + e.getMessage(), e);
        }
        deleteTree(clusterDirectoryPath(name));
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new CumulusException("cannot delete " + root + ": " + e.getMessage(), e);
        }
    }
}
