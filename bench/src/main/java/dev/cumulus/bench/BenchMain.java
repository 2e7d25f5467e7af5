package dev.cumulus.bench;

import dev.cumulus.CumulusException;
import dev.cumulus.bench.arrays.ArraysBench;
import dev.cumulus.bench.attach.AttachBench;
import dev.cumulus.bench.hostile.HostileBench;
import dev.cumulus.bench.migration.MigrationBench;
import dev.cumulus.bench.pastset.PastSetBench;
import dev.cumulus.bench.profile.ProfileBench;
import dev.cumulus.bench.replication.ReplicationBench;
import dev.cumulus.bench.singlevm.SingleVmBench;
import dev.cumulus.cli.launch.HostGroup;
import dev.cumulus.cli.launch.LaunchException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The benchmark orchestrator's entry point: {@code cumulus bench} starts it in a JVM of its own, on the bench module's
 * classpath ({@code bench/target/cumulus-bench.jar} and {@code bench/target/lib}), so the peers it measures against
 * (JGroups, Hazelcast, raw Aeron) never sit on the CLI's classpath. The CLI checks the options and passes them on as
 * {@code SUITE [--nodes N,N...] [--quick] [--idle-sweep] [--wan-only] [--idle SPEC] [--transport ipc|udp]
 * [--hosts FILE [--ssh ARGS]]},
 * {@code SUITE} being one of
 * {@link #SUITES} or {@code all}; the exit code is the suite's. With {@code --hosts} (rpc, replication, all) the
 * measured processes run on the file's hosts ({@link BenchHosts}), which stay open for the whole command; without
 * {@code --nodes} then, the node count is the file's slots.
 */
public final class BenchMain {
    /** The suites, in the order {@code cumulus bench --help} names them. */
    public static final List<String> SUITES = List.of("rpc", "arrays", PastSetBench.SUITE, ReplicationBench.SUITE,
        MigrationBench.SUITE, HostileBench.SUITE, ProfileBench.SUITE, SingleVmBench.SUITE);
    static final int EXIT_USAGE = 2;

    private BenchMain() {
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    /** Runs what {@code args} names; returns the exit code (2 for arguments it does not understand). */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        Request r;
        try {
            r = Request.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("cumulus bench: " + e.getMessage());
            return EXIT_USAGE;
        }
        if (r.hosts != null) {
            return overHosts(r, out, err);
        }
        if (r.attach) {
            return AttachBench.run(r.quick, out, err);
        }
        switch (r.suite) {
            case ReplicationBench.SUITE -> {
                return ReplicationBench.runFromCli(r.nodes, r.quick, r.idle, r.wanOnly, out, err);
            }
            case "arrays" -> {
                return ArraysBench.run(r.quick, out, err);
            }
            case MigrationBench.SUITE -> {
                return MigrationBench.run(r.quick, r.idle, out, err);
            }
            case HostileBench.SUITE -> {
                return HostileBench.run(r.quick, r.idle, out, err);
            }
            case ProfileBench.SUITE -> {
                if (r.nodes != null) {
                    err.println("cumulus bench: the profile suite runs on " + ProfileBench.NODES + " nodes; drop --nodes");
                    return EXIT_USAGE;
                }
                return ProfileBench.run(r.quick, 0, out, err);
            }
            case SingleVmBench.SUITE -> {
                if (r.nodes != null) {
                    err.println("cumulus bench: the single-vm suite runs plain java, 1 node and 2 nodes; drop --nodes");
                    return EXIT_USAGE;
                }
                return SingleVmBench.run(r.quick, 0, out, err);
            }
            case PastSetBench.SUITE -> {
                return PastSetBench.runFromCli(r.nodes, r.quick, r.idle, out, err);
            }
            default -> {
                // "rpc", or "all": rpc, then replication
            }
        }
        if (r.nodes == null) {
            err.println("cumulus bench: the rpc suite needs --nodes N,N... (the CLI passes its default)");
            return EXIT_USAGE;
        }
        RpcBench.Options options;
        try {
            options = new RpcBench.Options(r.nodes, r.quick, r.idleSweep, r.idle, r.udp);
        } catch (IllegalArgumentException | CumulusException e) {
            err.println("cumulus bench: " + e.getMessage());
            return EXIT_USAGE;
        }
        int code = RpcBench.run(options, out, err);
        return "all".equals(r.suite) && code == 0
            ? ReplicationBench.runFromCli(null, r.quick, r.idle, false, out, err)
            : code;
    }

    /** rpc, replication or both over the hosts of {@code --hosts}. */
    private static int overHosts(Request r, PrintStream out, PrintStream err) {
        if (!List.of("rpc", ReplicationBench.SUITE, "all").contains(r.suite)) {
            err.println("cumulus bench: --hosts runs the rpc and replication suites, not " + r.suite);
            return EXIT_USAGE;
        }
        if (r.wanOnly || r.udp || r.idleSweep) {
            err.println("cumulus bench: " + (r.wanOnly ? "--wan-only" : r.udp ? "--transport udp" : "--idle-sweep")
                + " measures on this host only; drop --hosts");
            return EXIT_USAGE;
        }
        List<Integer> nodes;
        RpcBench.Options rpc = null;
        try {
            nodes = r.nodes != null ? r.nodes : List.of(HostGroup.slots(r.hosts));
            if (!ReplicationBench.SUITE.equals(r.suite)) {
                rpc = new RpcBench.Options(nodes, r.quick, false, r.idle, false);
            }
        } catch (IllegalArgumentException | CumulusException e) {
            err.println("cumulus bench: " + e.getMessage());
            return EXIT_USAGE;
        }
        int most = nodes.stream().mapToInt(Integer::intValue).max().orElse(1);
        BenchHosts hosts;
        try {
            hosts = BenchHosts.open(r.hosts, r.ssh, most, err);
        } catch (LaunchException | IllegalArgumentException e) {
            err.println("cumulus bench: " + e.getMessage());
            return EXIT_USAGE;
        }
        Thread closeOnExit = new Thread(hosts::close, "bench-hosts-close");
        Runtime.getRuntime().addShutdownHook(closeOnExit);
        try (hosts) {
            int code = rpc == null ? 0 : RpcBench.run(rpc, hosts, out, err);
            return code == 0 && !"rpc".equals(r.suite)
                ? ReplicationBench.runFromCli(nodes, r.quick, r.idle, false, hosts, out, err)
                : code;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(closeOnExit);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook closes the hosts (close is idempotent)
            }
        }
    }

    /** The parsed arguments; {@code nodes} is {@code null} when not given (each suite has its own default). */
    private record Request(String suite, List<Integer> nodes, boolean quick, boolean idleSweep, boolean wanOnly,
                           String idle, boolean udp, Path hosts, String ssh, boolean attach) {
        static Request parse(List<String> args) {
            if (args.isEmpty() || !(SUITES.contains(args.getFirst()) || "all".equals(args.getFirst()))) {
                throw new IllegalArgumentException("the first argument must be a suite (" + String.join(", ", SUITES)
                    + ") or all, not " + (args.isEmpty() ? "nothing" : "'" + args.getFirst() + "'"));
            }
            List<Integer> nodes = null;
            boolean quick = false;
            boolean idleSweep = false;
            boolean wanOnly = false;
            String idle = null;
            boolean udp = false;
            Path hosts = null;
            String ssh = null;
            boolean attach = false;
            for (int i = 1; i < args.size(); i++) {
                String a = args.get(i);
                switch (a) {
                    case "--quick" -> quick = true;
                    case "--idle-sweep" -> idleSweep = true;
                    case "--wan-only" -> wanOnly = true;
                    case "--attach" -> attach = true;
                    case "--nodes" -> nodes = counts(value(args, ++i, a));
                    case "--idle" -> idle = value(args, ++i, a);
                    case "--hosts" -> hosts = Path.of(value(args, ++i, a));
                    case "--ssh" -> ssh = value(args, ++i, a);
                    case "--transport" -> udp = switch (value(args, ++i, a)) {
                        case "udp" -> true;
                        case "ipc" -> false;
                        default -> throw new IllegalArgumentException("--transport: ipc or udp, not '" + args.get(i)
                            + "'");
                    };
                    default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
                }
            }
            if (idle == null) {
                throw new IllegalArgumentException("--idle SPEC is missing (the CLI passes its default)");
            }
            if (udp && !"rpc".equals(args.getFirst())) {
                throw new IllegalArgumentException("--transport udp is a setting of the rpc suite only");
            }
            if (ssh != null && hosts == null) {
                throw new IllegalArgumentException("--ssh is an option of --hosts");
            }
            if (attach && (!"rpc".equals(args.getFirst()) || hosts != null || udp || idleSweep)) {
                throw new IllegalArgumentException("--attach is an option of the rpc suite on this host (no --hosts, "
                    + "--transport udp or --idle-sweep)");
            }
            return new Request(args.getFirst(), nodes, quick, idleSweep, wanOnly, idle, udp, hosts, ssh, attach);
        }

        private static String value(List<String> args, int i, String option) {
            if (i >= args.size()) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args.get(i);
        }

        private static List<Integer> counts(String list) {
            List<Integer> counts = new ArrayList<>();
            for (String n : list.split(",")) {
                try {
                    counts.add(Integer.parseInt(n.trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--nodes takes node counts separated by commas, not '" + list
                        + "'");
                }
            }
            return counts;
        }
    }
}
