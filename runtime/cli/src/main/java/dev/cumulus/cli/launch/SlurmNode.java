package dev.cumulus.cli.launch;

import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.CumulusException;
import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.cloud.AgentLoader;
import dev.cumulus.internal.launch.LaunchConfig.TransportMode;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.launch.LauncherWatch;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code cumulus node}: one node of a cluster whose nodes Slurm started itself, one per task of a step
 * ({@code srun cumulus node -cp CP MAIN}). The step's environment says who is who ({@link SlurmStep}); each node's UDP
 * endpoint is its host's address ({@link SlurmNodeAddresses}) and port {@code base-port + rank}. Every node embeds a
 * media driver of its own and talks UDP to every peer, so no node depends on another's process for its transport.
 *
 * <p>This process starts the node's JVM as {@code cumulus run} does (the agent, the JVM flags, the launch contract as
 * {@code -Dcumulus.*} properties, a stdin pipe it holds so the node ends with it), passes its output through
 * unchanged (srun's {@code --label} prefixes the ranks), and exits with the node's exit code. SIGTERM or SIGINT (from
 * srun or scancel) stop the node the same way, SIGKILL after a grace period; the node's driver directory and run
 * directory are removed either way.
 *
 * <p>The run's secret: without a launcher to make one, every task takes it from the environment srun passes to all
 * of them, {@value #SECRET_VARIABLE} (32 bytes in base64, set before {@code srun}; a process's environment is
 * readable by its user only, unlike its command line). This process hands it to the node on its stdin as the
 * launcher does and keeps it out of the node's environment.
 */
public final class SlurmNode {
    /** The environment variable that holds the run's secret for nodes started by {@code srun cumulus node}. */
    public static final String SECRET_VARIABLE = "CUMULUS_SECRET";
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);
    /** How long the node has between SIGTERM and SIGKILL when this process is stopped. */
    private static final Duration GRACE = LaunchContext.DEFAULT_GRACE;

    private String classpath = ".";
    private List<String> mainAndArgs = List.of();
    private List<String> jvmArgs = List.of();
    private String agentOptions = "";
    private int basePort = LaunchContext.DEFAULT_BASE_PORT;
    private String idle = NodeSettings.DEFAULT_IDLE_STRATEGY;
    private Duration heartbeatTimeout = Duration.ofMillis(NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS);

    public SlurmNode classpath(String cp) { this.classpath = cp; return this; }
    /** The program's main class, then its arguments. */
    public SlurmNode mainAndArgs(List<String> words) { this.mainAndArgs = List.copyOf(words); return this; }
    public SlurmNode jvmArgs(List<String> args) { this.jvmArgs = List.copyOf(args); return this; }
    /**
     * The Cumulus agent's options ({@code --agent-options}); empty for none.
     *
     * @throws LaunchException when they are not the agent's options
     */
    public SlurmNode agentOptions(String options) {
        LaunchContext.checkAgentOptions(options);
        this.agentOptions = options == null ? "" : options;
        return this;
    }
    public SlurmNode basePort(int port) { this.basePort = port; return this; }
    public SlurmNode idle(String spec) { this.idle = spec; return this; }
    public SlurmNode heartbeatTimeout(Duration d) { this.heartbeatTimeout = d; return this; }

    /**
     * Runs this task's node to its end.
     *
     * @return the node's exit code
     * @throws LaunchException when this is not a Slurm task, or the step, the ports or the program are unusable
     */
    public int run(Map<String, String> env, PrintStream err) {
        SlurmStep step = SlurmStep.fromEnvironment(env);
        RunSecret secret = secretOf(env);
        if (mainAndArgs.isEmpty()) {
            throw new LaunchException("no MAIN class given: srun cumulus node -cp CLASSPATH MAIN [ARGS...]");
        }
        if (basePort < 1024 || basePort + step.size() - 1 > 65535) {
            throw new LaunchException("--base-port " + basePort + " does not fit the step's " + step.size()
                + " tasks: task i listens on base-port + i, so the base port must be between 1024 and "
                + (65535 - step.size() + 1));
        }
        List<Path> cp = new ArrayList<>(RuntimeClasspath.entries());
        for (String entry : classpath.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                cp.add(Path.of(entry).toAbsolutePath().normalize());
            }
        }
        MainClassCheck.check(mainAndArgs.getFirst(), cp, classpath);
        List<String> addresses = SlurmNodeAddresses.of(step.hosts());
        List<String> endpoints = new ArrayList<>();
        for (int i = 0; i < step.size(); i++) {
            endpoints.add(addresses.get(step.hostOf()[i]) + ":" + (basePort + i));
        }
        checkPortFree(step, endpoints.get(step.rank()));

        Path runDir;
        try {
            runDir = Files.createTempDirectory("cumulus-node-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new CumulusException("cannot create the node's run directory in "
                + System.getProperty("java.io.tmpdir") + ": " + e.getMessage(), e);
        }
        Path driverDir = Path.of(DriverHost.defaultDirectory(step.runId() + "-node" + step.rank()));
        Runnable cleanup = () -> {
            DriverDirectories.deleteTree(driverDir);
            DriverDirectories.deleteTree(runDir);
        };
        try {
            LaunchConfig config;
            try {
                config = new LaunchConfig(step.runId(), step.rank(), step.size(), runDir, null, TransportMode.UDP,
                    endpoints, ClusterLauncher.STREAM_BASE, NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
                    heartbeatTimeout.toMillis(), idle, false);
            } catch (CumulusException e) {
                throw new LaunchException(e.getMessage());
            }
            return runNode(command(config, cp), secret, cleanup, err);
        } finally {
            cleanup.run();
        }
    }

    /** The run's secret from {@value #SECRET_VARIABLE}; a missing or malformed one is a usage error saying what to do. */
    static RunSecret secretOf(Map<String, String> env) {
        String value = env.get(SECRET_VARIABLE);
        String how = "; set it to the same 32 random bytes in base64 for every task before srun, e.g. export "
            + SECRET_VARIABLE + "=$(head -c 32 /dev/urandom | base64) (srun passes the environment to every task)";
        if (value == null || value.isBlank()) {
            throw new LaunchException("srun cumulus node needs the run's secret in " + SECRET_VARIABLE
                + ": nodes over UDP admit only peers that hold it" + how);
        }
        try {
            return RunSecret.parseLine(RunSecret.LINE_PREFIX + value.strip());
        } catch (CumulusException e) {
            throw new LaunchException(SECRET_VARIABLE + " is not 32 bytes in base64" + how);
        }
    }

    private List<String> command(LaunchConfig config, List<Path> cp) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(ClusterLauncher.NODE_JVM_FLAGS);
        cmd.add(LaunchContext.javaagent(AgentLoader.agentJar(), agentOptions));
        cmd.addAll(jvmArgs);
        cmd.addAll(config.toJvmArguments());
        cmd.add("-D" + LaunchConfig.LAUNCHER_PID + "=" + ProcessHandle.current().pid());
        cmd.add("-cp");
        cmd.add(cp.stream().distinct().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        cmd.addAll(mainAndArgs);
        return cmd;
    }

    /**
     * Starts the node, stops it with this process (SIGTERM, SIGKILL after the grace, then {@code cleanup}), returns
     * its exit code.
     */
    private int runNode(List<String> command, RunSecret secret, Runnable cleanup, PrintStream err) {
        Process node;
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT); // stdin: a pipe held open until we end
            pb.environment().remove(SECRET_VARIABLE); // the node has it on its stdin
            node = pb.start();
        } catch (IOException e) {
            throw new CumulusException("could not start the node (" + command.getFirst() + "): " + e.getMessage(), e);
        }
        try {
            node.getOutputStream().write((secret.line() + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            node.getOutputStream().flush();
        } catch (IOException e) {
            // it died at once; its exit code and output say why
        }
        Thread hook = new Thread(() -> {
            stop(node, err);
            cleanup.run();
        }, "cumulus-node-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return node.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(node, err);
            return node.isAlive() ? RunResult.EXIT_STOPPED : node.exitValue();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down: the hook stops the node
            }
        }
    }

    private void stop(Process node, PrintStream err) {
        if (!node.isAlive()) {
            return;
        }
        node.toHandle().destroy(); // SIGTERM: its shutdown hooks run; not Process.destroy, which closes its stdin
        try {
            if (!node.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                err.println("cumulus: node did not end within " + ClusterLauncher.format(GRACE) + " of SIGTERM; "
                    + "killing it");
                node.destroyForcibly();
                node.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            node.destroyForcibly();
        }
    }

    private static void checkPortFree(SlurmStep step, String endpoint) {
        int colon = endpoint.lastIndexOf(':');
        String host = endpoint.substring(0, colon).replace("[", "").replace("]", "");
        int port = Integer.parseInt(endpoint.substring(colon + 1));
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(host, port))) {
            probe.getLocalPort();
        } catch (SocketException e) {
            throw new LaunchException("UDP port " + port + " (task " + step.rank() + "'s endpoint " + endpoint
                + " on " + step.hosts().get(step.hostOf()[step.rank()]) + ") is in use or " + host + " is not this "
                + "host's address (" + e.getMessage() + "); pick another --base-port");
        }
    }
}
