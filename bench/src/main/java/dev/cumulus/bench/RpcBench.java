package dev.cumulus.bench;

import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.CumulusException;
import dev.cumulus.bench.peers.AeronPingPong;
import dev.cumulus.bench.peers.RmiPingPong;
import dev.cumulus.bench.peers.UdpPingPong;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.transport.IdleStrategies;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The {@code rpc} suite of {@code cumulus bench}: Cumulus remote calls between node processes, side by side with a
 * raw Aeron ping-pong, a blocking UDP ping-pong and {@code java.rmi}, as ratios. What is measured is printed in the
 * output's header; see bench/README.md.
 */
public final class RpcBench {
    /** Row labels (the smoke test looks for them). */
    public static final String OURS = "cumulus rpc";
    /** A call through a proxy to an object of the caller's own node. */
    public static final String SAME_NODE = "cumulus, same node";
    public static final String AERON = "raw aeron ipc";
    /** The raw Aeron row over hosts: UDP between the hosts' drivers. */
    public static final String AERON_UDP = "raw aeron udp";
    public static final String UDP = "udp blocking";
    public static final String RMI = "java.rmi";
    public static final List<String> SWEEP = List.of("backoff", "yield", "spin", "sleep:100000");

    /**
     * @param nodes     process counts to measure (each at least 2)
     * @param quick     short runs (smoke test)
     * @param idleSweep also measure Cumulus and raw Aeron with each idle strategy of {@link #SWEEP} on 2 processes
     * @param idle      idle strategy of the main comparison (Cumulus nodes and the raw Aeron peer)
     * @param udp       measure Cumulus over UDP on loopback instead: sealed frames (MAC), encrypted frames, and the
     *                  same run with unsealed frames — a mode only this benchmark reaches, to show what the seal costs
     */
    public record Options(List<Integer> nodes, boolean quick, boolean idleSweep, String idle, boolean udp) {
        public Options {
            nodes = List.copyOf(nodes);
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("--nodes: give at least one process count, e.g. 2,4");
            }
            for (int n : nodes) {
                if (n < 2 || n > 16) {
                    throw new IllegalArgumentException("--nodes " + n + ": each count must be 2..16 (a round trip "
                        + "needs two processes; more than a few only measures the scheduler on a small box)");
                }
            }
            IdleStrategies.parse(idle);
        }
    }

    /** One system's figures in one section. {@code NaN} when not measured. */
    record Row(String label, double p50Us, double p99Us, long syncCalls, double asyncPerSec,
               Map<String, Double> cpu) {
    }

    private enum Peer {
        AERON_IPC(AERON, AeronPingPong.class), UDP_BLOCKING(UDP, UdpPingPong.class), JAVA_RMI(RMI, RmiPingPong.class);

        final String label;
        final Class<?> main;

        Peer(String label, Class<?> main) {
            this.label = label;
            this.main = main;
        }
    }

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);
    /** Significant digits a printed ratio keeps ({@link #ratio}). */
    static final int RATIO_DIGITS = 3;

    private final Options options;
    /** Over hosts ({@code --hosts}): where process i runs; null: every process on this host. */
    private final BenchHosts hosts;
    private final Workload workload;
    private final PrintStream out;
    private final PrintStream err;

    private RpcBench(Options options, BenchHosts hosts, PrintStream out, PrintStream err) {
        this.options = options;
        this.hosts = hosts;
        this.workload = options.quick() ? Workload.quick() : Workload.standard();
        this.out = out;
        this.err = err;
    }

    /**
     * Runs the suite and prints the tables to {@code out} (progress to {@code err}). Returns 0.
     *
     * @throws CumulusException when a process fails or times out (its last output is in the message); every
     *                          process and directory is gone by then
     */
    public static int run(Options options, PrintStream out, PrintStream err) {
        return run(options, null, out, err);
    }

    /**
     * As {@link #run(Options, PrintStream, PrintStream)}, with process {@code i} of every measurement on the host of
     * slot {@code i} of {@code hosts} (null: all on this host): ours over UDP between the hosts (with the MAC, as
     * {@code cumulus run --hosts}), raw Aeron over UDP, the peers on the hosts' addresses. Not with {@code udp} or
     * {@code idleSweep}.
     */
    public static int run(Options options, BenchHosts hosts, PrintStream out, PrintStream err) {
        if (hosts != null && (options.udp() || options.idleSweep())) {
            throw new IllegalArgumentException("--transport udp and --idle-sweep measure on one host; drop --hosts");
        }
        return new RpcBench(options, hosts, out, err).run();
    }

    private String aeronLabel() {
        return hosts == null ? AERON : AERON_UDP;
    }

    private int run() {
        header();
        if (options.udp()) {
            for (int n : options.nodes()) {
                udpSection(n);
            }
            out.flush();
            return 0;
        }
        for (int n : options.nodes()) {
            // ours and raw Aeron alternate: on this kind of box whole minutes run slower (the host moves the VM's
            // cores), and one run of each could fall on either side of such a change
            int rounds = options.quick() ? 1 : SYNC_ROUNDS;
            List<Row> oursRounds = new ArrayList<>();
            List<Row> aeronRounds = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                oursRounds.add(ours(n, options.idle(), workload));
                aeronRounds.add(peer(Peer.AERON_IPC, n, options.idle(), workload));
            }
            List<Row> rows = new ArrayList<>();
            rows.add(median(oursRounds));
            rows.add(median(aeronRounds));
            for (Peer p : Peer.values()) {
                if (p != Peer.AERON_IPC) {
                    rows.add(peer(p, n, options.idle(), workload));
                }
            }
            if (n == 2) { // the object on the caller's own node: no transport, the same copies of arguments and result
                rows.add(ours(1, options.idle(), workload.withAsync(false), List.of(), SAME_NODE));
            }
            section(n, rows);
            if (rounds > 1) {
                out.printf(Locale.ROOT, "  sync p50 per round (alternating; the table shows the medians): %s %s | %s %s%n",
                    OURS, p50s(oursRounds), aeronLabel(), p50s(aeronRounds));
                out.printf(Locale.ROOT, "  async call/s per round (the same rounds): %s %s | %s %s%n",
                    OURS, asyncs(oursRounds), aeronLabel(), asyncs(aeronRounds));
            }
        }
        if (options.idleSweep()) {
            List<Row[]> sweep = new ArrayList<>();
            Workload w = workload.withAsync(false);
            for (String idle : SWEEP) {
                sweep.add(new Row[] {ours(2, idle, w), peer(Peer.AERON_IPC, 2, idle, w)});
            }
            sweepTable(sweep);
            List<Row> breakdown = new ArrayList<>();
            breakdown.add(peer(Peer.AERON_IPC, 2, options.idle(), w, List.of(), "raw aeron"));
            breakdown.add(peer(Peer.AERON_IPC, 2, options.idle(), w,
                List.of("-Dbench.aeron.server.handoff=true"), "+ server hand-off"));
            breakdown.add(peer(Peer.AERON_IPC, 2, options.idle(), w,
                List.of("-Dbench.aeron.client.handoff=true"), "+ client hand-off"));
            breakdown.add(peer(Peer.AERON_IPC, 2, options.idle(), w,
                List.of("-Dbench.aeron.server.handoff=true", "-Dbench.aeron.client.handoff=true"), "+ both"));
            breakdown.add(ours(2, options.idle(), w));
            List<String> slack = List.of("-Dbench.timer.slack.ns=1");
            breakdown.add(peer(Peer.AERON_IPC, 2, options.idle(), w, slack, "raw aeron, slack 1ns"));
            breakdown.add(ours(2, options.idle(), w, slack, "cumulus, slack 1ns"));
            breakdownTable(breakdown);
        }
        out.flush();
        return 0;
    }

    // ------------------------------------------------------------------ measurements

    /** Rounds of the synchronous comparison with raw Aeron, alternating (1 with --quick). */
    static final int SYNC_ROUNDS = 3;

    /** The round with the median p50, with the median p99 and the median asynchronous figure of all rounds. */
    static Row median(List<Row> rounds) {
        List<Row> byP50 = new ArrayList<>(rounds);
        byP50.sort(Comparator.comparingDouble(Row::p50Us));
        double[] p99s = rounds.stream().mapToDouble(Row::p99Us).sorted().toArray();
        double[] asyncs = rounds.stream().mapToDouble(Row::asyncPerSec).sorted().toArray();
        Row mid = byP50.get(byP50.size() / 2);
        return new Row(mid.label(), mid.p50Us(), p99s[p99s.length / 2], mid.syncCalls(), asyncs[asyncs.length / 2],
            mid.cpu());
    }

    private static String asyncs(List<Row> rounds) {
        return rounds.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r.asyncPerSec()))
            .collect(Collectors.joining(" "));
    }

    private static String p50s(List<Row> rounds) {
        return rounds.stream().map(r -> String.format(Locale.ROOT, "%.2f", r.p50Us())).collect(Collectors.joining(" "));
    }

    private void progress(String what) {
        err.println("cumulus bench: " + what);
        err.flush();
    }

    private Row ours(int n, String idle, Workload w) {
        return ours(n, idle, w, List.of(), OURS);
    }

    private Row ours(int n, String idle, Workload w, List<String> extraJvm, String label) {
        return ours(n, idle, w, extraJvm, label, UdpSeal.IPC);
    }

    /** How the Cumulus rows of the UDP section send: IPC is the main comparison's transport. */
    private enum UdpSeal {
        IPC(null), MAC("cumulus udp"), NONE("udp no MAC*"), ENCRYPT("udp --encrypt");

        final String label;

        UdpSeal(String label) {
            this.label = label;
        }
    }

    private Row ours(int n, String idle, Workload w, List<String> extraJvm, String label, UdpSeal seal) {
        progress(label + ", " + n + " processes, idle " + idle);
        try (ProcessSet set = new ProcessSet(OURS + " (" + n + " processes)", hosts)) {
            String aeronDir = hosts != null ? null : seal == UdpSeal.IPC ? set.startDriver("rpc")
                : set.startUdpDriver("rpc");
            Path runDir = set.tempDirectory("rpc-run");
            String runId = hosts != null ? hosts.runId() : "bench-" + Long.toHexString(System.nanoTime());
            List<String> endpoints = new ArrayList<>();
            if (hosts != null) {
                for (int i = 0; i < n; i++) {
                    endpoints.add(hosts.address(i) + ":" + (BenchHosts.OURS_PORT + i));
                }
            } else if (seal != UdpSeal.IPC) {
                for (int port : ProcessSet.freeUdpPorts(n)) {
                    endpoints.add("127.0.0.1:" + port);
                }
            }
            int streamBase = hosts != null ? hosts.nextStreamBase() : 1000;
            LaunchConfig.TransportMode mode = hosts != null ? LaunchConfig.TransportMode.HOSTS
                : seal == UdpSeal.IPC ? LaunchConfig.TransportMode.IPC : LaunchConfig.TransportMode.UDP;
            List<ProcessSet.Child> nodes = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                LaunchConfig c = new LaunchConfig(runId, i, n, hosts == null ? runDir : set.hostRunDir(i, runDir),
                    hosts == null ? aeronDir : set.hostDriver(i), mode,
                    endpoints, streamBase, NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
                    NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, idle, false, seal == UdpSeal.ENCRYPT);
                List<String> jvm = new ArrayList<>(c.toJvmArguments());
                jvm.addAll(w.toJvmArguments());
                jvm.addAll(extraJvm);
                if (seal == UdpSeal.NONE) {
                    jvm.add("-D" + CumulusRpcNode.UNSEALED_PROPERTY + "=true");
                }
                nodes.add(set.start("p" + i, i, jvm, CumulusRpcNode.class, List.of()));
            }
            Map<String, String> sync = parse(nodes.getFirst().await("RESULT sync", STEP_TIMEOUT));
            double perSec = Double.NaN;
            if (w.async()) {
                perSec = 0;
                for (int i = 1; i < n; i++) {
                    perSec += perSecond(parse(nodes.get(i).await("RESULT async", STEP_TIMEOUT)));
                }
            }
            for (ProcessSet.Child c : nodes) {
                c.awaitSuccess(STEP_TIMEOUT);
            }
            return new Row(label, us(sync, "p50Ns"), us(sync, "p99Ns"), Long.parseLong(sync.get("count")), perSec,
                set.cpu("sync"));
        }
    }

    private Row peer(Peer peer, int n, String idle, Workload w) {
        return peer(peer, n, idle, w, List.of(), peer == Peer.AERON_IPC ? aeronLabel() : peer.label);
    }

    private Row peer(Peer peer, int n, String idle, Workload w, List<String> extraJvm, String label) {
        progress(label + ", " + n + " processes" + (peer == Peer.AERON_IPC ? ", idle " + idle : ""));
        Map<String, String> sync;
        Map<String, Double> cpu;
        try (ProcessSet set = new ProcessSet(label + " sync (" + n + " processes)", hosts)) {
            PeerJvm jvm = new PeerJvm(set, peer, idle, w, n, extraJvm);
            List<Integer> serverIds = new ArrayList<>();
            List<String> addresses = new ArrayList<>();
            for (int i = 1; i < n; i++) {
                ProcessSet.Child s = set.start("p" + i, i, jvm.of(i), peer.main, List.of("server", "" + i, "0"));
                serverIds.add(i);
                addresses.add(s.await("READY ", STEP_TIMEOUT));
            }
            String targets = peer == Peer.AERON_IPC ? join(serverIds) : String.join(",", addresses);
            ProcessSet.Child client = set.start("p0", 0, jvm.of(0), peer.main, List.of("sync", "0", targets));
            client.await("READY ", STEP_TIMEOUT);
            client.go();
            sync = parse(client.await("RESULT sync", STEP_TIMEOUT));
            client.awaitSuccess(STEP_TIMEOUT);
            cpu = set.cpu("sync");
        }
        double perSec = Double.NaN;
        if (w.async()) {
            try (ProcessSet set = new ProcessSet(label + " async (" + n + " processes)", hosts)) {
                PeerJvm jvm = new PeerJvm(set, peer, idle, w, n, List.of());
                List<Integer> clientIds = new ArrayList<>();
                for (int i = 1; i < n; i++) {
                    clientIds.add(i);
                }
                ProcessSet.Child server = set.start("p0", 0, jvm.of(0), peer.main,
                    List.of("server", "0", join(clientIds)));
                String address = server.await("READY ", STEP_TIMEOUT);
                String target = peer == Peer.AERON_IPC ? "0" : address;
                List<ProcessSet.Child> clients = new ArrayList<>();
                for (int i : clientIds) {
                    clients.add(set.start("p" + i, i, jvm.of(i), peer.main, List.of("async", "" + i, target)));
                }
                for (ProcessSet.Child c : clients) {
                    c.await("READY ", STEP_TIMEOUT);
                }
                clients.forEach(ProcessSet.Child::go);
                perSec = 0;
                for (ProcessSet.Child c : clients) {
                    perSec += perSecond(parse(c.await("RESULT async", STEP_TIMEOUT)));
                }
            }
        }
        return new Row(label, us(sync, "p50Ns"), us(sync, "p99Ns"), Long.parseLong(sync.get("count")), perSec,
            cpu);
    }

    /**
     * A peer's JVM arguments for process {@code i}: the workload; for raw Aeron its driver (the set's shared one, or
     * over hosts its host's), idle strategy and, over hosts, every process's UDP endpoint; over hosts the address its
     * sockets bind to.
     */
    private final class PeerJvm {
        private final ProcessSet set;
        private final Peer peer;
        private final List<String> common;
        private final String sharedDriver;
        private final String endpoints;

        PeerJvm(ProcessSet set, Peer peer, String idle, Workload w, int n, List<String> extra) {
            this.set = set;
            this.peer = peer;
            List<String> jvm = new ArrayList<>(w.toJvmArguments());
            if (peer == Peer.AERON_IPC) {
                jvm.add("-Dbench.idle=" + idle);
            }
            jvm.addAll(extra);
            this.common = jvm;
            this.sharedDriver = peer == Peer.AERON_IPC && hosts == null ? set.startDriver("aeron") : null;
            List<String> eps = new ArrayList<>();
            for (int i = 0; hosts != null && i < n; i++) {
                eps.add(hosts.address(i) + ":" + (BenchHosts.AERON_PORT + i));
            }
            this.endpoints = String.join(",", eps);
            if (hosts != null && peer == Peer.AERON_IPC) {
                common.add("-Dbench.aeron.stream.base=" + hosts.nextStreamBase());
            }
        }

        List<String> of(int i) {
            List<String> jvm = new ArrayList<>(common);
            if (peer == Peer.AERON_IPC) {
                jvm.add("-Dbench.aeron.dir=" + (hosts == null ? sharedDriver : set.hostDriver(i)));
            }
            if (hosts != null) {
                jvm.add("-Dbench.bind=" + hosts.bindAddress(i));
                jvm.add("-Djava.rmi.server.hostname=" + hosts.bindAddress(i));
                if (peer == Peer.AERON_IPC) {
                    jvm.add("-Dbench.aeron.endpoints=" + endpoints);
                }
            }
            return jvm;
        }
    }

    private static String join(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    public static Map<String, String> parse(String kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String part : kv.trim().split("\\s+")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                m.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        return m;
    }

    private static double us(Map<String, String> m, String key) {
        return Long.parseLong(m.get(key)) / 1000.0;
    }

    private static double perSecond(Map<String, String> m) {
        return Long.parseLong(m.get("calls")) * 1e9 / Long.parseLong(m.get("elapsedNs"));
    }

    // ------------------------------------------------------------------ printing

    private void header() {
        Workload w = workload;
        out.println(ProcessSet.headerLine("rpc", options.quick()));
        out.println(HostWakeup.describeThisHost());
        out.println("  Every process is a JVM of its own started by this command (flags of 'cumulus run', -XX:+UseSerialGC).");
        if (hosts != null) {
            out.println("  " + hosts.describe());
            out.println("         process i of every measurement (ours and each peer's) runs on the host of slot i, over ssh.");
        }
        out.printf("  payload: %d bytes each way (byte[%d]).%n", w.payloadBytes(), w.payloadBytes());
        out.printf("  sync : process 0 calls processes 1..N-1 round robin, one call at a time (the others only serve);%n"
            + "         warm-up: %,d calls and at least %.1f s, then until the caller's JIT compiled nothing for 0.5 s%n"
            + "         (at most %.1f s more); then %,d measured round trips (at most %.1f s); p50/p99 of the round trip.%n",
            w.warmupCalls(), w.warmupMaxNs() / 2e9, w.warmupMaxNs() / 1e9, w.measuredCalls(), w.measureMaxNs() / 1e9);
        out.printf("  async: processes 1..N-1 all call process 0 concurrently, each keeping %d calls outstanding%n"
            + "         (ours: AsyncTicket, getResult of the oldest then a new call; aeron, udp: %d messages in%n"
            + "         flight; rmi: %d calling threads);%n"
            + "         warm-up: at least %.1f s, then until the JITs compiled nothing for 0.5 s (at most %.1f s more);%n"
            + "         %.1f s measured; completed calls per second, summed over the callers.%n",
            w.window(), w.window(), w.window(), w.asyncWarmupNs() / 1e9,
            w.asyncWarmupMaxNs() / 1e9, w.asyncMeasureNs() / 1e9);
        if (hosts == null) {
            out.printf("  ours : Cumulus remote object (export, lookup, Echo.echo(byte[])), Aeron IPC through one shared%n"
                + "         media driver, idle strategy '%s'. raw aeron: same driver set-up and idle strategy, one%n"
                + "         thread per process, no RPC layer. udp: blocking DatagramChannel on 127.0.0.1. rmi: JDK registry%n"
                + "         on a free loopback port.%n", options.idle());
        } else {
            out.printf("  ours : Cumulus remote object (export, lookup, Echo.echo(byte[])), one media driver per host, Aeron%n"
                + "         UDP between hosts with the MAC on every frame (as cumulus run --hosts), IPC within a host, idle%n"
                + "         strategy '%s'. raw aeron udp: the same drivers and idle strategy, UDP unicast, one thread per%n"
                + "         process, no RPC layer. udp: blocking DatagramChannel and rmi: JDK registry, on the hosts' addresses.%n",
                options.idle());
        }
        if (!options.quick()) {
            out.printf("  rounds: ours and raw aeron run %d times, alternating; each row is the median (sync and async).%n",
                SYNC_ROUNDS);
        }
        out.println("  CPU  : CPU time of each process during the measured sync phase / wall time (100% = one core);");
        if (hosts == null) {
            out.println("         'drv' is this JVM (it hosts the shared media driver; ~0 for udp and rmi).");
        } else {
            out.println("         only processes whose CPU time this machine can read are shown; 'drv' is this JVM (the");
            out.println("         drivers of the other hosts run in their host agents, not shown).");
        }
        out.println("  ratio: theirs / ours. Latency ratio > 1: ours is faster. Throughput ratio < 1: ours is faster.");
    }

    /**
     * Cumulus over UDP on loopback, sync round trips: frames sealed with the MAC (what every run sends over UDP),
     * encrypted, and unsealed (a mode only this benchmark can choose); the rounds alternate and each row is the
     * median. The goals compare the sealed rows with the unsealed one.
     */
    private void udpSection(int n) {
        int rounds = options.quick() ? 1 : SYNC_ROUNDS;
        Workload w = workload.withAsync(false);
        java.util.EnumMap<UdpSeal, List<Row>> byMode = new java.util.EnumMap<>(UdpSeal.class);
        for (int r = 0; r < rounds; r++) {
            for (UdpSeal seal : List.of(UdpSeal.MAC, UdpSeal.NONE, UdpSeal.ENCRYPT)) {
                byMode.computeIfAbsent(seal, k -> new ArrayList<>())
                    .add(ours(n, options.idle(), w, List.of(), seal.label, seal));
            }
        }
        List<Row> rows = new ArrayList<>();
        for (UdpSeal seal : List.of(UdpSeal.MAC, UdpSeal.NONE, UdpSeal.ENCRYPT)) {
            rows.add(median(byMode.get(seal)));
        }
        rows.add(peer(Peer.UDP_BLOCKING, n, options.idle(), w));
        out.println();
        out.printf("%d processes, UDP on 127.0.0.1 (sync round trips; ratio: row / cumulus udp)%n", n);
        out.printf("  %-16s %9s %9s %9s %9s   %s%n", "system", "p50 µs", "p99 µs", "p50 ratio", "p99 ratio",
            "CPU during sync");
        Row sealed = rows.getFirst();
        for (Row r : rows) {
            out.printf(Locale.ROOT, "  %-16s %9.2f %9.1f %9s %9s   %s%n", r.label(), r.p50Us(), r.p99Us(),
                ratio(r.p50Us() / sealed.p50Us()), ratio(r.p99Us() / sealed.p99Us()), cpu(r.cpu()));
        }
        out.println("  * unsealed frames: a mode of this benchmark only (no option of cumulus run turns the MAC off).");
        if (rounds > 1) {
            for (UdpSeal seal : byMode.keySet()) {
                out.printf(Locale.ROOT, "  sync p50 per round (alternating): %s %s%n", seal.label, p50s(byMode.get(seal)));
            }
        }
        Row none = rows.get(1);
        goal("p50 with the MAC <= 1.3 x unsealed", sealed.p50Us(), 1.3, none);
        goal("p50 encrypted    <= 1.6 x unsealed", rows.get(2).p50Us(), 1.6, none);
    }

    private void section(int n, List<Row> rows) {
        Row ours = rows.getFirst();
        out.println();
        out.printf("%d processes%n", n);
        out.printf("  %-16s %9s %9s %9s %9s %13s %7s   %s%n", "system", "p50 µs", "p99 µs", "p50 ratio", "p99 ratio",
            "async call/s", "ratio", "CPU during sync");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "  %-16s %9.2f %9.1f %9s %9s %13s %7s   %s%n", r.label(), r.p50Us(), r.p99Us(),
                ratio(r.p50Us() / ours.p50Us()), ratio(r.p99Us() / ours.p99Us()), count(r.asyncPerSec()),
                Double.isNaN(r.asyncPerSec()) ? "-" : ratio(r.asyncPerSec() / ours.asyncPerSec()), cpu(r.cpu()));
        }
        Row aeron = find(rows, aeronLabel());
        Row rmi = find(rows, RMI);
        goal("our p50 <= 1.5 x " + aeronLabel() + " p50", ours.p50Us(), 1.5, aeron);
        goal("our p50 <= 0.5 x java.rmi p50 ", ours.p50Us(), 0.5, rmi);
    }

    private void goal(String what, double oursUs, double factor, Row theirs) {
        double limit = factor * theirs.p50Us();
        boolean met = oursUs <= limit;
        out.printf(Locale.ROOT, "  goal: %s: %.2f µs vs limit %.2f µs (ours = %s x %s): %s%n", what, oursUs, limit,
            ratio(oursUs / theirs.p50Us()), theirs.label(), met ? "MET" : "NOT MET");
    }

    private void sweepTable(List<Row[]> sweep) {
        out.println();
        out.println("idle strategies, 2 processes, sync round trips only (CPU during the measured phase, 100% = one core)");
        out.printf("  %-14s %9s %9s   %-26s | %9s %9s   %s%n", "idle", "ours p50", "ours p99", "ours CPU", "aeron p50",
            "aeron p99", "aeron CPU");
        for (int i = 0; i < sweep.size(); i++) {
            Row o = sweep.get(i)[0];
            Row a = sweep.get(i)[1];
            out.printf(Locale.ROOT, "  %-14s %9.1f %9.1f   %-26s | %9.1f %9.1f   %s%n", SWEEP.get(i), o.p50Us(),
                o.p99Us(), cpu(o.cpu()), a.p50Us(), a.p99Us(), cpu(a.cpu()));
        }
    }

    private void breakdownTable(List<Row> rows) {
        out.println();
        out.printf("where the time goes: raw aeron ping-pong (2 processes, idle '%s') plus the thread hand-offs of%n"
            + "Cumulus RPC. server hand-off: the polling thread copies the request and a virtual thread sends the reply;%n"
            + "client hand-off: the caller offers and parks on a future that a separate polling thread completes.%n"
            + "slack 1ns: prototype; main sets Linux timer slack 1 ns (prctl) before it starts the agent/poller and carrier threads.%n",
            options.idle());
        out.printf("  %-22s %9s %9s   %s%n", "variant", "p50 µs", "p99 µs", "CPU during sync");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "  %-22s %9.1f %9.1f   %s%n", r.label(), r.p50Us(), r.p99Us(), cpu(r.cpu()));
        }
    }

    private static Row find(List<Row> rows, String label) {
        return rows.stream().filter(r -> r.label().equals(label)).findFirst().orElseThrow();
    }

    /**
     * A ratio to {@link #RATIO_DIGITS} significant digits (no fewer decimals than that asks), so a small one does not
     * print as 0.00: 0.00412, 1.23, 12.3, 1234.
     */
    public static String ratio(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "-";
        }
        if (v == 0) {
            return "0";
        }
        int magnitude = (int) Math.floor(Math.log10(Math.abs(v)));
        int decimals = Math.max(0, RATIO_DIGITS - 1 - magnitude);
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String count(double perSec) {
        return Double.isNaN(perSec) ? "-" : String.format(Locale.ROOT, "%,.0f", perSec);
    }

    private static String cpu(Map<String, Double> cpu) {
        if (cpu.isEmpty()) {
            return "-";
        }
        return cpu.entrySet().stream()
            .sorted(Map.Entry.comparingByKey((a, b) -> a.equals("drv") ? 1 : b.equals("drv") ? -1 : a.compareTo(b)))
            .map(e -> e.getKey() + " " + Math.round(e.getValue() * 100) + "%")
            .collect(Collectors.joining(" "));
    }
}
