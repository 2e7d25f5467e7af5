package dev.cumulus.bench.replication;

import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.CumulusException;
import dev.cumulus.bench.BenchHosts;
import dev.cumulus.bench.HostWakeup;
import dev.cumulus.bench.ProcessSet;
import dev.cumulus.bench.RpcBench;
import dev.cumulus.internal.cloud.AgentLoader;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.transport.IdleStrategies;
import org.jgroups.Version;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@code replication} suite of {@code cumulus bench}: Manta's Table 1 (read, write completion at all replicas,
 * write gap) for 1, 2, 4 and 8 node processes with the sequencer migrating and static, side by side with a plain
 * synchronized call, Cumulus RPC and JGroups' SEQUENCER total order; Table 2 (code size of the examples) when the
 * examples' {@code CodeSize} is there; Table 4 on emulated wide-area links (network namespaces; netem, or a delay
 * router on a TUN device where the kernel has no netem: {@link Netns}). What is
 * measured is printed in the output's header; see bench/README.md.
 */
public final class ReplicationBench {
    /** The suite's name in {@code cumulus bench SUITE}. */
    public static final String SUITE = "replication";
    public static final List<String> MODES = List.of("migrating", "static");
    public static final String PLAIN = "plain call, same class";
    public static final String PLAIN_CLASS = "plain call, non-cloud class";
    public static final String JGROUPS = "jgroups sequencer";
    public static final String JGROUPS_RTT = "jgroups unicast rtt";
    static final int WAN_CLUSTERS = 4;
    /** One-way delay between two clusters. */
    static final int WAN_DELAY_MS = 10;

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);
    /** UDP round trips of the link check before Table 4. */
    private static final int WAN_PINGS = 20;

    /** Which tables a run prints. */
    public enum Parts {
        /** Tables 1, 2 and 4. */
        ALL,
        /** Tables 1 and 2. */
        NO_WAN,
        /** Table 4 only. */
        WAN_ONLY;

        boolean local() {
            return this != WAN_ONLY;
        }

        boolean wan() {
            return this != NO_WAN;
        }
    }

    /**
     * @param nodes  process counts (1..16)
     * @param quick  short runs (smoke test)
     * @param modes  sequencer modes to measure (migrating, static)
     * @param parts  which tables (Table 4 is the one on emulated wide-area links)
     * @param idle   idle strategy of the Cumulus nodes
     */
    public record Options(List<Integer> nodes, boolean quick, List<String> modes, Parts parts, String idle) {
        public Options {
            nodes = List.copyOf(nodes);
            modes = List.copyOf(modes);
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("--nodes: give at least one process count, e.g. 1,2,4,8");
            }
            for (int n : nodes) {
                if (n < 1 || n > 16) {
                    throw new IllegalArgumentException("--nodes " + n + ": each count must be 1..16");
                }
            }
            for (String m : modes) {
                if (!MODES.contains(m)) {
                    throw new IllegalArgumentException("sequencer mode '" + m + "': one of " + MODES);
                }
            }
        }

        public static Options defaults(boolean quick) {
            return new Options(quick ? List.of(2) : List.of(1, 2, 4, 8), quick, MODES, Parts.ALL,
                NodeSettings.DEFAULT_IDLE_STRATEGY);
        }
    }

    /** Figures of one system in one run, µs. NaN: not measured. */
    record Fig(double p50, double p99) {
        static final Fig NONE = new Fig(Double.NaN, Double.NaN);

        boolean present() {
            return !Double.isNaN(p50);
        }
    }

    /** One Cumulus run (one mode, n processes). */
    record CumulusRun(Fig read, Fig plainRead, Fig plainClassRead, Fig plainWrite, Fig plainClassWrite,
                      Fig localWrite, Fig completion, Fig gap, Fig rpc, Map<String, Fig> perReplica) {
    }

    /** One JGroups run. */
    record JGroupsRun(Fig localWrite, Fig completion, Fig gap, Fig rtt) {
    }

    private final Options options;
    /** Over hosts ({@code --hosts}): where process i runs; null: every process on this host. */
    private final BenchHosts hosts;
    private final Settings settings;
    private final PrintStream out;
    private final PrintStream err;
    private final String agentJar;

    private ReplicationBench(Options options, BenchHosts hosts, PrintStream out, PrintStream err) {
        this.options = options;
        this.hosts = hosts;
        this.settings = options.quick() ? Settings.quick() : Settings.standard();
        this.out = out;
        this.err = err;
        this.agentJar = AgentLoader.agentJar().toString();
    }

    /**
     * Runs the suite; tables to {@code out}, progress to {@code err}. Returns 0.
     *
     * @throws CumulusException when a process fails or times out; every process, directory and namespace is gone
     */
    public static int run(Options options, PrintStream out, PrintStream err) {
        return run(options, null, out, err);
    }

    /**
     * As {@link #run(Options, PrintStream, PrintStream)}, with process {@code i} of every measurement on the host of
     * slot {@code i} of {@code hosts} (null: all here): our nodes over UDP between the hosts with the MAC, JGroups on
     * the hosts' addresses. Tables 1 and 2 only: Table 4 emulates its own wide-area hosts.
     */
    public static int run(Options options, BenchHosts hosts, PrintStream out, PrintStream err) {
        if (hosts != null && options.parts().wan()) {
            throw new IllegalArgumentException("Table 4 (--wan-only) emulates wide-area hosts of its own; drop --hosts");
        }
        return new ReplicationBench(options, hosts, out, err).run();
    }

    /**
     * {@code cumulus bench replication [--nodes N,..] [--quick] [--idle SPEC] [--wan-only]}: Table 1 for {@code nodes}
     * (null: 1,2,4,8; quick: 2), both sequencer modes, Table 2, Table 4; with {@code wanOnly} Table 4 alone. Returns
     * the exit code (2 for a bad option).
     */
    public static int runFromCli(List<Integer> nodes, boolean quick, String idle, boolean wanOnly, PrintStream out,
                                 PrintStream err) {
        return runFromCli(nodes, quick, idle, wanOnly, null, out, err);
    }

    /** As above, over {@code hosts} when not null (Tables 1 and 2; {@code wanOnly} is refused). */
    public static int runFromCli(List<Integer> nodes, boolean quick, String idle, boolean wanOnly, BenchHosts hosts,
                                 PrintStream out, PrintStream err) {
        Options o;
        try {
            Options d = Options.defaults(quick);
            o = new Options(nodes == null ? d.nodes() : nodes, quick, MODES,
                wanOnly ? Parts.WAN_ONLY : hosts != null ? Parts.NO_WAN : Parts.ALL, idle);
            IdleStrategies.parse(idle);
            if (hosts != null) {
                checkAgentJarShared();
            }
            if (hosts != null && wanOnly) {
                throw new IllegalArgumentException("Table 4 (--wan-only) emulates wide-area hosts of its own; drop "
                    + "--hosts");
            }
        } catch (IllegalArgumentException | CumulusException e) {
            err.println("cumulus bench: " + e.getMessage());
            return 2;
        }
        return run(o, hosts, out, err);
    }

    /** Over hosts the nodes load the agent jar from the same path: it must not lie in this host's own /tmp. */
    private static void checkAgentJarShared() {
        Path jar = AgentLoader.agentJar().toAbsolutePath();
        Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        if (jar.startsWith(tmp)) {
            throw new IllegalArgumentException("the Cumulus agent jar " + jar + " lies in " + tmp + ", which other "
                + "hosts do not see; build with ./build (bench/target/lib/cumulus-agent.jar) or set -D"
                + AgentLoader.JAR_PROPERTY + " to a jar on a shared path");
        }
    }

    /**
     * {@code java ... ReplicationBench [--quick] [--nodes 1,2,4,8] [--sequencer migrating,static] [--no-wan |
     * --wan-only]}: the suite outside the CLI.
     */
    public static void main(String[] args) {
        boolean quick = List.of(args).contains("--quick");
        Options d = Options.defaults(quick);
        List<Integer> nodes = d.nodes();
        List<String> modes = d.modes();
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--nodes")) {
                nodes = Arrays.stream(args[i + 1].split(",")).map(Integer::valueOf).toList();
            } else if (args[i].equals("--sequencer")) {
                modes = List.of(args[i + 1].split(","));
            }
        }
        Parts parts = List.of(args).contains("--no-wan") ? Parts.NO_WAN
            : List.of(args).contains("--wan-only") ? Parts.WAN_ONLY : Parts.ALL;
        System.exit(run(new Options(nodes, quick, modes, parts, d.idle()), System.out, System.err));
    }

    private int run() {
        header();
        if (options.parts().local()) {
            Map<Integer, Map<String, CumulusRun>> ours = new LinkedHashMap<>();
            Map<Integer, JGroupsRun> theirs = new LinkedHashMap<>();
            for (int n : options.nodes()) {
                // the modes alternate, round after round: on this kind of box whole minutes run slower, and one run
                // of each could fall on either side of such a change
                Map<String, List<CumulusRun>> rounds = new LinkedHashMap<>();
                for (int r = 0; r < (options.quick() ? 1 : ROUNDS); r++) {
                    for (String mode : options.modes()) {
                        rounds.computeIfAbsent(mode, k -> new ArrayList<>()).add(cumulus(n, mode));
                    }
                }
                Map<String, CumulusRun> byMode = new LinkedHashMap<>();
                rounds.forEach((mode, runs) -> byMode.put(mode, medianRound(runs)));
                JGroupsRun jg = jgroups(n);
                ours.put(n, byMode);
                theirs.put(n, jg);
                section(n, byMode, jg);
                perRound(rounds);
            }
            goals(ours, theirs);
            codeSize();
        }
        if (options.parts().wan()) {
            wan();
        }
        out.flush();
        return 0;
    }

    private void progress(String what) {
        err.println("cumulus bench: " + what);
        err.flush();
    }

    // ------------------------------------------------------------------ Cumulus

    private List<String> nodeJvm(LaunchConfig c, String mode, Settings s) {
        List<String> jvm = new ArrayList<>(c.toJvmArguments());
        jvm.add("-javaagent:" + agentJar);
        jvm.add("-Dcumulus.sequencer=" + mode);
        jvm.add("-Dcumulus.join.timeout.ms=180000"); // JVM start-up with the agent on a loaded 2-core box
        jvm.addAll(s.toJvmArguments());
        return jvm;
    }

    private CumulusRun cumulus(int n, String mode) {
        progress("replicated, sequencer " + mode + ", " + n + " processes");
        try (ProcessSet set = new ProcessSet("replicated " + mode + " (" + n + " processes)", hosts)) {
            String aeronDir = hosts == null ? set.startDriver("repl") : null;
            Path runDir = set.tempDirectory("repl-run");
            String runId = hosts != null ? hosts.runId() : "bench-repl-" + Long.toHexString(System.nanoTime());
            List<String> endpoints = new ArrayList<>();
            for (int i = 0; hosts != null && i < n; i++) {
                endpoints.add(hosts.address(i) + ":" + (BenchHosts.OURS_PORT + i));
            }
            int streamBase = hosts != null ? hosts.nextStreamBase() : 1000;
            List<ProcessSet.Child> nodes = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                LaunchConfig c = new LaunchConfig(runId, i, n, hosts == null ? runDir : set.hostRunDir(i, runDir),
                    hosts == null ? aeronDir : set.hostDriver(i),
                    hosts == null ? LaunchConfig.TransportMode.IPC : LaunchConfig.TransportMode.HOSTS,
                    endpoints, streamBase, NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
                    NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, options.idle(), false);
                nodes.add(set.start("p" + i, i, nodeJvm(c, mode, settings), ReplicaNode.class, List.of()));
            }
            List<Map<String, Map<String, String>>> results = collect(nodes);
            for (ProcessSet.Child c : nodes) {
                c.awaitSuccess(STEP_TIMEOUT);
            }
            return cumulusRun(results, settings.invokerOf(n));
        }
    }

    private static CumulusRun cumulusRun(List<Map<String, Map<String, String>>> results, int inv) {
        Map<String, Map<String, String>> invoker = results.get(inv);
        Fig local = fig(invoker, "write.local.ns", 1e3);
        double c50 = local.p50();
        double c99 = local.p99();
        Map<String, Fig> per = new LinkedHashMap<>();
        Fig rpc = null;
        for (int i = 0; i < results.size(); i++) {
            if (i == inv) {
                continue;
            }
            Fig u = fig(results.get(i), "update.ns", 1e3);
            per.put("p" + i, u);
            c50 = Math.max(c50, u.p50());
            c99 = Math.max(c99, u.p99());
            if (rpc == null) {
                rpc = fig(results.get(i), "rpc.ns", 1e3);
            }
        }
        if (rpc == null) {
            rpc = fig(invoker, "rpc.ns", 1e3);
        }
        return new CumulusRun(fig(invoker, "read.replica.ps", 1e6), fig(invoker, "read.plain.ps", 1e6),
            fig(invoker, "read.plainclass.ps", 1e6), fig(invoker, "write.plain.ps", 1e6),
            fig(invoker, "write.plainclass.ps", 1e6), local, new Fig(c50, c99), fig(invoker, "gap.ns", 1e3), rpc,
            per);
    }

    /** Every child's RESULT lines until its DONE: child -> name -> key -> value. */
    private static List<Map<String, Map<String, String>>> collect(List<ProcessSet.Child> children) {
        List<Map<String, Map<String, String>>> all = new ArrayList<>();
        for (ProcessSet.Child c : children) {
            all.add(ProcessSet.results(c, children, STEP_TIMEOUT));
        }
        return all;
    }

    private static Fig fig(Map<String, Map<String, String>> results, String name, double perUs) {
        Map<String, String> r = results.get(name);
        if (r == null) {
            return Fig.NONE;
        }
        return new Fig(Long.parseLong(r.get("p50")) / perUs, Long.parseLong(r.get("p99")) / perUs);
    }

    // ------------------------------------------------------------------ JGroups

    private JGroupsRun jgroups(int n) {
        progress(JGROUPS + ", " + n + " processes");
        try (ProcessSet set = new ProcessSet(JGROUPS + " (" + n + " processes)", hosts)) {
            List<Integer> ports = new ArrayList<>();
            StringBuilder initialHosts = new StringBuilder();
            if (hosts == null) {
                ports.addAll(ProcessSet.freeLoopbackPorts(n));
            }
            for (int i = 0; i < n; i++) {
                if (hosts != null) {
                    ports.add(BenchHosts.JGROUPS_PORT + i);
                }
                initialHosts.append(initialHosts.isEmpty() ? "" : ",")
                    .append(hosts == null ? "127.0.0.1" : hosts.bindAddress(i)).append('[').append(ports.get(i)).append(']');
            }
            String cluster = "cumulus-bench-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
            List<String> jvm = new ArrayList<>(settings.toJvmArguments());
            jvm.add("-Djava.net.preferIPv4Stack=true");
            List<ProcessSet.Child> members = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                List<String> memberJvm = new ArrayList<>(jvm);
                if (hosts != null) {
                    memberJvm.add("-Dbench.bind=" + hosts.bindAddress(i));
                }
                ProcessSet.Child c = set.start("m" + i, i, memberJvm, JGroupsNode.class,
                    List.of("" + i, "" + n, "" + ports.get(i), initialHosts.toString(), cluster));
                members.add(c);
                if (i == 0) {
                    c.await("READY ", STEP_TIMEOUT); // the coordinator (and sequencer) first
                }
            }
            for (int i = 1; i < n; i++) {
                members.get(i).await("READY ", STEP_TIMEOUT);
            }
            List<Map<String, Map<String, String>>> results = collect(members);
            for (ProcessSet.Child c : members) {
                c.awaitSuccess(STEP_TIMEOUT);
            }
            int inv = settings.invokerOf(n);
            Fig local = fig(results.get(inv), "write.local.ns", 1e3);
            double c50 = local.p50();
            double c99 = local.p99();
            Fig rtt = Fig.NONE;
            for (int i = 0; i < n; i++) {
                if (i != inv) {
                    Fig u = fig(results.get(i), "update.ns", 1e3);
                    c50 = Math.max(c50, u.p50());
                    c99 = Math.max(c99, u.p99());
                    if (!rtt.present()) {
                        rtt = fig(results.get(i), "rpc.ns", 1e3);
                    }
                }
            }
            return new JGroupsRun(local, new Fig(c50, c99), fig(results.get(inv), "gap.ns", 1e3), rtt);
        }
    }

    // ------------------------------------------------------------------ printing Table 1

    private void header() {
        Settings s = settings;
        out.println(ProcessSet.headerLine("replication", options.quick()));
        out.println(HostWakeup.describeThisHost());
        out.printf("  load average at start: %s (other work on this machine shows up in every figure)%n", loadAverage());
        if (!options.parts().local()) {
            return; // Table 4 describes itself
        }
        out.println("  Every process is a JVM of its own started by this command (flags of 'cumulus run', the Cumulus agent,");
        if (hosts == null) {
            out.println("  -XX:+UseSerialGC); Cumulus nodes share one media driver (Aeron IPC), idle strategy '" + options.idle() + "'.");
        } else {
            out.println("  -XX:+UseSerialGC), process i of every run on the host of slot i, over ssh.");
            out.println("  " + hosts.describe());
            out.println("  Cumulus nodes: one media driver per host, Aeron UDP between hosts with the MAC on every frame (as");
            out.println("  cumulus run --hosts), IPC within a host, idle strategy '" + options.idle() + "'. Table 4 is not run over hosts.");
        }
        out.println("  Manta §3.5, Table 1. Register: synchronized set(long) (write) and get() (read).");
        out.printf("  read : per-call time of batches of %,d get() calls on the invoker's replica (%,d batches);%n"
            + "         plain call: the same calls on a non-replicated instance of the same (woven) class, and on a%n"
            + "         copy of the class without Cloud.Root.%n", s.readBatch(), s.readBatches());
        out.println("  write completion at ALL replicas, as Manta §3.5: per replica r, r reads t_s, calls invoker.write(v)");
        out.println("         (an RPC to the invoking process, which calls set(v)), and r stores t_e right after its replica");
        out.println("         applied the write (a runtime hook on the applying thread, where Manta's write method read the");
        out.println("         clock); sample = t_e - t_s - (r's p50 RPC round trip)/2.");
        out.printf("         Completion = max over the replicas and the invoker's own completion (a local set(v) until it%n"
            + "         returns); %,d rounds each. Every series of writes or RPCs is measured once the JIT compilers%n"
            + "         of all nodes have compiled nothing for 0.5 s (waiting at most %.1f s past its warm-up).%n",
            s.rounds(), s.jitWaitNs() / 1e9);
        out.printf("  gap  : %d writes in a row by the invoker, time per write; %d batches.%n", Settings.GAP_WRITES,
            s.gapBatches());
        out.println("  invoker: the last process (node N-1). Sequencer 'static' stays on node 0 (remote for the invoker);");
        out.println("         'migrating' moves to the writer. rpc: Invoker.ping(long) round trip from node 0 (on 1 node: local).");
        out.println("  jgroups: JGroups " + jgroupsVersion() + ", TCP on " + (hosts == null ? "127.0.0.1" : "the hosts' addresses")
            + ", SEQUENCER (the coordinator, member 0, stamps);");
        out.println("         write = totally ordered multicast of the same 8-byte value, complete at a member when its");
        out.println("         receiver gets it, at the invoker when its own copy comes back; measured the same way, with a");
        out.println("         unicast PING/PONG as the round trip. Its gap: 100 such writes in a row.");
        out.println("  All figures µs. ratio = ours / theirs (< 1: ours is faster).");
    }

    private static String loadAverage() {
        try {
            String[] l = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return l[0] + " " + l[1] + " " + l[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String jgroupsVersion() {
        try {
            return Version.printVersion();
        } catch (Throwable t) {
            return "?";
        }
    }

    private void section(int n, Map<String, CumulusRun> byMode, JGroupsRun jg) {
        CumulusRun any = byMode.values().iterator().next();
        out.println();
        out.printf("Table 1, %d process%s (load average %s)%n", n, n == 1 ? "" : "es", loadAverage());
        out.printf("  %-30s %10s %10s %11s %11s %10s %10s%n", "system", "read p50", "read p99", "write p50",
            "write p99", "gap p50", "gap p99");
        row(PLAIN, any.plainRead(), any.plainWrite(), Fig.NONE);
        row(PLAIN_CLASS, any.plainClassRead(), any.plainClassWrite(), Fig.NONE);
        for (Map.Entry<String, CumulusRun> e : byMode.entrySet()) {
            row("cumulus rpc (" + e.getKey() + " run)", Fig.NONE, e.getValue().rpc(), Fig.NONE);
        }
        for (Map.Entry<String, CumulusRun> e : byMode.entrySet()) {
            row("replicated, " + e.getKey(), e.getValue().read(), e.getValue().completion(), e.getValue().gap());
        }
        row(JGROUPS, Fig.NONE, jg.completion(), jg.gap());
        row(JGROUPS_RTT, Fig.NONE, jg.rtt(), Fig.NONE);
        for (Map.Entry<String, CumulusRun> e : byMode.entrySet()) {
            CumulusRun r = e.getValue();
            StringBuilder per = new StringBuilder("invoker " + us(r.localWrite().p50()));
            r.perReplica().forEach((k, f) -> per.append(", ").append(k).append(' ').append(us(f.p50())));
            out.printf("  %s: completion p50 per replica: %s%n", e.getKey(), per);
        }
        out.printf("  jgroups: invoker's own completion p50 %s%n", us(jg.localWrite().p50()));
        for (Map.Entry<String, CumulusRun> e : byMode.entrySet()) {
            CumulusRun r = e.getValue();
            out.printf(Locale.ROOT, "  ratios, %-9s p50 (p99): read/plain %s (%s); write completion/rpc %s (%s); "
                    + "completion/jgroups %s (%s); gap/jgroups gap %s (%s)%n", e.getKey(),
                ratio(r.read(), r.plainRead(), Fig::p50), ratio(r.read(), r.plainRead(), Fig::p99),
                ratio(r.completion(), r.rpc(), Fig::p50), ratio(r.completion(), r.rpc(), Fig::p99),
                ratio(r.completion(), jg.completion(), Fig::p50), ratio(r.completion(), jg.completion(), Fig::p99),
                ratio(r.gap(), jg.gap(), Fig::p50), ratio(r.gap(), jg.gap(), Fig::p99));
        }
    }

    /** Rounds of each sequencer mode per process count, alternating (1 with --quick). */
    static final int ROUNDS = 3;

    /** The round whose write completion is the median multiple of its own RPC round trip (p50). */
    static CumulusRun medianRound(List<CumulusRun> runs) {
        List<CumulusRun> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(ReplicationBench::completionPerRpc));
        return sorted.get(sorted.size() / 2);
    }

    private static double completionPerRpc(CumulusRun r) {
        double ratio = r.completion().p50() / r.rpc().p50();
        return Double.isNaN(ratio) ? Double.MAX_VALUE : ratio;
    }

    private void perRound(Map<String, List<CumulusRun>> rounds) {
        if (rounds.values().stream().allMatch(runs -> runs.size() < 2)) {
            return;
        }
        StringBuilder line = new StringBuilder();
        rounds.forEach((mode, runs) -> {
            line.append(line.isEmpty() ? "" : " |").append(' ').append(mode);
            for (CumulusRun r : runs) {
                line.append(' ').append(us(r.completion().p50())).append('/').append(us(r.rpc().p50()));
            }
        });
        out.printf("  write completion / rpc p50 per round (alternating; the table shows each mode's median round):%s%n",
            line);
    }

    private void row(String label, Fig read, Fig write, Fig gap) {
        out.printf(Locale.ROOT, "  %-30s %10s %10s %11s %11s %10s %10s%n", label, us(read.p50()), us(read.p99()),
            us(write.p50()), us(write.p99()), us(gap.p50()), us(gap.p99()));
    }

    static String us(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.1f" : v >= 1 ? "%.2f" : "%.4f", v);
    }

    private static String ratio(Fig a, Fig b, Function<Fig, Double> f) {
        return RpcBench.ratio(f.apply(a) / f.apply(b));
    }

    private void goals(Map<Integer, Map<String, CumulusRun>> ours, Map<Integer, JGroupsRun> theirs) {
        int n = ours.containsKey(4) ? 4 : ours.keySet().stream().max(Integer::compare).orElseThrow();
        String on = n + " process" + (n == 1 ? "" : "es") + (n == 4 ? "" : " (4 not measured)");
        out.println();
        out.println("Goals (p50, on " + on + ")");
        for (Map.Entry<String, CumulusRun> e : ours.get(n).entrySet()) {
            CumulusRun r = e.getValue();
            goal(e.getKey(), "read <= 2 x plain synchronized call", r.read().p50(), 2, r.plainRead().p50(), PLAIN);
            goal(e.getKey(), "write completion <= 2 x our RPC round trip", r.completion().p50(), 2, r.rpc().p50(),
                "cumulus rpc");
            goal(e.getKey(), "write completion <= 0.5 x JGroups SEQUENCER", r.completion().p50(), 0.5,
                theirs.get(n).completion().p50(), JGROUPS);
        }
    }

    private void goal(String mode, String what, double ours, double factor, double theirs, String theirLabel) {
        double limit = factor * theirs;
        out.printf(Locale.ROOT, "  goal [%s]: %s: %s µs vs limit %s µs (ours = %s x %s): %s%n", mode, what, us(ours),
            us(limit), RpcBench.ratio(ours / theirs), theirLabel, ours <= limit ? "MET" : "NOT MET");
    }

    // ------------------------------------------------------------------ Table 2

    private void codeSize() {
        out.println();
        Path root = examplesSource();
        Class<?> c = codeSizeClass(root);
        if (c == null || root == null) {
            out.println("Table 2 (code size of the examples): skipped, dev.cumulus.examples.CodeSize is not there"
                + (root == null ? " (no examples/src/main/java found from " + Path.of("").toAbsolutePath() + ")" : ""));
            return;
        }
        out.println("Table 2 (code size of the examples), from dev.cumulus.examples.CodeSize " + root + ":");
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            Method main = c.getMethod("main", String[].class);
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[] {root.toString()});
        } catch (ReflectiveOperationException | RuntimeException e) {
            Throwable t = e.getCause() != null ? e.getCause() : e;
            System.setOut(saved);
            out.println("  CodeSize failed: " + t);
            return;
        } finally {
            System.setOut(saved);
        }
        buf.toString(StandardCharsets.UTF_8).lines().forEach(l -> out.println("  " + l));
    }

    private static Path examplesSource() {
        Path d = Path.of("").toAbsolutePath();
        for (int i = 0; i < 4 && d != null; i++, d = d.getParent()) {
            Path src = d.resolve("examples/src/main/java");
            if (Files.isDirectory(src)) {
                return src;
            }
        }
        return null;
    }

    private static Class<?> codeSizeClass(Path src) {
        try {
            return Class.forName("dev.cumulus.examples.CodeSize");
        } catch (ClassNotFoundException e) {
            // not on the classpath: the examples' build output next to the sources
        }
        if (src == null) {
            return null;
        }
        Path classes = src.getParent().getParent().getParent().resolve("target/classes");
        if (!Files.isRegularFile(classes.resolve("dev/cumulus/examples/CodeSize.class"))) {
            return null;
        }
        try {
            URLClassLoader l = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                ReplicationBench.class.getClassLoader());
            return Class.forName("dev.cumulus.examples.CodeSize", true, l);
        } catch (IOException | ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    // ------------------------------------------------------------------ Table 4

    private record WanConfig(String label, String mode, int invoker) {
    }

    private void wan() {
        out.println();
        String why = Netns.cannotRun();
        Netns.Delay delay = why == null ? Netns.mechanism() : null;
        out.printf("Table 4: %d emulated clusters x 1 process, network namespaces routed through a hub namespace, "
            + "one-way delay %d ms between clusters (round trip %d ms) by %s; UDP, one embedded media driver per "
            + "node, addresses 10.77.0.1-10.77.%d.1 inside the namespaces only.%n", WAN_CLUSTERS, WAN_DELAY_MS,
            2 * WAN_DELAY_MS, delay == null ? "(none available)" : delay.description, WAN_CLUSTERS - 1);
        if (why != null) {
            out.println("  cannot run: " + why);
            return;
        }
        if (delay == Netns.Delay.TUN_ROUTER) {
            out.println("  netem: " + Netns.noNetem());
        }
        Settings s = Settings.wan(options.quick());
        List<WanConfig> configs = List.of(
            new WanConfig("local", "static", 0),
            new WanConfig("remote", "static", WAN_CLUSTERS - 1),
            new WanConfig("migrating", "migrating", WAN_CLUSTERS - 1));
        out.printf("  sequencer local: static on node 0, writes invoked on node 0; remote: static on node 0, writes%n"
            + "  invoked on node %d; migrating: writes invoked on node %d. Measured as Table 1, %d rounds per replica,%n"
            + "  %d batches of %d writes.%n", WAN_CLUSTERS - 1, WAN_CLUSTERS - 1, s.rounds(), s.gapBatches(),
            Settings.GAP_WRITES);
        List<String[]> rows = new ArrayList<>();
        Map<String, String> link;
        String stats;
        try (Netns ns = Netns.create(WAN_CLUSTERS, WAN_DELAY_MS)) {
            progress("wide area: UDP round trips cluster 0 -> " + (WAN_CLUSTERS - 1));
            link = routed(ns, "the link check", () -> ns.udpRoundTrip(0, WAN_CLUSTERS - 1, WAN_PINGS));
            if (link.get("count").equals("0") || Long.parseLong(link.get("p50")) < 2_000L * WAN_DELAY_MS) {
                throw new WanAborted("the link check lost every packet or its p50 is below twice the "
                    + WAN_DELAY_MS + " ms delay, so the wide area is not emulated: " + link);
            }
            for (WanConfig c : configs) {
                CumulusRun r = routed(ns, "the " + c.label() + " run",
                    () -> wanRun(ns, c, s.withInvoker(c.invoker())));
                rows.add(new String[] {c.label(), us(r.completion().p50()), us(r.completion().p99()),
                    us(r.read().p50()), us(r.gap().p50()), us(r.gap().p99()), us(r.rpc().p50()),
                    us(r.localWrite().p50())});
            }
            ns.close(); // stops the router first, for its counts
            stats = ns.routerStats();
        } catch (IllegalStateException e) {
            out.println("  cannot run: " + e.getMessage());
            return;
        } catch (WanAborted e) {
            out.println("  aborted: " + e.getMessage());
            return;
        }
        out.printf(Locale.ROOT, "  link check: UDP round trip cluster 0 -> %d, %s of %d: min %s, p50 %s, max %s µs%s%n",
            WAN_CLUSTERS - 1, link.get("count"), WAN_PINGS, link.get("min"), link.get("p50"), link.get("max"),
            link.get("lost").equals("0") ? "" : " (" + link.get("lost") + " lost)");
        out.printf("  %-10s %12s %12s %10s %12s %12s %12s %14s%n", "sequencer", "write p50", "write p99", "read p50",
            "gap p50", "gap p99", "rpc rtt p50", "invoker's own");
        for (String[] r : rows) {
            out.printf("  %-10s %12s %12s %10s %12s %12s %12s %14s%n", (Object[]) r);
        }
        if (stats != null) {
            out.println("  delay router: " + stats);
        }
    }

    /** Table 4 stopped part-way: its message says why. */
    private static final class WanAborted extends RuntimeException {
        WanAborted(String message, Throwable cause) {
            super(message, cause);
        }

        WanAborted(String message) {
            super(message);
        }
    }

    /**
     * Runs {@code step} of Table 4 (on the orchestrator's thread) and then checks the delay router still runs; when
     * it died, during the step or making it fail, throws {@link WanAborted} with the router's exit and last output.
     */
    private static <T> T routed(Netns ns, String step, Supplier<T> body) {
        T result;
        try {
            result = body.get();
        } catch (CumulusException e) {
            String died = ns.routerDied();
            throw died == null ? e : new WanAborted("during " + step + " (which failed), " + died, e);
        }
        String died = ns.routerDied();
        if (died != null) {
            throw new WanAborted("during " + step + ", " + died);
        }
        return result;
    }

    private CumulusRun wanRun(Netns ns, WanConfig c, Settings s) {
        progress("wide area, sequencer " + c.label() + ", " + WAN_CLUSTERS + " processes in namespaces");
        try (ProcessSet set = new ProcessSet("wide area " + c.label())) {
            ns.beforeCleanup(set::close);
            Path runDir = set.tempDirectory("repl-wan-run");
            String runId = Netns.runId();
            List<String> endpoints = new ArrayList<>();
            for (int k = 0; k < WAN_CLUSTERS; k++) {
                endpoints.add(ns.address(k) + ":" + (20100 + k));
            }
            List<ProcessSet.Child> nodes = new ArrayList<>();
            for (int k = 0; k < WAN_CLUSTERS; k++) {
                LaunchConfig lc = new LaunchConfig(runId, k, WAN_CLUSTERS, runDir, null, LaunchConfig.TransportMode.UDP,
                    endpoints, 1000, NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
                    NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, options.idle(), false);
                set.deleteOnClose(Path.of(DriverHost.defaultDirectory(runId + "-node" + k))); // its embedded driver
                nodes.add(set.start("c" + k, ns.exec(k), nodeJvm(lc, c.mode(), s), ReplicaNode.class, List.of()));
            }
            List<Map<String, Map<String, String>>> results = collect(nodes);
            for (ProcessSet.Child ch : nodes) {
                ch.awaitSuccess(STEP_TIMEOUT);
            }
            return cumulusRun(results, s.invokerOf(WAN_CLUSTERS));
        }
    }
}
