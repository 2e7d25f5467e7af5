package dev.cumulus.cli;

import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.cli.launch.ClusterLauncher;
import dev.cumulus.cli.launch.LaunchContext;
import dev.cumulus.cli.standing.AttachedRun;
import dev.cumulus.cli.standing.ClusterRegistry;
import dev.cumulus.internal.service.ClientCredential;
import dev.cumulus.cli.launch.LaunchException;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.launch.LaunchConfig.TransportMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code cumulus run}: N node JVMs on this host running the same main. The machinery is {@link ClusterLauncher}. */
@Command(name = "run",
    mixinStandardHelpOptions = true,
    description = {
        "Run MAIN on N node JVMs on this host (SPMD: every node runs the same main; Cluster.join() connects them).",
        "Each node's output line is prefixed with [i]. Options go before MAIN; everything after MAIN goes to the program.",
        ""},
    footer = {
        "",
        "Exit code: 0 when every node exits 0; otherwise the code of the first node to fail (the worst node is the "
            + "first to fail; nodes the launcher stops after that do not count); 124 on --timeout; 130 when the "
            + "launcher is interrupted; 2 for a usage error (nothing is started); 1 when the launcher itself fails.",
        "",
        "Examples:",
        "  cumulus run --nodes 4 -cp out org.example.Search 42",
        "  cumulus run --nodes 2 --profile --timeout 5m -cp app.jar org.example.Stencil",
        "  salloc -N 2 --ntasks-per-node 4 cumulus run -cp app.jar org.example.Search 42   (one node per task)"})
final class RunCommand implements Callable<Integer> {
    @ParentCommand
    CumulusCli cli;

    @Option(names = "--nodes", paramLabel = "N",
        description = "Number of node JVMs, 1..64 on one host (required); with --hosts up to the hosts' slots "
            + "(default: all of them); inside a Slurm allocation up to its tasks (default: all of them).")
    Long nodes;

    @Option(names = {"-cp", "--classpath"}, paramLabel = "CP", defaultValue = ".",
        description = "The program's classpath (default: the current directory). The Cumulus runtime is added.")
    String classpath;

    @Option(names = "--profile",
        description = "Record JFR on every node (<run dir>/node-<i>.jfr) and print a per-object profile after the run. "
            + "With --attach: the client's own profile (its calls, and those to its objects, as the servers recorded "
            + "them for it alone), written when the program closes its Cluster.")
    boolean profile;

    @Option(names = "--profile-stream",
        description = "Print every node's one-second profile summary, and the figures merged over the nodes, as "
            + "stdout lines '@cumulus-profile {json}' and, after the run, the report as the last such line (for the editor; JFR data lags about one "
            + "second; docs/design/PROFILER.md). Implies --profile.")
    boolean profileStream;

    @Option(names = "--live",
        description = "Print a one-line live profile every second on stderr (JFR data lags about one second). "
            + "Implies --profile.")
    boolean live;

    @Option(names = "--timeout", paramLabel = "D", converter = DurationConverter.class,
        description = "End the run after D (500ms, 30s, 5m, 1h) with exit code 124.")
    Duration timeout;

    @Option(names = "--run-dir", paramLabel = "DIR",
        description = "Run directory (default: ./cumulus-runs/<runId>).")
    Path runDir;

    @Option(names = "--jvm-arg", paramLabel = "ARG",
        description = "Extra JVM option for every node (repeatable), e.g. --jvm-arg=-Xmx512m.")
    List<String> jvmArgs = new ArrayList<>();

    @Option(names = "--agent-options", paramLabel = "OPTS",
        description = "Options of the Cumulus agent on every node, separated by commas: verbose (warnings and each "
            + "woven class on stderr), debug (stack traces with the agent's errors), dumpDir=DIR (every woven class "
            + "also written to DIR/name.class, for javap), e.g. --agent-options verbose,dumpDir=/tmp/woven.")
    String agentOptions = "";

    @Option(names = "--transport", paramLabel = "ipc|udp",
        description = "ipc (default on one host): the nodes share the launcher's media driver. udp: node i listens "
            + "on 127.0.0.1:<base-port + i> (with --hosts: on its host's address). With --hosts the default is IPC "
            + "within a host and UDP between hosts.")
    TransportMode transport;

    @Option(names = "--encrypt",
        description = "Encrypt every frame sent over UDP (AES-256-GCM), not only authenticate it. Frames over UDP always "
            + "carry a MAC under the run's secret; IPC frames stay in an owner-only directory on one host.")
    boolean encrypt;

    @Option(names = "--base-port", paramLabel = "P", defaultValue = "" + LaunchContext.DEFAULT_BASE_PORT,
        description = "First UDP port with --transport udp (default: ${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--hosts", paramLabel = "FILE",
        description = "Spread the nodes over these hosts: lines 'HOST [slots=N] [java=PATH]', '#' comments; nodes are "
            + "placed in order, each started through 'ssh -o BatchMode=yes HOST' (localhost: started here). Every "
            + "host needs a JDK 25 (the launcher's path, or java=PATH) and Cumulus at the launcher's paths; the "
            + "program's classpath is shipped to each host's class cache (~/.cache/cumulus/classes). Inside a "
            + "Slurm allocation (SLURM_JOB_ID set) without --hosts, the nodes are placed over the allocation's "
            + "tasks the same way and each is started with srun.")
    Path hosts;

    @Option(names = "--ssh", paramLabel = "ARGS",
        description = "Extra ssh options for --hosts, split at spaces, e.g. --ssh \"-F my_ssh_config -p 2222\".")
    String ssh;

    @Option(names = "--bind", paramLabel = "ADDR",
        description = "With --hosts: this host's address for the nodes on other hosts (default: the address their "
            + "ssh servers see).")
    String bind;

    @Option(names = "--idle", paramLabel = "SPEC", defaultValue = NodeSettings.DEFAULT_IDLE_STRATEGY,
        description = "Idle strategy of the nodes' agent threads: backoff (default), "
            + "backoff:SPINS:YIELDS:MIN_PARK_NS:MAX_PARK_NS, spin, yield or sleep:NS.")
    String idle;

    @Option(names = "--heartbeat-timeout", paramLabel = "D", converter = DurationConverter.class,
        defaultValue = NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS + "ms",
        description = "Silence after which a node declares a peer dead (default: 5s).")
    Duration heartbeatTimeout;

    @Option(names = "--rebalance", paramLabel = "WINDOW", arity = "0..1", fallbackValue = "1s",
        converter = DurationConverter.class,
        description = "Every remote object moves to the node that makes most of its calls (at least 60 %% of a "
            + "window's calls, two windows in a row; window 1s unless given). The profile shows each move.")
    Duration rebalance;

    @Option(names = "--debug", paramLabel = "NODE", split = ",",
        description = "Start these nodes (e.g. 1 or 0,2) under the JDK's debugger agent, suspended until a debugger "
            + "attaches (the launcher prints each node's port); the other nodes wait for them, and the heartbeat "
            + "timeout is at least 1h so a node stopped at a breakpoint is not declared failed.")
    List<Integer> debug = new ArrayList<>();

    @Option(names = "--attach", paramLabel = "NAME",
        description = "Run MAIN once, on this machine, as a client of the standing cluster NAME ('cumulus cluster "
            + "start NAME'): Cluster.join() there connects to it (size() is the number of servers). No --nodes.")
    String attach;

    @Option(names = "--credential", paramLabel = "FILE",
        description = "With --attach: the client's credential ('cumulus cluster grant NAME CLIENT' writes it; "
            + "default: $CUMULUS_CREDENTIAL, else ~/.config/cumulus/credentials/NAME/USER.credential).")
    Path credential;

    @Parameters(index = "0", paramLabel = "MAIN", description = "The program's main class.")
    String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments for the program.")
    List<String> args = new ArrayList<>();

    @Option(names = "--single-vm",
        description = "Run MAIN as one Java program over the nodes (Hyperion): main runs on node 0 only, every thread "
            + "the program starts runs on the next node (round robin), and its objects live in one shared heap with "
            + "the Java memory model's guarantees (docs/design/SINGLEVM.md). The program does not call Cluster.")
    boolean singleVm;

    @Option(names = "--no-check",
        description = "Start the nodes without checking the classpath's cloud classes first (rules CUM101-CUM120).")
    boolean noCheck;

    @Override
    public Integer call() {
        if (attach != null) {
            if (nodes != null || hosts != null || profileStream || live || !debug.isEmpty()
                    || !agentOptions.isEmpty()) {
                throw new LaunchException("--attach runs one client of a standing cluster: --nodes, --hosts, "
                    + "--profile-stream, --live, --debug and --agent-options do not apply to it (--profile does: the "
                    + "client's own profile)");
            }
            List<String> clientJvmArgs = new ArrayList<>(jvmArgs);
            if (credential != null) {
                if (!java.nio.file.Files.isRegularFile(credential)) {
                    throw new LaunchException("--credential " + credential + ": no such file; 'cumulus cluster grant "
                        + attach + " CLIENT' writes one");
                }
                clientJvmArgs.add("-D" + ClientCredential.PROPERTY + "=" + credential.toAbsolutePath().normalize());
            }
            if (profile) {
                return AttachedRun.runProfiled(ClusterRegistry.ofUser(), attach, classpath, mainClass, args,
                    clientJvmArgs, runDir, cli.out(), cli.err());
            }
            return AttachedRun.run(ClusterRegistry.ofUser(), attach, classpath, mainClass, args, clientJvmArgs,
                cli.out(), cli.err());
        }
        if (credential != null) {
            throw new LaunchException("--credential is for a client of a standing cluster: use it with --attach NAME");
        }
        LaunchContext ctx = new LaunchContext().environment(System.getenv()).hostsFile(hosts);
        if (nodes == null && ctx.slurmJob() == null && hosts == null) {
            throw new LaunchException("missing --nodes N: how many node JVMs to start (1.."
                + LaunchContext.MAX_LOCAL_NODES + " on one host); or --hosts FILE, whose slots say it; or run inside "
                + "a Slurm allocation, whose tasks say it");
        }
        if (!noCheck && !RestrictionPreCheck.passes(classpath, cli.err(), singleVm)) {
            return 1;
        }
        List<String> nodeJvmArgs = new ArrayList<>(jvmArgs);
        if (singleVm) {
            nodeJvmArgs.add(LaunchContext.SINGLE_VM_JVM_ARG);
        }
        if (rebalance != null) {
            if (rebalance.toMillis() < 1) {
                cli.err().println("cumulus run: --rebalance needs a window of at least 1ms, got " + rebalance);
                return 2;
            }
            nodeJvmArgs.add("-Dcumulus.rebalance.ms=" + rebalance.toMillis());
        }
        ctx.nodes(nodes == null ? 0 : nodes)
            .classpath(classpath)
            .profile(profile || profileStream || live)
            .timeout(timeout)
            .runDir(runDir)
            .jvmArgs(nodeJvmArgs)
            .agentOptions(agentOptions)
            .debugNodes(new java.util.HashSet<>(debug))
            .transport(transport)
            .basePort(basePort)
            .sshArgs(ssh)
            .bind(bind)
            .idle(idle)
            .heartbeatTimeout(heartbeatTimeout)
            .encrypt(encrypt)
            .mainClass(mainClass)
            .singleVm(singleVm)
            .programArgs(args);
        return new ClusterLauncher(ctx, cli.out(), cli.err()).profileStream(profileStream).live(live).run().exitCode();
    }
}
