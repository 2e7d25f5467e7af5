package dev.cumulus.cli.standing;

import dev.cumulus.CumulusException;
import dev.cumulus.cli.launch.ClusterLauncher;
import dev.cumulus.cli.launch.LaunchContext;
import dev.cumulus.cli.launch.RunResult;
import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.service.StandingServer;
import dev.cumulus.internal.launch.LaunchConfig.TransportMode;
import dev.cumulus.internal.transport.DriverHost;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The keeper of a standing cluster: the background process ({@code cumulus cluster serve}, started by
 * {@code cumulus cluster start}) that hosts the cluster's media driver and its server nodes through a
 * {@link ClusterLauncher} running {@link StandingServer}, and writes the cluster's state file once every server
 * serves. The servers live as long as the keeper: SIGTERM ({@code cumulus cluster stop}) stops them and removes the
 * driver's directory (the launcher's shutdown hook); a keeper killed outright takes them with it (their stdin ends).
 *
 * <p>Threads: the caller's waits for the servers to serve and then for the run to end; the launcher runs on a thread
 * of its own.
 */
public final class StandingKeeper {
    /** The servers' run directory inside the cluster's directory. */
    static final String RUN_DIR = "run";
    /** The keeper's driver for the clients of servers on other hosts: the launcher's driver directory and this. */
    static final String CLIENT_DRIVER_SUFFIX = "-clients";

    private final ClusterRegistry registry;
    private final String name;
    private final int nodes;
    private final String classpath;
    private final Duration startTimeout;
    private final PrintStream out;
    private final PrintStream err;
    private final ServerHosts hosts;

    /**
     * @param classpath classes every server has from the start ("" for none)
     * @param hosts     where the servers run, or null: on this host
     */
    public StandingKeeper(ClusterRegistry registry, String name, int nodes, String classpath, Duration startTimeout,
                          ServerHosts hosts, PrintStream out, PrintStream err) {
        this.classpath = classpath;
        this.hosts = hosts;
        this.registry = registry;
        this.name = ClusterRegistry.checkName(name);
        this.nodes = nodes;
        this.startTimeout = startTimeout;
        this.out = out;
        this.err = err;
    }

    /** {@code 0=HOST,1=HOST,...} as the host of each node, by node id. */
    private static List<String> nodeHosts(String listed) {
        return java.util.Arrays.stream(listed.split(",")).map(e -> e.substring(e.indexOf('=') + 1)).toList();
    }

    /** Starts the servers, records the cluster once they serve, and returns the launcher's exit code at its end. */
    public int run() {
        Path runDir = registry.clusterDirectory(name).resolve(RUN_DIR);
        ClusterRegistry.deleteTree(runDir); // a previous keeper's leftovers: a stale serving marker would lie
        LaunchContext ctx = new LaunchContext()
            .environment(System.getenv()) // inside a Slurm allocation the servers spread over it, as a run's nodes
            .nodes(nodes)
            .classpath(classpath)
            .mainClass(StandingServer.class.getName())
            .runDir(runDir)
            .nodesOutliveFailures(true); // a server that dies leaves the others serving
        if (hosts != null) {
            hosts.applyTo(ctx); // IPC within a host, UDP between hosts
        } else if (ctx.slurmJob() == null) {
            ctx.transport(TransportMode.IPC);
        }
        boolean overHosts = hosts != null || ctx.slurmJob() != null;
        ServingWatch watch = new ServingWatch(out);
        ClusterLauncher launcher = new ClusterLauncher(ctx, new PrintStream(watch, true, out.charset()), err);
        AtomicReference<RunResult> result = new AtomicReference<>();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Thread runner = Thread.ofPlatform().name("cumulus-keeper-" + name).start(() -> {
            try {
                result.set(launcher.run());
            } catch (RuntimeException e) {
                failure.set(e);
            }
        });
        boolean serving;
        try {
            serving = watch.await(startTimeout, () -> !runner.isAlive());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            launcher.shutdown();
            return 130;
        }
        DriverHost clientDriver = null;
        if (serving && runner.isAlive()) {
            ClusterRecord.ServerPlacement placement = ClusterRecord.ServerPlacement.ONE_HOST;
            String driverDir = launcher.driverDirectory();
            if (overHosts) {
                // the clients reach the servers over UDP through a driver of their own on this host
                clientDriver = DriverHost.start(driverDir + CLIENT_DRIVER_SUFFIX, false);
                DriverHost toClose = clientDriver;
                Runtime.getRuntime().addShutdownHook(new Thread(toClose::close, "cumulus-keeper-client-driver"));
                driverDir = clientDriver.directory();
                placement = new ClusterRecord.ServerPlacement(nodeHosts(launcher.nodeHosts()), launcher.endpoints(),
                    HexFormat.of().formatHex(launcher.derivedKey(RunSecret.STANDING_CLIENT_FRAMES_PURPOSE)),
                    launcher.launcherAddress());
            }
            registry.write(new ClusterRecord(name, ProcessHandle.current().pid(), launcher.nodePids(),
                launcher.runId(), driverDir, ClusterLauncher.STREAM_BASE, runDir,
                HexFormat.of().formatHex(launcher.derivedKey(RunSecret.STANDING_CREDENTIAL_PURPOSE)), Instant.now(),
                placement));
            out.println("cumulus: cluster " + name + " serves with " + nodes + " server(s)"
                + (overHosts ? " on " + placement.hostsColumn() : ""));
            out.flush();
        } else if (runner.isAlive()) {
            err.println("cumulus: cluster " + name + ": the servers did not serve within "
                + ClusterLauncher.format(startTimeout) + "; stopping them");
            launcher.shutdown();
        }
        try {
            runner.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            launcher.shutdown();
            return 130;
        } finally {
            if (clientDriver != null) {
                clientDriver.close();
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        RunResult r = result.get();
        if (r == null) {
            throw new CumulusException("cluster " + name + ": the launcher ended without a result");
        }
        return serving ? r.exitCode() : Math.max(1, r.exitCode());
    }
}
