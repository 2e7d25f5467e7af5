package dev.cumulus.cli.launch;

import dev.cumulus.agent.AgentSettings;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.launch.LaunchConfig.TransportMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code cumulus run} was asked to do: configuration with validation, in the style of Aeron's contexts. Fluent
 * setters; {@link #validate()} checks everything that can be checked without touching the file system or starting a
 * process, and throws a {@link LaunchException} whose message says the valid values and why.
 */
public final class LaunchContext {
    /** Most nodes {@code cumulus run} starts on one host: each node is a JVM with a few threads of its own. */
    public static final int MAX_LOCAL_NODES = 64;
    public static final int DEFAULT_BASE_PORT = 40100;
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(3);
    public static final int DEFAULT_TAIL_LINES = 20;

    /** What each node runs in the single-VM mode, before the program's main class and arguments. */
    static final String SINGLE_VM_MAIN = "dev.cumulus.internal.singlevm.SingleVmMain";
    private long nodes;
    private String mainClass;
    private boolean singleVm;
    private List<String> programArgs = List.of();
    private String classpath = ".";
    private List<String> jvmArgs = List.of();
    private String agentOptions = "";
    private boolean profile;
    private Duration timeout;
    private Path runDir;
    private Path runsRoot = Path.of("cumulus-runs");
    private TransportMode transport;
    private int basePort = DEFAULT_BASE_PORT;
    private Path hostsFile;
    private SlurmAllocation slurm;
    private String sshArgs;
    private String bind;
    private String idle = NodeSettings.DEFAULT_IDLE_STRATEGY;
    private Duration heartbeatTimeout = Duration.ofMillis(NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS);
    private Duration grace = DEFAULT_GRACE;
    private int tailLines = DEFAULT_TAIL_LINES;
    private boolean shutdownHook = true;
    private boolean encrypt;
    private Set<Integer> debugNodes = Set.of();
    private Duration debugWait = DEFAULT_DEBUG_WAIT;
    private boolean nodesOutliveFailures;

    /** How long a node started for debugging waits for a debugger to attach. */
    public static final Duration DEFAULT_DEBUG_WAIT = Duration.ofMinutes(5);
    /** The heartbeat timeout while some node is debugged: a node stopped at a breakpoint sends no heartbeats. */
    public static final Duration DEBUG_HEARTBEAT_TIMEOUT = Duration.ofHours(1);

    public LaunchContext nodes(long n) { this.nodes = n; return this; }
    public LaunchContext mainClass(String name) { this.mainClass = name; return this; }
    /** The single-VM mode: every node runs {@link #SINGLE_VM_MAIN} with the agent weaving for it. */
    public LaunchContext singleVm(boolean on) { this.singleVm = on; return this; }
    /** The JVM option that tells the agent of a node to weave for the single-VM mode. */
    public static final String SINGLE_VM_JVM_ARG = "-D" + LaunchConfig.SINGLE_VM + "=true";
    public boolean singleVm() { return singleVm; }
    public LaunchContext programArgs(List<String> args) { this.programArgs = List.copyOf(args == null ? List.of() : args); return this; }
    public LaunchContext classpath(String cp) { this.classpath = cp; return this; }
    public LaunchContext jvmArgs(List<String> args) { this.jvmArgs = List.copyOf(args == null ? List.of() : args); return this; }
    /** The Cumulus agent's options on every node ({@code --agent-options}, {@link AgentSettings}); empty for none. */
    public LaunchContext agentOptions(String options) { this.agentOptions = options == null ? "" : options; return this; }
    public LaunchContext profile(boolean on) { this.profile = on; return this; }
    /** Whole-run time limit, or {@code null} for none. */
    public LaunchContext timeout(Duration d) { this.timeout = d; return this; }
    /** Explicit run directory; by default {@code runsRoot/<runId>}. */
    public LaunchContext runDir(Path dir) { this.runDir = dir; return this; }
    /** Where default run directories go ({@code ./cumulus-runs}). */
    public LaunchContext runsRoot(Path dir) { this.runsRoot = dir; return this; }
    public LaunchContext transport(TransportMode mode) { this.transport = mode; return this; }
    public LaunchContext basePort(int port) { this.basePort = port; return this; }
    /** Hosts to spread the nodes over ({@link HostsFile}); null: every node on this host. */
    public LaunchContext hostsFile(Path file) { this.hostsFile = file; return this; }
    /**
     * The environment that tells whether the launcher runs inside a Slurm allocation ({@code SLURM_JOB_ID}): then,
     * without a hosts file, the nodes are spread over the allocation, each started by srun.
     *
     * @throws LaunchException when it names a Slurm job whose node or task list cannot be read
     */
    public LaunchContext environment(Map<String, String> env) {
        this.slurm = SlurmAllocation.fromEnvironment(env).orElse(null);
        return this;
    }
    /** Extra ssh arguments for reaching the hosts, split at white space; null for none. */
    public LaunchContext sshArgs(String args) { this.sshArgs = args; return this; }
    /** This host's address for the other hosts' nodes; null: the one their ssh servers see. */
    public LaunchContext bind(String address) { this.bind = address; return this; }
    public LaunchContext idle(String spec) { this.idle = spec; return this; }
    public LaunchContext heartbeatTimeout(Duration d) { this.heartbeatTimeout = d; return this; }
    /** How long a node gets between SIGTERM and SIGKILL when the launcher stops it. */
    public LaunchContext grace(Duration d) { this.grace = d; return this; }
    public LaunchContext tailLines(int n) { this.tailLines = n; return this; }
    /** Whether the launcher installs a JVM shutdown hook that stops the nodes on Ctrl-C/SIGTERM (default on). */
    public LaunchContext shutdownHook(boolean on) { this.shutdownHook = on; return this; }
    /** Nodes started with a debugger agent, suspended until a debugger attaches ({@code --debug}). */
    public LaunchContext debugNodes(Set<Integer> nodes) { this.debugNodes = Set.copyOf(nodes); return this; }
    public LaunchContext debugWait(Duration d) { this.debugWait = d; return this; }

    /** Encrypt frames over UDP as well as authenticating them (AES-GCM). */
    public LaunchContext encrypt(boolean on) { this.encrypt = on; return this; }
    public boolean encrypt() { return encrypt; }

    /**
     * A standing cluster's servers: a node that ends on its own (killed, crashed) is reported and the others run on;
     * the run ends when the last one does or when it is stopped. Off for a run, which is fail-stop.
     */
    public LaunchContext nodesOutliveFailures(boolean on) { this.nodesOutliveFailures = on; return this; }
    public boolean nodesOutliveFailures() { return nodesOutliveFailures; }

    public int nodes() { return (int) nodes; }
    public String mainClass() { return mainClass; }
    public List<String> programArgs() { return programArgs; }
    public String classpath() { return classpath; }
    public List<String> jvmArgs() { return jvmArgs; }
    public String agentOptions() { return agentOptions; }
    public boolean profile() { return profile; }
    public Duration timeout() { return timeout; }
    public Path runDir() { return runDir; }
    public Path runsRoot() { return runsRoot; }
    /** As set; else HOSTS with a hosts file or inside Slurm, IPC on one host. */
    public TransportMode transport() {
        return transport != null ? transport : overHosts() ? TransportMode.HOSTS : TransportMode.IPC;
    }

    /** Whether the nodes are spread over hosts: a hosts file, or a Slurm allocation. */
    private boolean overHosts() {
        return hostsFile != null || slurm() != null;
    }
    public int basePort() { return basePort; }
    public Path hostsFile() { return hostsFile; }
    /** The Slurm job whose allocation the nodes run in, or null. */
    public String slurmJob() { return slurm() == null ? null : slurm.jobId(); }
    /** The allocation the nodes run in: the environment's, unless a hosts file is given. */
    SlurmAllocation slurm() { return hostsFile != null ? null : slurm; }
    public String sshArgs() { return sshArgs; }
    public String bind() { return bind; }
    public String idle() { return idle; }
    /** As set; at least {@link #DEBUG_HEARTBEAT_TIMEOUT} while a node is debugged. */
    public Duration heartbeatTimeout() {
        return debugNodes.isEmpty() || heartbeatTimeout == null || heartbeatTimeout.compareTo(DEBUG_HEARTBEAT_TIMEOUT) > 0
            ? heartbeatTimeout : DEBUG_HEARTBEAT_TIMEOUT;
    }
    public Set<Integer> debugNodes() { return debugNodes; }
    public Duration debugWait() { return debugWait; }
    public Duration grace() { return grace; }
    public int tailLines() { return tailLines; }
    public boolean shutdownHook() { return shutdownHook; }

    /**
     * Reads hosts file {@code file} and places {@code nodes} nodes on its hosts, as a launch will, starting nothing.
     *
     * @throws LaunchException naming the line that is wrong, or saying that the slots are too few
     */
    public static void checkPlaces(Path file, int nodes) {
        HostsFile.read(file).place(nodes);
    }

    /** Checks the options; throws a {@link LaunchException} with a message that names the valid values. */
    public LaunchContext validate() {
        if (nodes < 1 && !(nodes == 0 && overHosts())) {
            throw new LaunchException("--nodes " + nodes + " is not a node count: a run needs at least 1 node "
                + "(valid: 1.." + MAX_LOCAL_NODES + " on one host)");
        }
        if (overHosts()) {
            validateHosts();
        } else if (nodes > MAX_LOCAL_NODES) {
            throw new LaunchException("--nodes " + nodes + " is too many for one host: valid is 1.." + MAX_LOCAL_NODES
                + ", because every node is a JVM of its own on this machine (" + Runtime.getRuntime().availableProcessors()
                + " cores here)");
        }
        if (!overHosts() && transport() == TransportMode.HOSTS) {
            throw new LaunchException("--transport hosts needs --hosts FILE (the hosts to spread the nodes over) or "
                + "a Slurm allocation");
        }
        if (hostsFile == null && (sshArgs != null || bind != null)) {
            throw new LaunchException((sshArgs != null ? "--ssh" : "--bind") + " applies only with --hosts FILE");
        }
        if (mainClass == null || mainClass.isBlank()) {
            throw new LaunchException("no MAIN class given: cumulus run --nodes N -cp CLASSPATH MAIN [ARGS...]");
        }
        if (transport() != TransportMode.IPC && (basePort < 1024 || basePort + nodes - 1 > 65535)) {
            throw new LaunchException("--base-port " + basePort + " does not fit " + nodes + " nodes: node i listens on "
                + "base-port + i, so the base port must be between 1024 and " + (65535 - nodes + 1));
        }
        checkAgentOptions(agentOptions);
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new LaunchException("--timeout must be positive, e.g. 30s, 500ms or 5m");
        }
        if (heartbeatTimeout == null || heartbeatTimeout.toMillis() <= NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS) {
            throw new LaunchException("--heartbeat-timeout must be longer than the heartbeat interval ("
                + NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS + " ms), e.g. 5s");
        }
        for (int node : debugNodes) {
            if (node < 0 || node >= nodes) {
                throw new LaunchException("--debug " + node + " is not a node of this run: nodes are 0.." + (nodes - 1));
            }
        }
        if (!debugNodes.isEmpty() && hostsFile != null) {
            throw new LaunchException("--debug works for nodes on this host; run without --hosts to debug a node");
        }
        if (debugWait == null || debugWait.toMillis() < 1) {
            throw new LaunchException("the debugger wait must be positive");
        }
        if (grace == null || grace.isNegative()) {
            throw new LaunchException("grace period must be zero or positive");
        }
        if (tailLines < 0) {
            throw new LaunchException("tail lines must be zero or positive");
        }
        return this;
    }

    private void validateHosts() {
        if (nodes > LaunchConfig.MAX_NODES) {
            throw new LaunchException("--nodes " + nodes + " is too many: a run has at most " + LaunchConfig.MAX_NODES
                + " nodes");
        }
        if (transport() == TransportMode.IPC) {
            String where = hostsFile != null ? "with --hosts" : "inside a Slurm allocation";
            throw new LaunchException("--transport ipc cannot reach other hosts: leave --transport out " + where
                + " (IPC within a host, UDP between hosts), or use --transport udp (UDP between every two nodes)");
        }
        if (slurm() != null && bind != null) {
            throw new LaunchException("--bind applies only with --hosts FILE: inside a Slurm allocation every node "
                + "runs in a job step, and each host finds its own address");
        }
        if (bind != null && (bind.isBlank() || bind.contains(" ") || bind.contains(","))) {
            throw new LaunchException("--bind '" + bind + "' is not an address; give this host's address as the "
                + "other hosts reach it, e.g. --bind 192.0.2.10");
        }
    }

    /**
     * Checks {@code --agent-options} as the agent will read them, so bad ones stop the launch before any node starts.
     *
     * @throws LaunchException saying what is wrong and what the options are
     */
    public static void checkAgentOptions(String options) {
        try {
            AgentSettings.parse(options);
        } catch (IllegalArgumentException e) {
            throw new LaunchException("--agent-options: " + e.getMessage() + " (e.g. --agent-options "
                + AgentSettings.EXAMPLE + ")");
        }
    }

    /** The node's {@code -javaagent:} argument: the agent jar, and its options after {@code =} when there are any. */
    public static String javaagent(Path agentJar, String agentOptions) {
        return "-javaagent:" + agentJar + (agentOptions == null || agentOptions.isEmpty() ? "" : "=" + agentOptions);
    }

    /** The program's command tail: main class then its arguments. */
    List<String> mainAndArgs() {
        List<String> l = new ArrayList<>();
        if (singleVm) {
            l.add(SINGLE_VM_MAIN);
        }
        l.add(mainClass);
        l.addAll(programArgs);
        return l;
    }
}
