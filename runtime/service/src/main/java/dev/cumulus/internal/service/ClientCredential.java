package dev.cumulus.internal.service;

import dev.cumulus.AccessDeniedException;
import dev.cumulus.CumulusException;
import dev.cumulus.internal.auth.OwnerOnly;
import dev.cumulus.internal.rpc.AccessRule;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;

/**
 * A client's credential for a standing cluster, as {@code cumulus cluster grant NAME CLIENT} writes it into an
 * owner-only file: the cluster, the client's principal name, the cluster's start it is valid for, and the client's key
 * ({@link ClientAdmission#clientKey}, derived from the admin credential, which it does not reveal). A client attaches
 * with the file ({@link #forAttach}); a server checks the key it proves against the one it derives itself.
 *
 * @param cluster the cluster's name
 * @param client  the principal name
 * @param runId   the cluster's start the credential was granted for (a restart makes new credentials)
 * @param key     the client's key
 */
public record ClientCredential(String cluster, String client, String runId, byte[] key) {
    /** The system property naming the credential file a client attaches with ({@code run --attach --credential}). */
    public static final String PROPERTY = "cumulus.credential";
    /** The environment variable that names it when the property is not set. */
    public static final String ENV = "CUMULUS_CREDENTIAL";

    /**
     * The credential of {@code client} for the start {@code runId} of cluster {@code cluster}, whose admin credential
     * is {@code admin} (what the cluster's owner-only state file holds).
     */
    public static ClientCredential grant(String cluster, String runId, byte[] admin, String client) {
        checkName(client);
        return new ClientCredential(cluster, client, runId, ClientAdmission.clientKey(admin, client));
    }

    /**
     * The name a client's credential is granted under.
     *
     * @throws CumulusException when it is not 1 to 64 letters, digits, '.', '_' or '-' starting with a letter or digit
     */
    public static void checkName(String client) {
        if (client == null || !client.matches(ClientAdmission.PRINCIPAL_PATTERN)) {
            throw new CumulusException("client name '" + client + "' is not valid: use 1 to 64 letters, digits, '.', "
                + "'_' or '-', starting with a letter or digit");
        }
    }

    /**
     * The directory of the credentials {@code cluster grant} writes for cluster {@code cluster} by default:
     * {@code credentials/NAME} in the configuration directory {@code configDir}.
     */
    public static Path defaultDir(Path configDir, String cluster) {
        return configDir.resolve("credentials").resolve(cluster);
    }

    /**
     * Where {@code cluster grant NAME CLIENT} writes by default, and where a client looks when no file is named (for
     * the OS user's name as {@code client}).
     */
    public static Path defaultFile(Path configDir, String cluster, String client) {
        return defaultDir(configDir, cluster).resolve(client + ".credential");
    }

    /** Writes this credential to {@code file}, owner-only (0600, its directory 0700 when made here), atomically. */
    public void write(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            OwnerOnly.createDirectory(dir);
        }
        Properties p = new Properties();
        p.setProperty("cluster", cluster);
        p.setProperty("client", client);
        p.setProperty("run.id", runId);
        p.setProperty("key", HexFormat.of().formatHex(key));
        Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            Files.createFile(tmp, OwnerOnly.fileAttributes());
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "cumulus credential of client " + client + " for cluster " + cluster + " (keep it private)");
            }
            OwnerOnly.restrict(tmp);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new CumulusException("cannot write the credential file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a credential file.
     *
     * @throws AccessDeniedException when it is missing, unreadable or damaged
     */
    public static ClientCredential read(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new AccessDeniedException("cannot read the credential file " + file + ": " + e);
        }
        try {
            ClientCredential c = new ClientCredential(p.getProperty("cluster"), p.getProperty("client"),
                p.getProperty("run.id"), HexFormat.of().parseHex(p.getProperty("key")));
            checkName(c.client);
            if (c.cluster == null || c.runId == null || c.key.length != 32) {
                throw new IllegalArgumentException("a field is missing");
            }
            return c;
        } catch (RuntimeException e) {
            throw new AccessDeniedException("the credential file " + file + " is damaged (" + e.getMessage() + "); ask "
                + "the cluster's admin for a new one ('cumulus cluster grant NAME CLIENT')");
        }
    }

    /**
     * The credential a client attaches to {@code cluster} with: the file {@code property} names (from
     * {@code -Dcumulus.credential}), else {@code $CUMULUS_CREDENTIAL}, else {@link #defaultFile} for the OS user's name.
     *
     * @throws AccessDeniedException when there is none, or it is another cluster's or an earlier start's
     */
    public static ClientCredential forAttach(StandingClusterFile cluster, String property, Map<String, String> env) {
        String named = property != null && !property.isBlank() ? property : env.get(ENV);
        Path file = named != null && !named.isBlank() ? Path.of(named)
            : defaultFile(StandingClusterFile.clustersDir().getParent(), cluster.name(), System.getProperty("user.name"));
        if (!Files.isRegularFile(file)) {
            throw new AccessDeniedException("no credential to attach to cluster " + cluster.name() + " with: " + file
                + " does not exist; ask the cluster's admin for one ('cumulus cluster grant " + cluster.name()
                + " CLIENT' writes it) and pass it with 'cumulus run --attach " + cluster.name() + " --credential FILE' "
                + "(or -D" + PROPERTY + "=FILE, or $" + ENV + ")");
        }
        ClientCredential c = read(file);
        if (!c.cluster.equals(cluster.name())) {
            throw new AccessDeniedException("the credential " + file + " is for cluster " + c.cluster + ", not "
                + cluster.name());
        }
        if (!c.runId.equals(cluster.runId())) {
            throw new AccessDeniedException("the credential " + file + " of client " + c.client + " was granted before "
                + "cluster " + cluster.name() + " was last started; ask its admin for a new one ('cumulus cluster grant "
                + cluster.name() + " " + c.client + "')");
        }
        return c;
    }

    /** Whether this is the admin's credential (the admin reaches every object). */
    public boolean admin() {
        return AccessRule.ADMIN.equals(client);
    }

    @Override
    public String toString() {
        return "ClientCredential[" + client + " of " + cluster + "]";
    }
}
