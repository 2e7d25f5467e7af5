package dev.cumulus.internal.launch;

import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.cluster.NodeCluster;
import dev.cumulus.internal.node.ClusterNode;
import dev.cumulus.internal.node.FailureCause;
import dev.cumulus.internal.node.LaunchedNodeEnd;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.internal.rpc.ClientService;
import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.transport.FrameSealing;
import dev.cumulus.internal.transport.TransportContext;
import java.lang.reflect.InvocationTargetException;
import java.util.function.Function;


/**
 * Starts this process's node from the launcher's {@link LaunchConfig} ({@code Cluster.join()}). Fail-stop policy of
 * a launched node: on a failure it prints one line naming the failed node and the reason, reports where the failure
 * began to the launcher ({@link LaunchedNodeEnd}), lets blocked calls throw, and exits with
 * {@link #EXIT_CLUSTER_FAILED} after a short grace period if the program has not ended by itself.
 */
public final class NodeRuntime {
    /** Exit code of a node that ends because the cluster failed. */
    public static final int EXIT_CLUSTER_FAILED = 3;
    static final long EXIT_GRACE_MS = 2_000;

    private NodeRuntime() {
    }

    /**
     * The nodes that share this node's host: all with IPC, those whose endpoints name this node's host when the
     * nodes are spread over hosts, and as far as this node can tell only itself with UDP (one host's endpoints may
     * have several names).
     */
    static int nodesOnThisHost(LaunchConfig config) {
        return switch (config.transport()) {
            case IPC -> config.size();
            case UDP -> 1;
            case HOSTS -> {
                String mine = hostOf(config.endpoints().get(config.nodeId()));
                yield (int) config.endpoints().stream().filter(e -> hostOf(e).equals(mine)).count();
            }
        };
    }

    private static String hostOf(String endpoint) {
        int colon = endpoint.lastIndexOf(':');
        return colon < 0 ? endpoint : endpoint.substring(0, colon);
    }

    public static Cluster joinFromLaunch() {
        return joinFromLaunch(null);
    }

    /**
     * {@link #joinFromLaunch()} with the sealing of UDP frames given here instead of by the launch ({@code null}: as
     * launched). Only for {@code cumulus bench rpc --transport udp}, which measures what the seal costs against
     * {@link FrameSealing#NONE_FOR_BENCH}; no option of {@code cumulus run} reaches it.
     */
    public static Cluster joinFromLaunch(FrameSealing sealingOverride) {
        return joinFromLaunch(sealingOverride, null);
    }

    /**
     * Joins as a server of a standing cluster ({@code cumulus cluster start}, runtime/service): as
     * {@link #joinFromLaunch()}, and the node also serves the cluster's clients through the service
     * {@code clients} makes from the credential the run's secret derives ({@link RunSecret#STANDING_CREDENTIAL_PURPOSE}),
     * which the clients prove.
     */
    public static Cluster serveFromLaunch(Function<byte[], ClientService.Factory> clients) {
        return joinFromLaunch(null, clients);
    }

    private static Cluster joinFromLaunch(FrameSealing sealingOverride,
                                          Function<byte[], ClientService.Factory> serveClients) {
        LaunchConfig config = LaunchConfig.fromProperties(System.getProperties());
        LauncherWatch.startIfLaunched();
        RunSecret secret = NodeSecret.get();
        if (secret == null && serveClients != null) {
            throw new CumulusException("server " + config.nodeId() + ": a standing cluster's server needs the run's "
                + "secret on its stdin; start the cluster with 'cumulus cluster start'");
        }
        if (secret == null && config.transport() != LaunchConfig.TransportMode.IPC) {
            throw new CumulusException("node " + config.nodeId() + ": UDP between nodes needs the run's secret, which "
                + "'cumulus run' hands each node on its stdin (-D" + LaunchConfig.SECRET + "=" + NodeSecret.STDIN
                + "); start the nodes with 'cumulus run'");
        }
        if (secret == null) {
            secret = RunSecret.generate(); // IPC: the driver directory's owner is the boundary; no peer needs it
        }
        FrameSealing sealing = sealingOverride != null ? sealingOverride
            : config.encrypt() ? FrameSealing.ENCRYPT : FrameSealing.MAC;
        startLiveProfiler(config.nodeId(), secret);
        DriverHost embedded = null;
        // Every setting is read and checked before anything starts, so a bad one leaves nothing behind.
        NodeSettings options = NodeSettings.of(config.nodeId(), config.size(), config.heartbeatIntervalMs(),
            config.heartbeatTimeoutMs(), config.idleStrategy(),
            nodesOnThisHost(config), System.getProperties());
        String aeronDir = config.aeronDir();
        if (aeronDir == null && config.transport() == LaunchConfig.TransportMode.IPC && config.size() > 1) {
            throw new CumulusException("IPC transport needs the nodes to share a media driver: start them with "
                + "'cumulus run', which hosts one, or use UDP endpoints");
        }
        if (aeronDir == null) {
            embedded = DriverHost.start(DriverHost.defaultDirectory(config.runId() + "-node" + config.nodeId()));
            aeronDir = embedded.directory();
        }
        NodeCluster node;
        LaunchedNodeEnd[] ends = new LaunchedNodeEnd[1]; // the failure listener needs it; it needs the node
        try {
            TransportContext transport = new TransportContext(aeronDir,
                config.transport() != LaunchConfig.TransportMode.IPC,
                config.transport() == LaunchConfig.TransportMode.HOSTS, config.endpoints(), config.streamBase(),
                TransportContext.runTagOf(config.runId()), TransportContext.DEFAULT_DATA_TERM_LENGTH,
                TransportContext.DEFAULT_MAX_MESSAGE_BYTES, secret, sealing);
            ClusterNode.FailureListener onFailure = (failed, failure) -> exitAfterGrace(failed, failure, ends);
            node = serveClients != null
                ? NodeCluster.startServer(options, transport, contextLoader(), onFailure,
                    serveClients.apply(secret.keyBytes(RunSecret.STANDING_CREDENTIAL_PURPOSE)))
                : NodeCluster.start(options, transport, contextLoader(), onFailure);
        } catch (RuntimeException | Error e) {
            if (embedded != null) {
                embedded.close(); // its threads would keep this JVM alive, and its directory would stay
            }
            throw e;
        }
        DriverHost driver = embedded;
        if (driver != null) {
            // The driver's threads are not daemons: close it when the node leaves, or the JVM never exits.
            node.afterLeave(driver::close);
        }
        boolean launched = System.getProperty(LaunchConfig.LAUNCHER_PID) != null; // by cumulus run, which reads reports
        ends[0] = new LaunchedNodeEnd(node.node(), launched ? cause -> report(config, cause) : null,
            Thread.currentThread(), EXIT_CLUSTER_FAILED);
        ends[0].install();
        return node.awaitJoined();
    }

    /**
     * With {@code -Dcumulus.profile.sink=HOST:PORT} (set by {@code cumulus run --profile}), starts the profiler's live
     * summaries of this node, each line tagged with the run's live profile key; reflective, so the runtime does not depend on the profiler. Never fails the node.
     */
    private static void startLiveProfiler(int nodeId, RunSecret secret) {
        String sink = System.getProperty(LaunchConfig.PROFILE_SINK);
        if (sink == null || sink.isBlank()) {
            return;
        }
        try {
            Class.forName("dev.cumulus.profiler.live.LiveProfiler", true, NodeRuntime.class.getClassLoader())
                .getMethod("start", String.class, int.class, byte[].class)
                .invoke(null, sink, nodeId, secret.keyBytes(RunSecret.LIVE_PROFILE_PURPOSE));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            Throwable cause = e instanceof InvocationTargetException ite && ite.getCause() != null
                ? ite.getCause() : e;
            System.err.println("cumulus: node " + nodeId + ": no live profile (" + cause + ")");
        }
    }

    /**
     * Writes this node's {@link FailureReport} into the run directory, where the launcher reads it; none once the node
     * wrote an {@link ExitReport}.
     */
    private static void report(LaunchConfig config, FailureCause cause) {
        if (ExitReport.read(config.runDir(), config.nodeId()).isPresent()) {
            return; // it ends because the program called System.exit (single-VM mode): no failure
        }
        if (!new FailureReport(config.nodeId(), cause.origin(), cause.cause()).writeOnce(config.runDir())) {
            System.err.println("cumulus: node " + config.nodeId() + " could not write its failure report into "
                + config.runDir());
        }
    }

    private static ClassLoader contextLoader() {
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        return l != null ? l : NodeRuntime.class.getClassLoader();
    }

    private static void exitAfterGrace(ClusterNode node, NodeFailedException failure, LaunchedNodeEnd[] ends) {
        if (ends[0] != null) {
            ends[0].onClusterFailure(failure);
        }
        System.err.println("cumulus: node " + node.nodeId() + " stops: " + failure.getMessage() + " (fail-stop)");
        System.err.flush();
        Thread exiter = new Thread(() -> {
            try {
                Thread.sleep(EXIT_GRACE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            System.exit(EXIT_CLUSTER_FAILED);
        }, "cumulus-fail-stop");
        exiter.setDaemon(true);
        exiter.start();
    }
}
