package dev.cumulus.internal.launch;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.node.NodeSettings;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What a node process needs to know about its run: written by the launcher ({@code cumulus run}) as
 * {@code -Dcumulus.*} system properties on each node's command line, read by {@code Cluster.join()}.
 *
 * @param runId          unique id of the run; nodes ignore messages from other runs
 * @param nodeId         this node, 0..size-1
 * @param size           number of nodes
 * @param runDir         directory for the run's files (JFR recordings, logs)
 * @param aeronDir       Aeron media driver directory this node connects to, or {@code null} to embed a driver
 * @param transport      {@link TransportMode#IPC} when all nodes share one driver on one host, {@link TransportMode#UDP}
 *                       for UDP between every two nodes, {@link TransportMode#HOSTS} for nodes spread over hosts
 * @param endpoints      for UDP and HOSTS: {@code host:port} of every node, indexed by node id (empty for IPC); with
 *                       HOSTS, nodes whose endpoints name the same host share that host's driver and talk IPC
 * @param streamBase     first Aeron stream id of this run (a run uses a small range above it)
 * @param heartbeatIntervalMs how often a node tells its peers it is alive
 * @param heartbeatTimeoutMs  silence after which a peer is declared dead or hung
 * @param idleStrategy   idle strategy spec for the node's agent thread (see {@code IdleStrategies})
 * @param profile        whether the node records JFR events into {@code runDir}
 * @param encrypt        whether frames between hosts (UDP) are encrypted as well as authenticated
 *
 * <p>The run's secret is not here: the launcher writes it on each node's stdin ({@link NodeSecret}); these
 * properties only say so.
 *
 * <p>This is the one place that names the launcher–node handshake: the fields above as {@code -Dcumulus.*}
 * properties, and the other properties a launcher sets on a node's command line ({@link #SECRET},
 * {@link #LAUNCHER_PID}, {@link #PROFILE_SINK}, {@link #ATTACH}, {@link #SINGLE_VM}). None of them is a user setting;
 * the settings a user may give are {@code NodeSettings}' (docs/CLI.md, "Node settings").
 */
public record LaunchConfig(
    String runId,
    int nodeId,
    int size,
    Path runDir,
    String aeronDir,
    TransportMode transport,
    List<String> endpoints,
    int streamBase,
    long heartbeatIntervalMs,
    long heartbeatTimeoutMs,
    String idleStrategy,
    boolean profile,
    boolean encrypt) {

    public static final String PREFIX = "cumulus.";
    /* The fields' property names, as toProperties writes them and fromProperties reads them. */
    public static final String RUN_ID = PREFIX + "run.id";
    public static final String NODE_ID = PREFIX + "node.id";
    public static final String NODES = PREFIX + "nodes";
    public static final String RUN_DIR = PREFIX + "run.dir";
    public static final String AERON_DIR = PREFIX + "aeron.dir";
    public static final String TRANSPORT = PREFIX + "transport";
    public static final String ENDPOINTS = PREFIX + "endpoints";
    public static final String STREAM_BASE = PREFIX + "stream.base";
    public static final String HEARTBEAT_INTERVAL_MS = PREFIX + "heartbeat.interval.ms";
    public static final String HEARTBEAT_TIMEOUT_MS = PREFIX + "heartbeat.timeout.ms";
    public static final String IDLE = PREFIX + "idle";
    public static final String PROFILE = PREFIX + "profile";
    public static final String ENCRYPT = PREFIX + "encrypt";
    /** {@code stdin}: the run's secret is the first line of the node's stdin ({@link NodeSecret}). */
    public static final String SECRET = PREFIX + "secret";
    /** The launcher's process id: the node ends when that process does ({@link LauncherWatch}). */
    public static final String LAUNCHER_PID = PREFIX + "launcher.pid";
    /** {@code HOST:PORT} of the launcher's live profile sink ({@code cumulus run --live} over hosts). */
    public static final String PROFILE_SINK = PREFIX + "profile.sink";
    /** The standing cluster a client program attaches to ({@code cumulus run --attach NAME}). */
    public static final String ATTACH = PREFIX + "attach";
    /** {@code true} in a node of {@code cumulus run --single-vm}: the agent weaves every program class. */
    public static final String SINGLE_VM = PREFIX + "singleVm";
    public static final int MAX_NODES = 256;

    /** How nodes reach each other. */
    public enum TransportMode {
        /** One host, one shared driver, Aeron IPC. */
        IPC,
        /** Aeron UDP unicast between every two nodes. */
        UDP,
        /** Nodes over several hosts, one driver per host: IPC within a host, UDP unicast between hosts. */
        HOSTS
    }

    /** Without encryption (frames between hosts are authenticated only). */
    public LaunchConfig(String runId, int nodeId, int size, Path runDir, String aeronDir, TransportMode transport,
                        List<String> endpoints, int streamBase, long heartbeatIntervalMs, long heartbeatTimeoutMs,
                        String idleStrategy, boolean profile) {
        this(runId, nodeId, size, runDir, aeronDir, transport, endpoints, streamBase, heartbeatIntervalMs,
            heartbeatTimeoutMs, idleStrategy, profile, false);
    }

    public LaunchConfig {
        if (runId == null || runId.isBlank()) {
            throw new CumulusException("launch configuration: run id is missing");
        }
        if (size < 1 || size > MAX_NODES) {
            throw new CumulusException("launch configuration: node count " + size + " is outside 1.." + MAX_NODES);
        }
        if (nodeId < 0 || nodeId >= size) {
            throw new CumulusException("launch configuration: node id " + nodeId + " is outside 0.." + (size - 1));
        }
        endpoints = List.copyOf(endpoints);
        if (transport != TransportMode.IPC && endpoints.size() != size) {
            throw new CumulusException("launch configuration: " + transport.name().toLowerCase()
                + " transport needs one endpoint per node, got "
                + endpoints.size() + " for " + size + " nodes");
        }
        if (heartbeatIntervalMs <= 0 || heartbeatTimeoutMs <= heartbeatIntervalMs) {
            throw new CumulusException("launch configuration: heartbeat timeout (" + heartbeatTimeoutMs
                + " ms) must exceed the interval (" + heartbeatIntervalMs + " ms), both positive");
        }
    }

    /** As {@code -Dcumulus.x=y} arguments for a node's command line. */
    public List<String> toJvmArguments() {
        List<String> args = new ArrayList<>();
        toProperties().forEach((k, v) -> args.add("-D" + k + "=" + v));
        return args;
    }

    /** As properties (keys with the {@code cumulus.} prefix). */
    public Map<String, String> toProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(RUN_ID, runId);
        p.put(NODE_ID, Integer.toString(nodeId));
        p.put(NODES, Integer.toString(size));
        p.put(RUN_DIR, runDir.toString());
        if (aeronDir != null) {
            p.put(AERON_DIR, aeronDir);
        }
        p.put(TRANSPORT, transport.name().toLowerCase());
        if (!endpoints.isEmpty()) {
            p.put(ENDPOINTS, String.join(",", endpoints));
        }
        p.put(STREAM_BASE, Integer.toString(streamBase));
        p.put(HEARTBEAT_INTERVAL_MS, Long.toString(heartbeatIntervalMs));
        p.put(HEARTBEAT_TIMEOUT_MS, Long.toString(heartbeatTimeoutMs));
        p.put(IDLE, idleStrategy);
        p.put(PROFILE, Boolean.toString(profile));
        if (encrypt) {
            p.put(ENCRYPT, "true");
        }
        p.put(SECRET, NodeSecret.STDIN);
        return p;
    }

    /** True when this JVM was started by the launcher. */
    public static boolean isPresent(Properties props) {
        return props.getProperty(RUN_ID) != null;
    }

    /** Reads the configuration the launcher put on this JVM's command line. */
    public static LaunchConfig fromProperties(Properties props) {
        if (!isPresent(props)) {
            throw new CumulusException("Cluster.join() works only inside a node started by 'cumulus run' "
                + "(no -Dcumulus.run.id on this JVM). Start the program with "
                + "'cumulus run --nodes N -cp CLASSPATH MAIN', or use LocalCluster.run(n, body) for n nodes in one JVM.");
        }
        String endpoints = props.getProperty(ENDPOINTS, "");
        return new LaunchConfig(
            props.getProperty(RUN_ID),
            intProp(props, NODE_ID, -1),
            intProp(props, NODES, 0),
            Path.of(props.getProperty(RUN_DIR, ".")),
            props.getProperty(AERON_DIR),
            TransportMode.valueOf(props.getProperty(TRANSPORT, "ipc").toUpperCase()),
            endpoints.isEmpty() ? List.of() : Arrays.asList(endpoints.split(",")),
            intProp(props, STREAM_BASE, 1000),
            longProp(props, HEARTBEAT_INTERVAL_MS, NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS),
            longProp(props, HEARTBEAT_TIMEOUT_MS, NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS),
            props.getProperty(IDLE, NodeSettings.DEFAULT_IDLE_STRATEGY),
            Boolean.parseBoolean(props.getProperty(PROFILE, "false")),
            Boolean.parseBoolean(props.getProperty(ENCRYPT, "false")));
    }

    private static int intProp(Properties props, String key, int dflt) {
        return (int) longProp(props, key, dflt);
    }

    private static long longProp(Properties props, String key, long dflt) {
        String v = props.getProperty(key);
        if (v == null) {
            return dflt;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new CumulusException("launch configuration: -D" + key + "=" + v + " is not a number");
        }
    }
}
