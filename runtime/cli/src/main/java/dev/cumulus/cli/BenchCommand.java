package dev.cumulus.cli;

import dev.cumulus.internal.node.NodeSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code cumulus bench [SUITE]}: benchmarks on real node processes, side by side with peers, as ratios. Checks the
 * options, then runs the bench module's orchestrator ({@code dev.cumulus.bench.BenchMain}) in a JVM of its own on
 * that module's classpath, which {@code ./build} makes: the peers it measures against (JGroups, Hazelcast) are no part
 * of the CLI's classpath.
 */
@Command(name = "bench",
    mixinStandardHelpOptions = true,
    description = {
        "Run benchmarks on node processes of this host (or, with --hosts, of several hosts) and print them side by "
            + "side with peer baselines, as ratios.",
        "Keep the machine otherwise idle: on a small box other work shows up in the figures.",
        "",
        "Suites (node counts: --nodes, else the suite's default):",
        "  rpc          remote calls vs raw Aeron, UDP and java.rmi (nodes 2,4)",
        "  replication  clouds vs a plain call, RPC, JGroups SEQUENCER (nodes 1,2,4,8)",
        "  arrays       shared arrays, barriers, matrix multiply, LU (fixed: 2-4 nodes)",
        "  pastset      the tuple space vs RPC and Hazelcast IQueue (nodes 2,4)",
        "  migration    moving remote objects: pause, stale proxies (fixed: 5 nodes)",
        "  hostile      hostile inputs: time to refusal, still serving (fixed: 2 nodes)",
        "  profile      what --profile and --live cost a program vs a plain run and",
        "               the JDK's own JFR: replicated TSP, replicated reads (2 nodes)",
        "  single-vm    map colouring: plain java vs cumulus run --single-vm on",
        "               1 node and on 2 nodes (Hyperion's table; fixed)",
        "Without SUITE: rpc, then replication.",
        "",
        "Across hosts (rpc, replication): --hosts FILE puts process i of every measurement, ours and each peer's, on "
            + "the host of slot i (as 'cumulus run --hosts' places node i) and starts it over ssh. The hosts must see "
            + "this JDK and this checkout (the bench's classpath) at the same paths.",
        ""},
    footer = {
        "",
        "Examples:",
        "  cumulus bench rpc",
        "  cumulus bench rpc --nodes 2 --idle-sweep",
        "  cumulus bench rpc --quick --nodes 2   # smoke run, about 15 s",
        "  cumulus bench rpc --transport udp --nodes 2   # what the MAC and --encrypt cost",
        "  cumulus bench replication --wan-only  # Table 4 alone (root)",
        "  cumulus bench rpc --nodes 2 --hosts hosts.txt  # over the file's hosts",
        "  cumulus bench migration --quick       # smoke run, about 15 s",
        "  cumulus bench hostile --quick         # smoke run, about 30 s",
        "  cumulus bench profile                 # profiling's cost, a few minutes",
        "  cumulus bench single-vm --quick       # smoke run, about 30 s"})
final class BenchCommand implements Callable<Integer> {
    static final List<String> SUITES = List.of("rpc", "replication", "arrays", "pastset", "migration",
        "hostile", "profile", "single-vm");
    /** The rpc suite's node counts when --nodes is not given (the help's suite list says so). */
    static final List<Integer> RPC_NODES = List.of(2, 4);

    @ParentCommand
    CumulusCli cli;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SUITE", description = "Suite to run: ${COMPLETION-CANDIDATES}.",
        completionCandidates = Suites.class)
    String suite;

    @Option(names = "--nodes", split = ",", paramLabel = "N",
        description = "Node process counts to measure, e.g. 2,4 (default: the suite's).")
    List<Integer> nodes;

    @Option(names = "--quick", description = "Short runs (a smoke test; the figures are rough).")
    boolean quick;

    @Option(names = "--idle-sweep",
        description = "Also measure every idle strategy (backoff, yield, spin, sleep:100000) on 2 nodes, with CPU use.")
    boolean idleSweep;

    @Option(names = "--attach", description = "rpc: a standing cluster's client calling an object on a server "
        + "against the same call inside an SPMD run (ratio; goal <= 1.2x), and the time from 'run --attach' to the "
        + "first remote call, cold and warm.")
    boolean attach;

    @Option(names = "--wan-only",
        description = "replication: only Table 4 (4 emulated wide-area clusters in network namespaces; needs root).")
    boolean wanOnly;

    @Option(names = "--transport", paramLabel = "ipc|udp", defaultValue = "ipc",
        description = "rpc: ipc (default) compares with raw Aeron, UDP and RMI; udp measures Cumulus over UDP on "
            + "loopback with the MAC every UDP frame carries, with --encrypt, and unsealed (a baseline only the "
            + "benchmark can run), with the goals 1.3x and 1.6x.")
    String transport;

    @Option(names = "--hosts", paramLabel = "FILE",
        description = "rpc, replication: run the processes on these hosts (one 'HOST [slots=N]' a line, as for cumulus "
            + "run --hosts), process i on the host of slot i, over ssh; without --nodes, as many as the slots.")
    Path hosts;

    @Option(names = "--ssh", paramLabel = "ARGS",
        description = "With --hosts: extra options for ssh, e.g. \"-F ~/.ssh/cluster_config\".")
    String ssh;

    @Option(names = "--idle", paramLabel = "SPEC", defaultValue = NodeSettings.DEFAULT_IDLE_STRATEGY,
        description = "Idle strategy of the nodes (and the raw Aeron peer) in the main comparison (default: ${DEFAULT-VALUE}).")
    String idle;

    static final class Suites extends ArrayList<String> {
        Suites() {
            super(SUITES);
        }
    }

    @Override
    public Integer call() {
        if (suite != null && !SUITES.contains(suite)) {
            cli.err().println("cumulus bench: unknown suite '" + suite + "'; suites: " + String.join(", ", SUITES));
            return CumulusCli.EXIT_USAGE;
        }
        if (wanOnly && !"replication".equals(suite)) {
            cli.err().println("cumulus bench: --wan-only is an option of the replication suite");
            return CumulusCli.EXIT_USAGE;
        }
        if (nodes != null && "arrays".equals(suite)) {
            cli.err().println("cumulus bench: the arrays suite runs fixed node counts (2 to 4); drop --nodes");
            return CumulusCli.EXIT_USAGE;
        }
        if (nodes != null && "migration".equals(suite)) {
            cli.err().println("cumulus bench: the migration suite runs on 5 nodes; drop --nodes");
            return CumulusCli.EXIT_USAGE;
        }
        if (nodes != null && "hostile".equals(suite)) {
            cli.err().println("cumulus bench: the hostile suite runs on 2 nodes (an IPC run, then a UDP run); drop "
                + "--nodes");
            return CumulusCli.EXIT_USAGE;
        }
        if (nodes != null && "profile".equals(suite)) {
            cli.err().println("cumulus bench: the profile suite runs on 2 nodes; drop --nodes");
            return CumulusCli.EXIT_USAGE;
        }
        if (nodes != null && "single-vm".equals(suite)) {
            cli.err().println("cumulus bench: the single-vm suite runs plain java, 1 node and 2 nodes; drop --nodes");
            return CumulusCli.EXIT_USAGE;
        }
        if (!"ipc".equals(transport) && !"udp".equals(transport)) {
            cli.err().println("cumulus bench: --transport " + transport + ": ipc or udp");
            return CumulusCli.EXIT_USAGE;
        }
        if ("udp".equals(transport) && !"rpc".equals(suite)) {
            cli.err().println("cumulus bench: --transport udp is an option of the rpc suite (cumulus bench rpc "
                + "--transport udp)");
            return CumulusCli.EXIT_USAGE;
        }
        if (hosts != null && suite != null && !"rpc".equals(suite) && !"replication".equals(suite)) {
            cli.err().println("cumulus bench: --hosts runs the rpc and replication suites, not " + suite);
            return CumulusCli.EXIT_USAGE;
        }
        if (hosts != null && (wanOnly || idleSweep || "udp".equals(transport))) {
            cli.err().println("cumulus bench: " + (wanOnly ? "--wan-only" : idleSweep ? "--idle-sweep"
                : "--transport udp") + " measures on this host only; drop --hosts");
            return CumulusCli.EXIT_USAGE;
        }
        if (ssh != null && hosts == null) {
            cli.err().println("cumulus bench: --ssh is an option of --hosts");
            return CumulusCli.EXIT_USAGE;
        }
        if (attach && (!"rpc".equals(suite) || hosts != null || idleSweep || "udp".equals(transport))) {
            cli.err().println("cumulus bench: --attach is an option of the rpc suite on this host (cumulus bench rpc "
                + "--attach), without --hosts, --idle-sweep or --transport udp");
            return CumulusCli.EXIT_USAGE;
        }
        if (hosts != null && !Files.isRegularFile(hosts)) {
            cli.err().println("cumulus bench: --hosts " + hosts + ": no such file; write one host a line: HOST "
                + "[slots=N]");
            return CumulusCli.EXIT_USAGE;
        }
        List<String> args = new ArrayList<>(List.of(suite == null ? "all" : suite, "--idle", idle));
        if ("udp".equals(transport)) {
            args.addAll(List.of("--transport", "udp"));
        }
        // the orchestrator needs rpc's node counts; the other suites have defaults of their own
        // (over hosts: the orchestrator takes the hosts file's slots)
        List<Integer> counts = nodes == null && hosts == null && (suite == null || "rpc".equals(suite)) ? RPC_NODES
            : nodes;
        if (counts != null) {
            args.addAll(List.of("--nodes", String.join(",", counts.stream().map(String::valueOf).toList())));
        }
        if (quick) {
            args.add("--quick");
        }
        if (idleSweep) {
            args.add("--idle-sweep");
        }
        if (wanOnly) {
            args.add("--wan-only");
        }
        if (attach) {
            args.add("--attach");
        }
        if (hosts != null) {
            args.addAll(List.of("--hosts", hosts.toAbsolutePath().toString()));
        }
        if (ssh != null) {
            args.addAll(List.of("--ssh", ssh));
        }
        try {
            return BenchProcess.run(args, cli.out(), cli.err());
        } catch (BenchProcess.NotBuiltException e) {
            cli.err().println("cumulus bench: " + e.getMessage());
            return CumulusCli.EXIT_ERROR;
        } catch (IOException e) {
            cli.err().println("cumulus bench: cannot start the benchmark JVM: " + e.getMessage());
            return CumulusCli.EXIT_ERROR;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cli.err().println("cumulus bench: interrupted; the benchmarks were stopped");
            return CumulusCli.EXIT_ERROR;
        }
    }
}
