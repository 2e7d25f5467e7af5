package dev.cumulus.cli;

import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.cli.launch.LaunchContext;
import dev.cumulus.cli.launch.SlurmNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code cumulus node}: one node of a cluster that Slurm's srun started, one node per task. See {@link SlurmNode}. */
@Command(name = "node",
    mixinStandardHelpOptions = true,
    description = {
        "Run one node of MAIN as a task of a Slurm job step: 'srun cumulus node -cp CP MAIN' starts one node per "
            + "task, and each finds its peers from the step's environment (task i is node i; node i listens on UDP "
            + "port base-port + i of its host's address). Every node has a media driver of its own. The run's secret "
            + "comes from the environment: CUMULUS_SECRET, 32 random bytes in base64, the same for every task (set "
            + "it before srun; nodes admit only peers that hold it). Options go before MAIN; everything after MAIN "
            + "goes to the program.",
        ""},
    footer = {
        "",
        "Exit code: the node's (3 when the cluster failed: a peer died or hung); 2 for a usage error or when this "
            + "is no Slurm task. 'srun --kill-on-bad-exit=1' ends the step when a node fails; 'cumulus run' inside "
            + "an allocation does that, and more (one driver per host, profiles, the node where a failure began).",
        "",
        "Example (in an sbatch script or under salloc):",
        "  export CUMULUS_SECRET=$(head -c 32 /dev/urandom | base64)",
        "  srun --label cumulus node -cp app.jar org.example.Search 42"})
final class NodeCommand implements Callable<Integer> {
    @ParentCommand
    CumulusCli cli;

    @Option(names = {"-cp", "--classpath"}, paramLabel = "CP", defaultValue = ".",
        description = "The program's classpath (default: the current directory), as seen on every host. The Cumulus "
            + "runtime is added.")
    String classpath;

    @Option(names = "--jvm-arg", paramLabel = "ARG",
        description = "Extra JVM option for the node (repeatable), e.g. --jvm-arg=-Xmx512m.")
    List<String> jvmArgs = new ArrayList<>();

    @Option(names = "--agent-options", paramLabel = "OPTS",
        description = "Options of the Cumulus agent of the node, separated by commas: verbose (warnings and each "
            + "woven class on stderr), debug (stack traces with the agent's errors), dumpDir=DIR (every woven class "
            + "also written to DIR/name.class, for javap), e.g. --agent-options verbose,dumpDir=/tmp/woven.")
    String agentOptions = "";

    @Option(names = "--base-port", paramLabel = "P", defaultValue = "" + LaunchContext.DEFAULT_BASE_PORT,
        description = "UDP port of task 0; task i listens on P + i (default: ${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--idle", paramLabel = "SPEC", defaultValue = NodeSettings.DEFAULT_IDLE_STRATEGY,
        description = "Idle strategy of the node's agent thread (as for cumulus run).")
    String idle;

    @Option(names = "--heartbeat-timeout", paramLabel = "D", converter = DurationConverter.class,
        defaultValue = NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS + "ms",
        description = "Silence after which a node declares a peer dead (default: 5s).")
    Duration heartbeatTimeout;

    @Parameters(index = "0", paramLabel = "MAIN", description = "The program's main class.")
    String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments for the program.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
        List<String> main = new ArrayList<>();
        main.add(mainClass);
        main.addAll(args);
        return new SlurmNode().classpath(classpath).mainAndArgs(main).jvmArgs(jvmArgs).agentOptions(agentOptions)
            .basePort(basePort).idle(idle)
            .heartbeatTimeout(heartbeatTimeout).run(System.getenv(), cli.err());
    }
}
