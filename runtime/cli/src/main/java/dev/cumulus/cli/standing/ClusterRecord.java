package dev.cumulus.cli.standing;

import dev.cumulus.CumulusException;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What a standing cluster's owner-only state file says: how to reach the cluster (its media driver's directory, run
 * id and stream base), who keeps it (the keeper's and the servers' process ids), and its admin credential.
 *
 * @param name            the cluster's name
 * @param keeperPid       the keeper process ({@code cumulus cluster serve}), which owns the driver and the servers
 * @param serverPids      the server nodes' processes, by node id
 * @param runId           the run id of the servers' launch (their frames carry its tag)
 * @param driverDir       the Aeron directory the servers and the clients share (IPC on this host)
 * @param streamBase      the first Aeron stream id of the cluster
 * @param runDir          the servers' run directory
 * @param adminCredential the admin's secret, 64 hex digits
 * @param started         when the cluster began to serve
 * @param servers         where the servers run: on this host ({@link ServerPlacement#ONE_HOST}), or on several
 *                        hosts, each server's host and UDP endpoint, and how the clients reach them (the keeper's
 *                        driver, {@code driverDir}, then serves the clients; {@code serverPids} are the servers' ssh
 *                        sessions on this host, which end when the servers do)
 */
public record ClusterRecord(String name, long keeperPid, List<Long> serverPids, String runId, String driverDir,
                            int streamBase, Path runDir, String adminCredential, Instant started,
                            ServerPlacement servers) {

    public ClusterRecord {
        serverPids = List.copyOf(serverPids);
    }

    /**
     * Where a standing cluster's servers run.
     *
     * @param hosts         each server's host, by node id ({@code localhost} on one host)
     * @param endpoints     each server's UDP endpoint, by node id; empty on one host (IPC)
     * @param clientSecret  with endpoints: the cluster's client secret (64 hex digits), which seals the frames
     *                      between servers and clients
     * @param clientAddress with endpoints: the address of this host the servers reach the clients at
     */
    public record ServerPlacement(List<String> hosts, List<String> endpoints, String clientSecret,
                                  String clientAddress) {
        /** Every server on this host. */
        public static final ServerPlacement ONE_HOST = new ServerPlacement(List.of(), List.of(), null, null);

        public ServerPlacement {
            hosts = List.copyOf(hosts);
            endpoints = List.copyOf(endpoints);
        }

        /** The distinct hosts in node order, as {@code cluster list} shows them ("localhost" on one host). */
        public String hostsColumn() {
            return hosts.isEmpty() ? "localhost" : String.join(",", new java.util.LinkedHashSet<>(hosts));
        }
    }

    /** Number of servers. */
    public int size() {
        return serverPids.size();
    }

    /**
     * How many servers' processes still run: fewer than {@link #size()} when some died (the others serve on).
     */
    public int serving() {
        return (int) serverPids.stream().filter(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false))
            .count();
    }

    /** The SERVERS column of {@code cluster list}: the number of servers, as "serving/all" once some are gone. */
    public String serversColumn() {
        int serving = serving();
        return !alive() || serving == size() ? Integer.toString(size()) : serving + "/" + size();
    }

    /** Whether the keeper process still runs (a record whose keeper is gone is stale). */
    public boolean alive() {
        return ProcessHandle.of(keeperPid).map(ProcessHandle::isAlive).orElse(false);
    }

    Map<String, String> toMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("keeper.pid", Long.toString(keeperPid));
        m.put("server.pids", String.join(",", serverPids.stream().map(String::valueOf).toList()));
        m.put("run.id", runId);
        m.put("driver.dir", driverDir);
        m.put("stream.base", Integer.toString(streamBase));
        m.put("run.dir", runDir.toString());
        m.put("admin.credential", adminCredential);
        m.put("started", started.toString());
        if (!servers.hosts().isEmpty()) {
            m.put("server.hosts", String.join(",", servers.hosts()));
        }
        if (!servers.endpoints().isEmpty()) {
            m.put("server.endpoints", String.join(",", servers.endpoints()));
            m.put("client.secret", servers.clientSecret());
            m.put("client.address", servers.clientAddress());
        }
        return m;
    }

    /**
     * Reads a record from its properties.
     *
     * @throws CumulusException naming the file and the missing or bad key
     */
    static ClusterRecord fromProperties(Properties p, Path file) {
        try {
            List<Long> pids = new ArrayList<>();
            String listed = get(p, "server.pids", file);
            if (!listed.isBlank()) {
                Arrays.stream(listed.split(",")).map(String::trim).map(Long::parseLong).forEach(pids::add);
            }
            return new ClusterRecord(get(p, "name", file), Long.parseLong(get(p, "keeper.pid", file)), pids,
                get(p, "run.id", file), get(p, "driver.dir", file), Integer.parseInt(get(p, "stream.base", file)),
                Path.of(get(p, "run.dir", file)), get(p, "admin.credential", file),
                Instant.parse(get(p, "started", file)), placement(p, file));
        } catch (RuntimeException e) {
            if (e instanceof CumulusException ce) {
                throw ce;
            }
            throw new CumulusException("cluster state file " + file + " is damaged (" + e.getMessage()
                + "); stop the cluster with 'cumulus cluster stop' (it removes the file)", e);
        }
    }

    private static ServerPlacement placement(Properties p, Path file) {
        String hosts = p.getProperty("server.hosts", "");
        String endpoints = p.getProperty("server.endpoints", "");
        if (endpoints.isBlank()) {
            return new ServerPlacement(hosts.isBlank() ? List.of() : List.of(hosts.split(",")), List.of(), null, null);
        }
        return new ServerPlacement(hosts.isBlank() ? List.of() : List.of(hosts.split(",")),
            List.of(endpoints.split(",")), get(p, "client.secret", file), get(p, "client.address", file));
    }

    private static String get(Properties p, String key, Path file) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new CumulusException("cluster state file " + file + " lacks '" + key
                + "'; stop the cluster with 'cumulus cluster stop' (it removes the file)");
        }
        return v;
    }
}
