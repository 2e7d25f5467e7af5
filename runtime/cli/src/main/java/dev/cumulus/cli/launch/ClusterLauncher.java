package dev.cumulus.cli.launch;

import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.CumulusException;
import dev.cumulus.cli.profile.ProfileReport;
import dev.cumulus.cli.profile.ProfileSettings;
import dev.cumulus.cli.ship.ClassSender;
import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.cloud.AgentLoader;
import dev.cumulus.internal.launch.ExitReport;
import dev.cumulus.internal.launch.FailureReport;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.launch.LaunchConfig.TransportMode;
import dev.cumulus.internal.launch.LauncherWatch;
import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.transport.IdleStrategies;
import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.figures.WindowMerger;
import dev.cumulus.profiler.live.LiveSink;
import dev.cumulus.profiler.report.JsonReport;
import dev.cumulus.profiler.live.LiveView;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code cumulus run}: starts one shared Aeron media driver and N node JVMs on this host, copies their output with
 * {@code [i] } prefixes, waits for them, and ends the run the same way whatever happens.
 *
 * <p>Exit rule, "the node where the failure began": all nodes exit 0 → 0; otherwise, once a node exits non-zero on
 * its own, the launcher asks the nodes' failure reports ({@link FailureReport}) where the failure began
 * ({@link FailureOrigin}), stops the other nodes, gives that node the grace period to end on its own, and returns its
 * exit code — 3 (fail-stop) when it did not end on its own (it hung) or ended with 0. Nodes the launcher stops do not
 * count. A single-VM program that calls {@code System.exit(n)} on any node ends every node with {@code n}: the node
 * wrote an {@link ExitReport}, and the launcher returns {@code n} with no failure. A timeout gives 124, a stop of the
 * launcher itself (Ctrl-C, SIGTERM) 130; either way {@code result.properties} is written and the run directory
 * printed.
 *
 * <p>Invariant: when {@link #run()} returns or throws, and when the JVM shuts down during a run, no node process is
 * left and the driver directory is deleted.
 *
 * <p>Threads: the caller's thread runs the whole run; two pump threads per node copy output; process-exit callbacks
 * feed a queue the caller's thread waits on; the shutdown hook (or any thread calling {@link #shutdown()}) stops the
 * nodes. Stopping and cleaning up are serialised on one lock and idempotent.
 */
public final class ClusterLauncher {
    /** How long the nodes' start waits for the live profile's reader to ready its parser. */
    static final long READER_READY_WAIT_MS = 5_000;
    /** Flags every node JVM gets (Agrona needs jdk.internal.misc; Aeron's native access; a GC without threads). */
    public static final List<String> NODE_JVM_FLAGS = List.of(
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
        "--enable-native-access=ALL-UNNAMED",
        "-XX:+UseSerialGC");
    public static final int STREAM_BASE = 1000;
    private static final Duration OUTPUT_DRAIN = Duration.ofSeconds(2);
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);
    /** How long the shutdown hook waits for {@link #run()} to write the run's result after stopping the nodes. */
    private static final Duration RUN_END_WAIT = Duration.ofSeconds(10);
    /** The file in the run directory that receives every live profile line. */
    public static final String LIVE_PROFILE = "profile-live.jsonl";
    /** Prefix of a live profile line on stdout with {@link #profileStream(boolean)}. */
    public static final String PROFILE_STREAM_PREFIX = "@cumulus-profile ";

    private final LaunchContext ctx;
    private final PrintStream out;
    private final PrintStream err;
    private final Object lock = new Object();
    private final List<NodeProcess> nodes = new CopyOnWriteArrayList<>();
    private final LinkedBlockingQueue<NodeProcess> exits = new LinkedBlockingQueue<>();
    private volatile boolean shutdownRequested;
    /** Counted down when {@link #run()} has written the run's result: the shutdown hook waits for it. */
    private final CountDownLatch runEnded = new CountDownLatch(1);
    /** Where the failure began and what the nodes said about it, once a node failed; for result.properties. */
    private volatile String failureCause;
    private volatile String runId;
    private volatile String driverDir;
    /** Each node's UDP endpoint once placed (see {@link #endpoints()}). */
    private volatile List<String> endpoints = List.of();
    private DriverHost driver;      // guarded by lock
    private boolean cleanedUp;      // guarded by lock
    private Thread hook;
    private boolean profileStream;
    private boolean live;
    /** With {@code --hosts}: the hosts, each node's host index, and the agents on the other hosts (null: local). */
    private HostsFile hosts;
    private int[] hostOf;
    private final List<RemoteHost> remoteHosts = new CopyOnWriteArrayList<>();
    private RemoteHost[] remoteOfHost;
    /** With {@code --hosts}: this host's address for the other hosts (--bind, or as their ssh servers saw it). */
    private volatile String launcherAddress;
    /** With {@code --hosts}: how the other hosts are reached, and the owner-only directory of its shared connections. */
    private Ssh ssh;
    private volatile Path sshControlDir;
    /** Inside a Slurm allocation (no {@code --hosts}): its hosts, reached through srun instead of ssh; else null. */
    private SlurmLaunch slurm;
    /** Node sessions per host on its shared ssh connection. */
    private final Map<String, Integer> sharedSessions = new HashMap<>();
    /** The program's classes on each other host: where its class cache keeps them, and what was sent. */
    private Map<RemoteHost, ClassSender.Shipment> shipments = Map.of();
    private LiveSink liveSink;
    /** The reader of the local nodes' JFR repositories (live profiling off the nodes' own cores), when live. */
    private LiveReaderProcess liveReader;
    private final List<Integer> liveNodes = new ArrayList<>();
    /** The run's secret: handed to every node on its stdin, never on a command line or in a file. */
    private final RunSecret secret = RunSecret.generate();

    /**
     * @param out where the nodes' stdout goes (prefixed) and the profile table
     * @param err where the nodes' stderr goes (prefixed) and the launcher's own messages
     */
    public ClusterLauncher(LaunchContext ctx, PrintStream out, PrintStream err) {
        this.ctx = ctx;
        this.out = out;
        this.err = err;
    }

    /**
     * With profiling: print every node's one-second summary on {@code out} as {@code @cumulus-profile {json}} (one
     * line each, no node prefix), each followed by the cluster's figures merged from every node's newest summary
     * ({@code figures}), and after the run the report as the last such line: the profile channel's records
     * (docs/design/PROFILER.md), for the editor.
     */
    public ClusterLauncher profileStream(boolean on) {
        this.profileStream = on;
        return this;
    }

    /** With profiling: print one live line a second on {@code err} ({@link LiveView}). */
    public ClusterLauncher live(boolean on) {
        this.live = on;
        return this;
    }

    /** The run id once {@link #run()} has chosen one, else null. */
    public String runId() {
        return runId;
    }

    /** The run's secret (for tests that look for it where it must not be). */
    RunSecret secret() {
        return secret;
    }

    /** With {@code --hosts}: the directory of the run's shared ssh connections once made, else null (for tests). */
    Path sshControlDirectory() {
        return sshControlDir;
    }

    /** A key derived from the run's secret for {@code purpose} (a standing cluster's credential), never the secret. */
    public byte[] derivedKey(String purpose) {
        return secret.keyBytes(purpose);
    }

    /**
     * The process on this host of each node started so far, by node id: the node itself, or the ssh (or srun) session
     * it runs in on another host, which ends when the node does (a standing cluster's keeper watches them).
     */
    public List<Long> nodePids() {
        return nodes.stream().sorted(java.util.Comparator.comparingInt(NodeProcess::id))
            .map(n -> n.process().pid()).toList();
    }

    /** Each node's UDP endpoint ({@code host:port}), by node id, once the nodes are placed; empty over IPC. */
    public List<String> endpoints() {
        return endpoints;
    }

    /** With {@code --hosts}: this host's address for the other hosts, once their agents have started; else null. */
    public String launcherAddress() {
        return launcherAddress;
    }

    /** With {@code --hosts} or Slurm: the host of each node by node id ({@code 0=HOST,...}); else "". */
    public String nodeHosts() {
        return hosts == null || hostOf == null ? "" : hostsOfNodes();
    }

    /** The Aeron directory once {@link #run()} has chosen one, else null. */
    public String driverDirectory() {
        return driverDir;
    }

    /**
     * Runs the program on the nodes and returns how it ended.
     *
     * @throws LaunchException  for a usage error, before anything is started
     * @throws CumulusException when the launcher cannot start the driver or a node (everything started is stopped)
     */
    private Path agentJar;

    public RunResult run() {
        try {
            return runToEnd();
        } finally {
            runEnded.countDown();
        }
    }

    private RunResult runToEnd() {
        ctx.validate();
        if (ctx.hostsFile() != null) {
            hosts = HostsFile.read(ctx.hostsFile());
            if (ctx.nodes() == 0) {
                ctx.nodes(hosts.slots());
            }
            hostOf = hosts.place(ctx.nodes());
        } else if (ctx.slurm() != null) {
            hosts = ctx.slurm().hosts();
            if (ctx.nodes() == 0) {
                ctx.nodes(ctx.slurm().tasks());
            }
            hostOf = ctx.slurm().place(ctx.nodes());
        }
        List<Path> userClasspath = userClasspath(ctx.classpath());
        List<Path> classpath = new ArrayList<>(RuntimeClasspath.entries());
        if (ctx.singleVm()) {
            classpath.add(RuntimeClasspath.locate(LaunchContext.SINGLE_VM_MAIN)); // the shared heap, only when asked
        }
        classpath.addAll(userClasspath);
        MainClassCheck.check(ctx.mainClass(), classpath, ctx.classpath());
        if (ctx.transport() == TransportMode.UDP && hosts == null) {
            checkPortsFree();
        }
        try {
            IdleStrategies.parse(ctx.idle());
        } catch (CumulusException e) {
            throw new LaunchException("--idle: " + e.getMessage());
        }

        DriverDirectories.removeStale(driverRoot(), err);
        String id;
        Path driverPath;
        do {
            id = RunId.next();
            driverPath = driverRoot().resolve("cumulus-" + id);
        } while (Files.exists(driverPath));
        runId = id;
        slurm = ctx.slurm() == null ? null : new SlurmLaunch(ctx.slurm(), id);
        driverDir = driverPath.toString();
        RunDirectory runDir = RunDirectory.create(ctx.runDir() != null ? ctx.runDir() : ctx.runsRoot().resolve(id));
        agentJar = AgentLoader.agentJar();
        String nodeClasspath = classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));

        RunResult result;
        installShutdownHook();
        try {
            startRemoteHosts(id);
            try {
                shipments = ClassShipping.shipAll(remoteHosts, userClasspath, err);
            } catch (LaunchException e) {
                if (!shutdownRequested) {
                    throw e;
                } // a stop (Ctrl-C) closed the agents mid-shipment: no node starts, the run ends as stopped
            }
            List<LaunchConfig> configs = configs(id, runDir.path(), driverDir);
            Map<String, String> launch = new LinkedHashMap<>(configs.getFirst().toProperties());
            launch.remove(LaunchConfig.NODE_ID);
            if (hosts != null) {
                launch.put(LaunchConfig.AERON_DIR, driverDir);
                launch.put(LaunchConfig.RUN_DIR, runDir.path().toString());
                launch.put("hosts", hostsOfNodes());
                shipments.forEach((host, shipped) -> {
                    launch.put("classes." + host.name() + ".sent.entries", Integer.toString(shipped.sentEntries()));
                    launch.put("classes." + host.name() + ".sent.bytes", Long.toString(shipped.sentBytes()));
                });
            }
            if (slurm != null) {
                launch.put("slurm.job", slurm.allocation().jobId());
            }
            launch.put("main", ctx.mainClass());
            launch.put("args", String.join(" ", ctx.programArgs()));
            launch.put("classpath", ctx.classpath());
            launch.put("started", Instant.now().toString());
            runDir.writeProperties(RunDirectory.LAUNCH_PROPERTIES, launch, "cumulus run");
            Path jfc = ctx.profile() ? runDir.writeText(RunDirectory.PROFILE_SETTINGS, ProfileSettings.jfc()) : null;
            if (live || profileStream) {
                openLiveSink(runDir.path().resolve(LIVE_PROFILE));
                startLiveReader(runDir, configs);
            }
            synchronized (lock) {
                if (!shutdownRequested && hasLocalNodes()) {
                    driver = DriverHost.start(driverDir, ctx.transport() == TransportMode.IPC);
                    markOwner(driverPath);
                }
            }
            for (LaunchConfig config : configs) {
                synchronized (lock) {
                    if (shutdownRequested) {
                        break;
                    }
                    RemoteHost host = remoteHostOf(config.nodeId());
                    NodeProcess node = host == null
                        ? NodeProcess.start(config.nodeId(), command(config, nodeClasspath, runDir, jfc), secret, out,
                            err, ctx.tailLines())
                        : NodeProcess.start(config.nodeId(), remoteCommand(host, config), secret, out,
                            err, ctx.tailLines(), host.name());
                    nodes.add(node);
                    node.process().onExit().thenRun(() -> exits.add(node));
                    if (ctx.singleVm() && config.nodeId() == 0 && host == null) {
                        // Ctrl-\ (SIGQUIT) reaches every node; node 0's JVM dump is the cue for the cluster's
                        Path dir = runDir.path();
                        node.onJvmThreadDump(() -> Thread.ofPlatform().name("cumulus-thread-dump").daemon(true)
                            .start(() -> SingleVmThreadDump.request(node, dir, err)));
                    }
                }
            }
            result = await(runDir);
        } finally {
            stopAll();
            drainOutput();
            fetchFromHosts(runDir.path(), RunDirectory.FAILURE_SUFFIX, RunDirectory.EXIT_SUFFIX, RunDirectory.JFR_SUFFIX);
            closeLiveSink(runDir);
            cleanup();
            removeShutdownHook();
        }
        Map<String, String> ended = new LinkedHashMap<>();
        ended.put("ending", result.ending().name());
        ended.put("exit.code", Integer.toString(result.exitCode()));
        ended.put("failed.node", Integer.toString(result.failedNode()));
        if (failureCause != null) {
            ended.put("failed.cause", failureCause);
        }
        ended.put("ended", Instant.now().toString());
        runDir.writeProperties(RunDirectory.RESULT_PROPERTIES, ended, "cumulus run result");
        if (ctx.profile()) {
            ProfileReport report = ProfileReport.read(runDir.path());
            report.print(out);
            if (profileStream) {
                // the channel's last record: the whole report, typed (docs/design/PROFILER.md)
                out.println(PROFILE_STREAM_PREFIX + JsonReport.render(report.profile()));
            }
        }
        err.println("cumulus: run " + id + " directory: " + runDir.path());
        return result;
    }

    /**
     * Stops every node (SIGTERM, then SIGKILL after the grace period), closes the driver and deletes its directory.
     * What the shutdown hook runs; callable from any thread, any number of times. A running {@link #run()} then
     * returns with {@link RunResult.Ending#STOPPED}.
     */
    public void shutdown() {
        shutdownRequested = true;
        stopAll();
        cleanup();
    }

    private RunResult await(RunDirectory runDir) {
        long deadlineNs = ctx.timeout() == null ? Long.MAX_VALUE : System.nanoTime() + ctx.timeout().toNanos();
        int remaining = nodes.size();
        try {
            while (remaining > 0 && !shutdownRequested) {
                NodeProcess node;
                if (deadlineNs == Long.MAX_VALUE) {
                    node = exits.take();
                } else {
                    long leftNs = deadlineNs - System.nanoTime();
                    if (leftNs <= 0) {
                        return timedOut(runDir);
                    }
                    node = exits.poll(leftNs, TimeUnit.NANOSECONDS);
                    if (node == null) {
                        continue;
                    }
                }
                remaining--;
                int code = node.exitCode();
                Optional<ExitReport> programExit = node.stopRequested() || shutdownRequested ? Optional.empty()
                    : programExit(runDir);
                if (programExit.isPresent()) {
                    return programExited(programExit.get(), runDir);
                }
                if (code != 0 && !node.stopRequested() && !shutdownRequested) {
                    if (ctx.nodesOutliveFailures() && remaining > 0) {
                        err.println("cumulus: node " + node.id() + " exited with code " + code + "; the other "
                            + remaining + " node(s) run on");
                        err.flush();
                        continue;
                    }
                    return failed(node, code, runDir);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shutdownRequested = true;
        }
        if (shutdownRequested) {
            List<Integer> running = running();
            err.println("cumulus: run stopped" + (running.isEmpty() ? "" : "; stopping nodes " + ids(running)));
            return new RunResult(RunResult.EXIT_STOPPED, RunResult.Ending.STOPPED, runId, runDir.path(), driverDir,
                -1, running);
        }
        return new RunResult(0, RunResult.Ending.ALL_SUCCEEDED, runId, runDir.path(), driverDir, -1, List.of());
    }

    /** A single-VM run's program called {@code System.exit} on some node: its {@link ExitReport}, else empty. */
    private Optional<ExitReport> programExit(RunDirectory runDir) {
        if (!ctx.singleVm()) {
            return Optional.empty();
        }
        fetchFromHosts(runDir.path(), RunDirectory.EXIT_SUFFIX);
        return ExitReport.first(runDir.path(), nodes.size());
    }

    /**
     * The program called {@code System.exit(status)}: every node is ending with that status, as the program's one JVM
     * would. Gives them the grace period to end on their own, stops any still running after it, and returns the
     * status as a process's exit code carries it (its low 8 bits: {@code exit(-1)} gives 255, {@code exit(256)} 0, as
     * {@code java} ends); no node failed.
     */
    private RunResult programExited(ExitReport exit, RunDirectory runDir) throws InterruptedException {
        long deadlineNs = System.nanoTime() + ctx.grace().toNanos();
        List<Integer> stopped = new ArrayList<>();
        for (NodeProcess node : nodes) {
            if (!node.waitFor(deadlineNs - System.nanoTime())) {
                stopped.add(node.id());
                node.requestStop();
            }
        }
        for (NodeProcess node : nodes) {
            node.joinOutput(OUTPUT_DRAIN);
        }
        if (!stopped.isEmpty()) {
            err.println("cumulus: the program called exit(" + exit.status() + ") on node " + exit.origin()
                + "; nodes " + ids(stopped) + " did not end within " + format(ctx.grace()) + " (stopped them)");
        }
        return new RunResult(exit.status() & 0xFF, RunResult.Ending.PROGRAM_EXITED, runId, runDir.path(), driverDir, -1,
            stopped);
    }

    private RunResult timedOut(RunDirectory runDir) {
        List<Integer> running = running();
        if (ctx.singleVm()) {
            err.println("cumulus: timed out after " + format(ctx.timeout())
                + "; asking node 0 for a thread dump of every node");
            nodes.stream().filter(n -> n.id() == 0).findFirst()
                .ifPresent(node0 -> SingleVmThreadDump.request(node0, runDir.path(), err));
        }
        err.println("cumulus: timed out after " + format(ctx.timeout()) + "; nodes still running: " + ids(running)
            + " (stopping them)");
        return new RunResult(RunResult.EXIT_TIMEOUT, RunResult.Ending.TIMED_OUT, runId, runDir.path(), driverDir, -1,
            running);
    }

    /**
     * Node {@code first} exited with {@code code} on its own: finds the node where the failure began (its report, or
     * {@code first} itself), stops every other node, gives that node the grace period to end on its own, and reports
     * it with its exit code.
     */
    private RunResult failed(NodeProcess first, int code, RunDirectory runDir) throws InterruptedException {
        fetchFromHosts(runDir.path(), RunDirectory.FAILURE_SUFFIX); // the reports of nodes on other hosts
        int originId = FailureOrigin.of(first.id(), n -> FailureReport.read(runDir.path(), n), nodes.size());
        NodeProcess origin = nodes.stream().filter(n -> n.id() == originId).findFirst().orElse(first);
        Optional<FailureReport> told = told(origin, first, runDir);
        List<Integer> running = new ArrayList<>(running());
        for (NodeProcess node : nodes) {
            if (node != origin && node.isAlive()) {
                node.requestStop();
            }
        }
        boolean endedOnItsOwn = origin == first || (origin.waitFor(ctx.grace().toNanos()) && !origin.stopRequested());
        int exit = endedOnItsOwn ? origin.exitCode() : RunResult.EXIT_NODE_HUNG;
        if (exit == 0) {
            exit = RunResult.EXIT_NODE_HUNG; // it exited 0 while its peers still needed it
        }
        if (!endedOnItsOwn) {
            origin.requestStop();
        }
        origin.joinOutput(OUTPUT_DRAIN);
        StringBuilder sb = new StringBuilder();
        sb.append("cumulus: node ").append(origin.id());
        if (endedOnItsOwn) {
            sb.append(" exited with code ").append(origin.exitCode());
            if (origin.host() != null && slurm == null && origin.exitCode() == SSH_FAILED) {
                sb.append(" (ssh's: its session to host ").append(origin.host())
                    .append(" ended; the host may be down or unreachable)");
            }
        } else {
            sb.append(" failed and did not end on its own within ").append(format(ctx.grace()))
                .append(" (it hangs); stopped it, exit code ").append(exit);
        }
        List<String> last = origin.lastLines();
        if (last.isEmpty()) {
            sb.append("; it wrote no output");
        } else {
            sb.append("; last output:");
            for (String line : last) {
                sb.append(System.lineSeparator()).append("  [").append(origin.id()).append("] ").append(line);
            }
        }
        if (told.isPresent()) {
            FailureReport r = told.get();
            failureCause = r.cause() + (r.reporter() == origin.id() ? "" : " (seen by node " + r.reporter() + ")");
            sb.append(System.lineSeparator()).append("cumulus: the failure began at node ").append(origin.id())
                .append(": ").append(failureCause);
        }
        running.remove(Integer.valueOf(origin.id()));
        if (!running.isEmpty()) {
            sb.append(System.lineSeparator()).append("cumulus: stopping nodes ").append(ids(running));
        }
        err.println(sb);
        return new RunResult(exit, RunResult.Ending.NODE_FAILED, runId, runDir.path(), driverDir, origin.id(),
            running);
    }

    /** What the nodes said about the failure that began at {@code origin}: its own report first, else another's. */
    private Optional<FailureReport> told(NodeProcess origin, NodeProcess first, RunDirectory runDir) {
        Optional<FailureReport> own = FailureReport.read(runDir.path(), origin.id());
        if (own.isPresent() && own.get().origin() == origin.id()) {
            return own;
        }
        Optional<FailureReport> firsts = FailureReport.read(runDir.path(), first.id());
        if (firsts.isPresent() && firsts.get().origin() == origin.id()) {
            return firsts;
        }
        for (NodeProcess node : nodes) {
            Optional<FailureReport> r = FailureReport.read(runDir.path(), node.id());
            if (r.isPresent() && r.get().origin() == origin.id()) {
                return r;
            }
        }
        return Optional.empty();
    }

    /** SIGTERM to every live node; marks them as stopped by the launcher. */
    private void signalStop() {
        for (NodeProcess node : nodes) {
            if (node.isAlive()) {
                node.requestStop();
            }
        }
    }

    private void stopAll() {
        synchronized (lock) {
            if (nodes.stream().noneMatch(NodeProcess::isAlive)) {
                return;
            }
            signalStop();
            try {
                long deadline = System.nanoTime() + ctx.grace().toNanos();
                for (NodeProcess node : nodes) {
                    node.waitFor(deadline - System.nanoTime());
                }
                for (NodeProcess node : nodes) {
                    if (node.isAlive()) {
                        node.forceStop();
                    }
                }
                long killDeadline = System.nanoTime() + KILL_WAIT.toNanos();
                for (NodeProcess node : nodes) {
                    if (!node.waitFor(killDeadline - System.nanoTime())) {
                        err.println("cumulus: node " + node.id() + " (pid " + node.process().pid()
                            + ") did not end after SIGKILL");
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                nodes.forEach(NodeProcess::forceStop);
            }
        }
    }

    private void drainOutput() {
        long deadline = System.nanoTime() + OUTPUT_DRAIN.toNanos();
        try {
            for (NodeProcess node : nodes) {
                node.joinOutput(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.flush();
        err.flush();
    }

    private void cleanup() {
        synchronized (lock) {
            if (cleanedUp) {
                return;
            }
            cleanedUp = true;
            closeRemoteHosts();
            if (slurm != null) {
                slurm.cancelLeftSteps(err);
            }
            if (sshControlDir != null) {
                DriverDirectories.deleteTree(sshControlDir);
            }
            try {
                if (driver != null) {
                    driver.close();
                }
            } catch (RuntimeException e) {
                err.println("cumulus: closing the media driver failed: " + e);
            } finally {
                if (driverDir != null) {
                    DriverDirectories.deleteTree(Path.of(driverDir));
                }
            }
        }
    }

    private void installShutdownHook() {
        if (!ctx.shutdownHook()) {
            return;
        }
        hook = new Thread(() -> {
            if (!cleanedUpNow()) {
                err.println("cumulus: launcher stopping; stopping every node");
                shutdown();
                awaitRunEnded(); // the JVM ends with this hook: let run() write result.properties first
            }
        }, "cumulus-run-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private void awaitRunEnded() {
        try {
            if (!runEnded.await(RUN_END_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                err.println("cumulus: the run did not record its end within " + format(RUN_END_WAIT));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records this launcher as the driver directory's owner, so a later run can tell whether it is gone. */
    private void markOwner(Path dir) {
        try {
            DriverDirectories.markOwner(dir);
        } catch (IOException e) {
            err.println("cumulus: warning: cannot record the launcher in " + dir + " (" + e.getMessage()
                + "); if this launcher is killed, delete the directory by hand");
        }
    }

    private boolean cleanedUpNow() {
        synchronized (lock) {
            return cleanedUp;
        }
    }

    private void removeShutdownHook() {
        if (hook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down; the hook has run or is running
        }
    }

    /**
     * The socket the nodes' live profilers send to (on loopback, or on this host's address for the other hosts when
     * nodes run there, so theirs reach it too); every line goes to {@code profile-live.jsonl}, and to
     * stdout or the live view when asked for. Without it the run still records JFR.
     */
    private void openLiveSink(Path file) {
        LiveView view = live ? new LiveView(System.currentTimeMillis()) : null;
        WindowMerger merger = new WindowMerger();
        try {
            InetAddress bind = remoteHosts.isEmpty() ? InetAddress.getLoopbackAddress()
                : InetAddress.getByName(launcherAddress.replace("[", "").replace("]", ""));
            liveSink = LiveSink.open(file, secret.keyBytes(RunSecret.LIVE_PROFILE_PURPOSE), bind, (line, summary) -> {
                LiveFigures figures = merger.accept(summary);
                if (profileStream) {
                    out.println(PROFILE_STREAM_PREFIX + line);
                    out.println(PROFILE_STREAM_PREFIX + ProfileGson.write(figures));
                }
                if (view != null) {
                    String text = view.accept(figures, System.currentTimeMillis());
                    if (text != null) {
                        err.println("cumulus: " + text);
                    }
                }
            });
        } catch (IOException e) {
            err.println("cumulus: no live profile (cannot open its socket or " + file + ": " + e.getMessage() + ")");
            return;
        }
        if (live) {
            err.println(LiveView.HEADER);
        }
    }

    /**
     * Reads the live profile of this host's nodes in a process of its own ({@link LiveReaderProcess}). Started before
     * the driver and the nodes, which start once it has readied its parser (at most {@value #READER_READY_WAIT_MS} ms):
     * its JVM start and its parser's class loading and first compilations, most of what it costs, then fall before the
     * program runs instead of on its first seconds; it waits for each node's repository to appear.
     */
    private void startLiveReader(RunDirectory runDir, List<LaunchConfig> configs) {
        configs.stream().map(LaunchConfig::nodeId).filter(node -> remoteHostOf(node) == null).forEach(liveNodes::add);
        if (liveSink == null || liveNodes.isEmpty()) {
            return;
        }
        Map<Integer, LiveReaderProcess.Source> sources = new LinkedHashMap<>();
        liveNodes.forEach(node -> sources.put(node,
            new LiveReaderProcess.Source(runDir.jfrRepository(node), runDir.jfrFile(node))));
        try {
            liveReader = LiveReaderProcess.start(sources, liveSink::offer, err);
            if (!liveReader.awaitReady(READER_READY_WAIT_MS)) {
                err.println("cumulus: the live profile's reader is not ready after " + READER_READY_WAIT_MS / 1000
                    + " s (it runs at the lowest priority; the machine is busy): starting the nodes; its first reads "
                    + "may slow them");
            }
        } catch (IOException e) {
            err.println("cumulus: no live profile of this host's nodes (cannot start its reader: " + e.getMessage()
                + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last window of every node's reader, then the sink; the readers' repository directories go. */
    private void closeLiveSink(RunDirectory runDir) {
        if (liveReader != null) {
            liveReader.close();
        }
        if (liveSink != null) {
            liveSink.close();
        }
        for (int node : liveNodes) {
            runDir.deleteJfrRepository(node);
        }
    }

    /** UDP endpoints must be free before anything starts; a busy one is named with the option that changes it. */
    private void checkPortsFree() {
        String address = hosts == null ? "127.0.0.1" : launcherAddress;
        for (int i = 0; i < ctx.nodes(); i++) {
            if (remoteHostOf(i) != null) {
                continue; // its host's agent checked it
            }
            int port = ctx.basePort() + i;
            try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(
                    address.replace("[", "").replace("]", ""), port))) {
                probe.getLocalPort();
            } catch (SocketException e) {
                throw new LaunchException("UDP port " + port + " (node " + i + "'s endpoint " + address + ":" + port
                    + ") is in use" + (hosts == null ? "" : " or " + address + " is not this host's (--bind)")
                    + "; pick another --base-port");
            }
        }
    }

    private List<LaunchConfig> configs(String id, Path runDir, String aeronDir) {
        int n = ctx.nodes();
        List<String> endpoints = new ArrayList<>();
        if (ctx.transport() != TransportMode.IPC) {
            for (int i = 0; i < n; i++) {
                RemoteHost host = remoteHostOf(i);
                String address = hosts == null ? "127.0.0.1" : host == null ? launcherAddress : host.address();
                endpoints.add(address + ":" + (ctx.basePort() + i));
            }
        }
        this.endpoints = List.copyOf(endpoints);
        List<LaunchConfig> configs = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                RemoteHost host = remoteHostOf(i);
                configs.add(new LaunchConfig(id, i, n, host == null ? runDir : Path.of(host.runDir()),
                    host == null ? aeronDir : host.driverDir(), ctx.transport(), endpoints, STREAM_BASE,
                    NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS, ctx.heartbeatTimeout().toMillis(), ctx.idle(),
                    ctx.profile(), ctx.encrypt()));
            }
        } catch (CumulusException e) {
            throw new LaunchException(e.getMessage());
        }
        return configs;
    }

    // ---------------------------------------------------------------- other hosts (--hosts)

    /**
     * Starts the host agent on every other host of the run ({@link RemoteHost}), in parallel, and waits until all are
     * ready; learns this host's address for them. Nothing to do without {@code --hosts}.
     *
     * @throws LaunchException naming the host that could not take part (the others are closed by the cleanup)
     */
    private void startRemoteHosts(String id) {
        if (hosts == null) {
            return;
        }
        remoteOfHost = new RemoteHost[hosts.hosts().size()];
        synchronized (lock) {
            if (shutdownRequested) {
                return;
            }
            if (slurm == null) { // inside Slurm the hosts are reached through srun
                try {
                    sshControlDir = Files.createTempDirectory("cumulus-ssh-",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } catch (IOException e) {
                    throw new CumulusException("cannot create a directory for the ssh connections in "
                        + System.getProperty("java.io.tmpdir") + ": " + e.getMessage(), e);
                }
                ssh = Ssh.of(ctx.sshArgs()).sharingConnectionsIn(sshControlDir);
            }
        }
        for (int h = 0; h < remoteOfHost.length; h++) {
            HostsFile.Host host = hosts.hosts().get(h);
            List<String> ports = new ArrayList<>();
            for (int i = 0; i < hostOf.length; i++) {
                if (hostOf[i] == h) {
                    ports.add(Integer.toString(ctx.basePort() + i));
                }
            }
            if (host.local() || ports.isEmpty()) {
                continue; // this host's nodes start here; a host without nodes is not contacted
            }
            synchronized (lock) {
                if (shutdownRequested) {
                    return;
                }
                RemoteHost remote = RemoteHost.start(host.name(), slurm != null ? slurm.srun() : ssh,
                    agentCommand(id, ports, javaOn(h)), err);
                remoteHosts.add(remote);
                remoteOfHost[h] = remote;
            }
        }
        Map<String, String> seen = new LinkedHashMap<>();
        for (RemoteHost remote : remoteHosts) {
            remote.awaitReady(RemoteHost.READY_WAIT);
            String before = seen.putIfAbsent(remote.address(), remote.name());
            if (before != null) {
                throw new LaunchException("hosts " + before + " and " + remote.name() + " in " + hosts.file()
                    + " are the same machine (" + remote.address() + "); list it once with slots=N");
            }
        }
        launcherAddress = ctx.bind() != null ? HostAgent.endpointHost(ctx.bind())
            : remoteHosts.isEmpty() ? "127.0.0.1" : remoteHosts.getFirst().launcherAddress();
        if (hasLocalNodes() && seen.containsKey(launcherAddress)) {
            throw new LaunchException("host " + seen.get(launcherAddress) + " in " + hosts.file() + " is this host ("
                + launcherAddress + "), which is also listed as localhost; list it once");
        }
        if (hasLocalNodes() && ctx.transport() == TransportMode.UDP || hasLocalNodes() && !remoteHosts.isEmpty()) {
            checkPortsFree();
        }
    }

    /**
     * The agent's command on a host: the host's java (checked before it runs, {@link HostJava}) and the runtime's and
     * this module's classes at the launcher's paths (the runtime is installed there).
     */
    private List<String> agentCommand(String id, List<String> ports, String java) {
        return agentCommand(id, ctx.profile(), ports, slurm != null, java);
    }

    /**
     * A host agent's command line: {@code java} on the host and the runtime's and this module's classes at the
     * launcher's paths (installed there); {@code ports} are the UDP ports its host's processes will listen on
     * (checked free first).
     */
    static List<String> agentCommand(String id, boolean profile, List<String> ports, boolean viaSrun, String java) {
        List<Path> cp = new ArrayList<>(RuntimeClasspath.entries());
        cp.add(RuntimeClasspath.locate(HostAgent.class.getName()));
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(NODE_JVM_FLAGS);
        cmd.add("-cp");
        cmd.add(cp.stream().distinct().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        cmd.add(HostAgent.class.getName());
        cmd.add(id);
        cmd.add(profile ? "profile" : "-");
        cmd.add(String.join(",", ports));
        if (viaSrun) {
            cmd.add(HostAgent.VIA_SRUN);
        }
        return cmd;
    }

    /**
     * The ssh (or srun) command that runs node {@code config} on its host, in the launcher's directory if the host has
     * it: the runtime at the launcher's paths (installed there), the program's classes from the host's class cache.
     */
    private List<String> remoteCommand(RemoteHost host, LaunchConfig config) {
        List<String> classpath = new ArrayList<>(RuntimeClasspath.entries().stream().map(Path::toString).toList());
        if (ctx.singleVm()) { // the shared heap, at the launcher's path as the rest of the runtime
            classpath.add(RuntimeClasspath.locate(LaunchContext.SINGLE_VM_MAIN).toString());
        }
        classpath.addAll(shipments.get(host).classpath());
        List<String> cmd = new ArrayList<>();
        cmd.add(javaOn(hostOf[config.nodeId()]));
        cmd.addAll(NODE_JVM_FLAGS);
        cmd.add(LaunchContext.javaagent(agentJar, ctx.agentOptions()));
        if (ctx.profile()) {
            Path dir = Path.of(host.runDir());
            cmd.add("-XX:StartFlightRecording=filename=" + dir.resolve(RunDirectory.jfrFileName(config.nodeId()))
                + ",dumponexit=true,settings=" + dir.resolve(RunDirectory.PROFILE_SETTINGS));
            cmd.add("-Xlog:jfr+startup=error");
        }
        if (liveSink != null) {
            cmd.add("-D" + LaunchConfig.PROFILE_SINK + "=" + liveSink.address());
        }
        cmd.addAll(ctx.jvmArgs());
        cmd.addAll(config.toJvmArguments());
        cmd.add("-D" + LaunchConfig.LAUNCHER_PID + "="
            + (slurm != null ? LauncherWatch.OVER_SRUN : LauncherWatch.OVER_SSH));
        cmd.add("-cp");
        cmd.add(String.join(File.pathSeparator, classpath));
        cmd.addAll(ctx.mainAndArgs());
        String cwd = Path.of("").toAbsolutePath().toString();
        if (slurm != null) {
            return slurm.srun().command(host.name(), cmd, cwd);
        }
        int sessions = sharedSessions.merge(host.name(), 1, Integer::sum) + 1; // the agent's session is the first
        Ssh how = sessions <= Ssh.SHARED_SESSIONS ? ssh : ssh.unshared();
        return how.command(host.name(), "cd " + Ssh.quote(cwd) + " 2>/dev/null; "
            + Ssh.shellLine(cmd));
    }

    /** The java on host {@code h} of the hosts: as the hosts file names it, else the launcher's path. */
    private String javaOn(int h) {
        String java = hosts.hosts().get(h).java();
        return java != null ? java : javaPath();
    }

    /** The exit code of ssh itself when its connection fails or ends, as opposed to the remote command's. */
    static final int SSH_FAILED = 255;

    static String javaPath() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Node {@code node}'s agent when it runs on another host, else null. */
    private RemoteHost remoteHostOf(int node) {
        return remoteOfHost == null ? null : remoteOfHost[hostOf[node]];
    }

    private boolean hasLocalNodes() {
        if (hosts == null) {
            return true;
        }
        for (int h : hostOf) {
            if (hosts.hosts().get(h).local()) {
                return true;
            }
        }
        return false;
    }

    /** {@code 0=HOST,1=HOST,...} for launch.properties. */
    private String hostsOfNodes() {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < hostOf.length; i++) {
            l.add(i + "=" + hosts.hosts().get(hostOf[i]).name());
        }
        return String.join(",", l);
    }

    /** Copies the other hosts' run directory files with these suffixes into the run directory; says what failed. */
    private void fetchFromHosts(Path runDir, String... suffixes) {
        for (RemoteHost host : remoteHosts) {
            if (!host.isAlive() || host.runDir() == null) {
                continue;
            }
            for (String suffix : suffixes) {
                try {
                    host.fetch(suffix, runDir);
                } catch (CumulusException e) {
                    err.println("cumulus: " + e.getMessage());
                }
            }
        }
    }

    /** Ends every host agent, in parallel: each stops the run's leftovers on its host and deletes its directories. */
    private void closeRemoteHosts() {
        List<Thread> closing = new ArrayList<>();
        for (RemoteHost host : remoteHosts) {
            closing.add(Thread.ofPlatform().name("cumulus-host-" + host.name() + "-close").start(host::close));
        }
        for (Thread t : closing) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private List<String> command(LaunchConfig config, String classpath, RunDirectory runDir, Path jfc) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(NODE_JVM_FLAGS);
        cmd.add(LaunchContext.javaagent(agentJar, ctx.agentOptions()));
        if (jfc != null) {
            cmd.add("-XX:StartFlightRecording=filename=" + runDir.jfrFile(config.nodeId()) + ",dumponexit=true,settings="
                + jfc);
            if (liveSink != null) {
                // where the live reader (LiveReaderProcess) reads the node's live profile from, not the node itself
                cmd.add("-XX:FlightRecorderOptions:repository=" + runDir.jfrRepository(config.nodeId()));
            }
            cmd.add("-Xlog:jfr+startup=error");
        }
        cmd.addAll(DebugAgent.jvmArguments(ctx, config.nodeId(), out));
        cmd.addAll(ctx.jvmArgs());
        cmd.addAll(config.toJvmArguments());
        cmd.add("-D" + LaunchConfig.LAUNCHER_PID + "=" + ProcessHandle.current().pid());
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.addAll(ctx.mainAndArgs());
        return cmd;
    }

    /** The user's classpath as absolute paths ({@code dir/*} expanded to its jars); warns about missing entries. */
    private List<Path> userClasspath(String cp) {
        List<Path> paths = new ArrayList<>();
        if (cp == null || cp.isBlank()) {
            return paths;
        }
        for (String entry : cp.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.equals("*") || entry.endsWith(File.separator + "*")) {
                Path dir = Path.of(entry.substring(0, entry.length() - 1)).toAbsolutePath().normalize();
                try (Stream<Path> s = Files.list(dir)) {
                    s.filter(p -> p.getFileName().toString().toLowerCase().endsWith(".jar")).sorted().forEach(paths::add);
                } catch (IOException e) {
                    err.println("cumulus: warning: classpath entry " + entry + " does not exist");
                }
                continue;
            }
            Path p = Path.of(entry).toAbsolutePath().normalize();
            if (!Files.exists(p)) {
                err.println("cumulus: warning: classpath entry " + entry + " does not exist");
            }
            paths.add(p);
        }
        return paths;
    }

    private List<Integer> running() {
        return nodes.stream().filter(NodeProcess::isAlive).map(NodeProcess::id).sorted().toList();
    }

    private static String ids(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    static Path driverRoot() {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return shm;
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h} or a combination when nothing shorter fits. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
