package dev.cumulus.bench.pastset;

import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.CumulusException;
import dev.cumulus.bench.HostWakeup;
import dev.cumulus.bench.ProcessSet;
import dev.cumulus.bench.RpcBench;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.transport.IdleStrategies;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The {@code pastset} suite of {@code cumulus bench}: Java PastSet §4 (Figures 3, 4/5 and 7) on Cumulus's tuple
 * space, side by side with our RPC round trip and with Hazelcast {@code IQueue}s (a Hazelcast 5 member per process),
 * as ratios. What is measured is printed in the output's header; see bench/README.md.
 */
public final class PastSetBench {
    /** The suite's name in {@code cumulus bench SUITE}. */
    public static final String SUITE = "pastset";
    /** The Hazelcast release this suite runs against (pinned in bench/pom.xml). */
    public static final String HAZELCAST = "5.5.0";
    /** The process set of Figure 3 and 7: two measured processes and a third that can hold the elements. */
    static final int FIG3_PROCESSES = 3;
    static final int[] BREAKDOWN_SIZES = {1, 1024, 32768};
    static final double RPC_GOAL = 1.2;
    /** Goal: the remote round trip at most this many times the sum of its parts (a remote move, a remote observe). */
    static final double PARTS_GOAL = 1.2;

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);

    /**
     * @param rings ring sizes (each 2..16)
     * @param quick short runs (smoke test)
     * @param idle  idle strategy of the Cumulus nodes
     */
    public record Options(List<Integer> rings, boolean quick, String idle) {
        public Options {
            rings = List.copyOf(rings);
            if (rings.isEmpty()) {
                throw new IllegalArgumentException("--nodes: give at least one ring size, e.g. 2,4");
            }
            for (int n : rings) {
                if (n < 2 || n > 16) {
                    throw new IllegalArgumentException("--nodes " + n + ": each ring size must be 2..16");
                }
            }
            IdleStrategies.parse(idle);
        }
    }

    /** p50/p99 in µs; NaN when not measured. */
    record Fig(double p50, double p99) {
        static final Fig NONE = new Fig(Double.NaN, Double.NaN);
    }

    private final Options options;
    private final Scenarios.Settings settings;
    private final PrintStream out;
    private final PrintStream err;

    private PastSetBench(Options options, PrintStream out, PrintStream err) {
        this.options = options;
        this.settings = options.quick() ? Scenarios.Settings.quick() : Scenarios.Settings.standard();
        this.out = out;
        this.err = err;
    }

    /**
     * Runs the suite; tables to {@code out}, progress to {@code err}. Returns 0.
     *
     * @throws CumulusException when a process fails or times out (its last output is in the message); every
     *                          process and directory is gone by then
     */
    public static int run(Options options, PrintStream out, PrintStream err) {
        return new PastSetBench(options, out, err).run();
    }

    /** {@code cumulus bench pastset [--nodes N,..] [--quick] [--idle SPEC]}; {@code rings} null: 2,4 (quick: 2). */
    public static int runFromCli(List<Integer> rings, boolean quick, String idle, PrintStream out, PrintStream err) {
        Options o;
        try {
            o = new Options(rings == null ? (quick ? List.of(2) : List.of(2, 4)) : rings, quick, idle);
        } catch (IllegalArgumentException | CumulusException e) {
            err.println("cumulus bench: " + e.getMessage());
            return 2;
        }
        return run(o, out, err);
    }

    /** {@code java ... PastSetBench [--quick] [--nodes 2,4,8]}: the suite outside the CLI. */
    public static void main(String[] args) {
        boolean quick = List.of(args).contains("--quick");
        List<Integer> rings = null;
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--nodes")) {
                rings = Arrays.stream(args[i + 1].split(",")).map(Integer::valueOf).toList();
            }
        }
        System.exit(runFromCli(rings, quick, NodeSettings.DEFAULT_IDLE_STRATEGY, System.out, System.err));
    }

    private int run() {
        header();
        int[] small = options.rings().stream().filter(n -> n <= FIG3_PROCESSES).mapToInt(Integer::intValue)
            .toArray();
        Map<String, Map<String, String>> ours = new LinkedHashMap<>(
            cumulus(FIG3_PROCESSES, settings.with(true, small), true));
        Map<String, Map<String, String>> theirs = new LinkedHashMap<>(
            hazelcast(FIG3_PROCESSES, settings.with(true, small)));
        for (int n : options.rings()) {
            if (n > FIG3_PROCESSES) {
                ours.putAll(cumulus(n, settings.with(false, new int[] {n}), false));
                theirs.putAll(hazelcast(n, settings.with(false, new int[] {n})));
            }
        }
        figure3(ours, theirs);
        rings(ours, theirs);
        bandwidth(ours, theirs);
        breakdown(ours);
        goals(ours, theirs);
        out.flush();
        return 0;
    }

    private void progress(String what) {
        err.println("cumulus bench: " + what);
        err.flush();
    }

    // ------------------------------------------------------------------ runs

    private Map<String, Map<String, String>> cumulus(int n, Scenarios.Settings s, boolean fig3) {
        List<String> what = new ArrayList<>(fig3 ? List.of("figures 3, 7, rpc, breakdown") : List.of());
        if (s.rings().length > 0) {
            what.add("ring " + Scenarios.Settings.join(s.rings()));
        }
        progress("cumulus pastset, " + n + " processes (" + String.join(", ", what) + ")");
        long t0 = System.nanoTime();
        try (ProcessSet set = new ProcessSet("cumulus pastset (" + n + " processes)")) {
            String aeronDir = set.startDriver("pastset");
            Path runDir = set.tempDirectory("pastset-run");
            String runId = "bench-ps-" + Long.toHexString(System.nanoTime());
            List<ProcessSet.Child> nodes = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                LaunchConfig c = new LaunchConfig(runId, i, n, runDir, aeronDir, LaunchConfig.TransportMode.IPC,
                    List.of(), 1000, NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
                    NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, options.idle(), false);
                List<String> jvm = new ArrayList<>(c.toJvmArguments());
                jvm.add("-Dcumulus.join.timeout.ms=120000"); // JVM start-up on a loaded 2-core box
                jvm.addAll(s.toJvmArguments());
                if (fig3) {
                    jvm.add("-Dbench.ps.breakdown=" + Scenarios.Settings.join(options.quick()
                        ? new int[] {BREAKDOWN_SIZES[0]} : BREAKDOWN_SIZES));
                }
                nodes.add(set.start("p" + i, jvm, PastSetNode.class, List.of()));
            }
            Map<String, Map<String, String>> r = collect(nodes);
            for (ProcessSet.Child c : nodes) {
                c.awaitSuccess(STEP_TIMEOUT);
            }
            progress("  done in " + seconds(t0));
            return r;
        }
    }

    private Map<String, Map<String, String>> hazelcast(int n, Scenarios.Settings s) {
        progress("hazelcast " + HAZELCAST + ", " + n + " members" + (s.fig3() ? " (figures 3, 7" : " (")
            + (s.fig3() && s.rings().length > 0 ? ", " : "")
            + (s.rings().length > 0 ? "ring " + Scenarios.Settings.join(s.rings()) : "") + ")");
        long t0 = System.nanoTime();
        try (ProcessSet set = new ProcessSet("hazelcast (" + n + " members)")) {
            List<Integer> ports = ProcessSet.freeLoopbackPorts(n);
            String cluster = "cumulus-bench-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
            List<String> jvm = new ArrayList<>(s.toJvmArguments());
            jvm.add("-Dbench.hz.jar=" + hazelcastJar());
            jvm.add("-Djava.net.preferIPv4Stack=true");
            jvm.add("--sun-misc-unsafe-memory-access=allow");
            String portList = String.join(",", ports.stream().map(String::valueOf).toList());
            List<ProcessSet.Child> members = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                members.add(set.start("hz" + i, jvm, HazelcastLauncher.class,
                    List.of("" + i, "" + n, portList, cluster)));
            }
            Map<String, Map<String, String>> r = collect(members);
            for (ProcessSet.Child c : members) {
                c.awaitSuccess(STEP_TIMEOUT);
            }
            progress("  done in " + seconds(t0));
            return r;
        }
    }

    /** Every child's RESULT lines until its DONE: name -> key -> value. */
    private static Map<String, Map<String, String>> collect(List<ProcessSet.Child> children) {
        Map<String, Map<String, String>> m = new LinkedHashMap<>();
        for (ProcessSet.Child c : children) {
            m.putAll(ProcessSet.results(c, children, STEP_TIMEOUT));
        }
        return m;
    }

    private static String seconds(long t0) {
        return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - t0) / 1e9);
    }

    private static String hazelcastJar() {
        try {
            var cs = Class.forName("com.hazelcast.core.Hazelcast").getProtectionDomain().getCodeSource();
            return Path.of(cs.getLocation().toURI()).toAbsolutePath().toString();
        } catch (ReflectiveOperationException | URISyntaxException | RuntimeException e) {
            throw new CumulusException("cannot find the Hazelcast jar (com.hazelcast:hazelcast:" + HAZELCAST
                + ", a dependency of cumulus-bench): " + e, e);
        }
    }

    // ------------------------------------------------------------------ figures

    static Fig fig(Map<String, Map<String, String>> r, String name) {
        Map<String, String> m = r.get(name);
        if (m == null) {
            return Fig.NONE;
        }
        return new Fig(Long.parseLong(m.get("p50")) / 1e3, Long.parseLong(m.get("p99")) / 1e3);
    }

    /** MB/s (10^6 bytes per second); NaN when not measured. */
    static double mbPerSec(Map<String, Map<String, String>> r, String name) {
        Map<String, String> m = r.get(name);
        if (m == null) {
            return Double.NaN;
        }
        return Long.parseLong(m.get("bytes")) * 1e3 / Long.parseLong(m.get("ns"));
    }

    static String bytes(int b) {
        return b >= 1024 && b % 1024 == 0 ? (b / 1024) + " KiB" : b + " B";
    }

    // ------------------------------------------------------------------ printing

    private void header() {
        Scenarios.Settings s = settings;
        out.println(ProcessSet.headerLine("pastset", options.quick()));
        out.println(HostWakeup.describeThisHost());
        out.println("  Java PastSet §4 (Figures 3, 4/5, 7). Every process is a JVM of its own started by this command");
        out.println("  (flags of 'cumulus run', -XX:+UseSerialGC); load average when started: "
            + String.format(Locale.ROOT, "%.1f", ManagementFactory.getOperatingSystemMXBean()
            .getSystemLoadAverage()) + " (figures from a loaded box are upper bounds).");
        out.printf("  ours : Cumulus PastSet elements (byte[] tuples, first-touch placement), Aeron IPC through one%n"
            + "         shared media driver, idle strategy '%s'. round trip = move(token) into ping + observe() of%n"
            + "         pong; the echoing process observes ping and moves the token into pong. Every 256th observe%n"
            + "         also truncates the log it read (PastSet keeps observed tuples).%n", options.idle());
        out.printf("  rpc  : our remote call Echo.echo(byte[]) from process 1 to process 0, same payload each way,%n"
            + "         measured in the same processes right before each payload size.%n");
        out.printf("  hz   : Hazelcast %s, one member per process (TCP-IP join on 127.0.0.1, multicast off,%n"
            + "         phone-home off), IQueue<byte[]> put + take, no backups; a queue lives where the element%n"
            + "         would (partition key owned by that member).%n", HAZELCAST);
        out.printf("  runs : %,d warm-up, then until the JITs compiled nothing for 0.5 s (at most %.1f s more), then%n"
            + "         %,d measured round trips (at most %.1f s) per row; p50/p99 in µs (HdrHistogram, 3 digits).%n"
            + "         ratios: x rpc = ours / our rpc; hz/ours = Hazelcast / ours (> 1: ours is faster).%n",
            s.warmup(), s.jitWaitNs() / 1e9, s.measured(), s.measureNs() / 1e9);
    }

    private void figure3(Map<String, Map<String, String>> ours, Map<String, Map<String, String>> theirs) {
        out.println();
        out.println("Figure 3: round trip, 2 processes (µs)");
        for (String[] placement : List.of(
            new String[] {"one", "elements local to the echoing process 0 (process 1 measures: both its operations are remote)"},
            new String[] {"all", "elements on process 2, remote to both (process 0 measures, process 1 echoes)"})) {
            out.println("  " + placement[1]);
            out.printf("  %-8s %8s %8s | %8s %8s %7s | %8s %8s %8s %8s%n", "payload", "rpc p50", "rpc p99",
                "ours p50", "ours p99", "x rpc", "hz p50", "hz p99", "hz/ours", "p99 h/o");
            for (int size : settings.sizes()) {
                Fig rpc = fig(ours, "rpc." + size);
                Fig o = fig(ours, "rt." + placement[0] + "." + size);
                Fig h = fig(theirs, "rt." + placement[0] + "." + size);
                out.printf(Locale.ROOT, "  %-8s %8.1f %8.1f | %8.1f %8.1f %7s | %8.1f %8.1f %8s %8s%n", bytes(size),
                    rpc.p50(), rpc.p99(), o.p50(), o.p99(), RpcBench.ratio(o.p50() / rpc.p50()), h.p50(), h.p99(),
                    RpcBench.ratio(h.p50() / o.p50()), RpcBench.ratio(h.p99() / o.p99()));
            }
        }
    }

    private void rings(Map<String, Map<String, String>> ours, Map<String, Map<String, String>> theirs) {
        out.println();
        out.println("Figures 4/5: token passed round a ring of N processes, time per hop = lap / N (µs)");
        out.println("  process i observes its own element ring-i and moves the token into ring-(i+1) (a remote move)");
        out.printf("  %-3s %-8s | %8s %8s | %8s %8s | %8s %8s%n", "N", "payload", "ours p50", "ours p99", "hz p50",
            "hz p99", "hz/ours", "p99 h/o");
        for (int n : options.rings()) {
            for (int size : settings.ringSizes()) {
                Fig o = perHop(fig(ours, "ring." + n + "." + size), n);
                Fig h = perHop(fig(theirs, "ring." + n + "." + size), n);
                out.printf(Locale.ROOT, "  %-3d %-8s | %8.1f %8.1f | %8.1f %8.1f | %8s %8s%n", n, bytes(size),
                    o.p50(), o.p99(), h.p50(), h.p99(), RpcBench.ratio(h.p50() / o.p50()),
                    RpcBench.ratio(h.p99() / o.p99()));
            }
        }
        if (options.rings().stream().anyMatch(n -> n < FIG3_PROCESSES)) {
            out.println("  (a ring of 2 runs in the 3-process set of Figure 3; the third process idles meanwhile)");
        }
    }

    private static Fig perHop(Fig lap, int n) {
        return new Fig(lap.p50() / n, lap.p99() / n);
    }

    private void bandwidth(Map<String, Map<String, String>> ours, Map<String, Map<String, String>> theirs) {
        out.println();
        out.printf("Figure 7: bandwidth, process 1 streams tuples one way into a channel on process 0, which reads%n"
            + "  them; flow control: at most %d unread (ours: DeltaValue, delta(%d); hz: queue capacity %d).%n"
            + "  MB/s = 10^6 bytes/s, %d warm-up tuples, then up to %,d tuples (at most %.1f s).%n",
            settings.window(), settings.window(), settings.window(), 2 * settings.window(), settings.bwTuples(),
            settings.measureNs() / 1e9);
        out.printf("  %-8s %10s %10s %9s%n", "tuple", "ours MB/s", "hz MB/s", "ours/hz");
        for (int size : settings.bwSizes()) {
            double o = mbPerSec(ours, "bw." + size);
            double h = mbPerSec(theirs, "bw." + size);
            out.printf(Locale.ROOT, "  %-8s %10.1f %10.1f %9s%n", bytes(size), o, h, RpcBench.ratio(o / h));
        }
    }

    private void breakdown(Map<String, Map<String, String>> ours) {
        out.println();
        out.println("where the time goes: the remote round trip of Figure 3 (elements on process 0, process 1 calls), µs.");
        out.println("  rt: the round trip; move: a remote move alone; obs: a remote observe() of a tuple that is there");
        out.println("  (moved in untimed just before); obs(i): a remote observe(i) of a tuple that is there; async: the");
        out.println("  round trip with moveAsync(ping) overlapping observe() of pong; sum = move + obs. rt, move, obs,");
        out.println("  obs(i) and async are measured interleaved (bursts of 8 of each in turn, the order rotating, the");
        out.println("  first of a burst not recorded), so their ratios come from the same seconds; rpc runs before.");
        out.printf("  %-8s %4s %7s %7s %7s %7s %7s %7s %7s %7s %7s%n", "payload", "", "rpc", "move", "obs", "obs(i)",
            "sum", "rt", "rt/sum", "rt/rpc", "async");
        for (int size : breakdownSizes()) {
            for (boolean p50 : new boolean[] {true, false}) {
                ToDoubleFunction<Fig> at = p50 ? Fig::p50 : Fig::p99;
                double rpc = at.applyAsDouble(fig(ours, "rpc." + size));
                double move = at.applyAsDouble(fig(ours, "bd.move." + size));
                double obs = at.applyAsDouble(fig(ours, "bd.observe." + size));
                double obsAt = at.applyAsDouble(fig(ours, "bd.observe-at." + size));
                double rt = at.applyAsDouble(fig(ours, "bd.rt." + size));
                double async = at.applyAsDouble(fig(ours, "bd.async." + size));
                out.printf(Locale.ROOT, "  %-8s %4s %7.1f %7.1f %7.1f %7.1f %7.1f %7.1f %7s %7s %7.1f%n",
                    p50 ? bytes(size) : "", p50 ? "p50" : "p99", rpc, move, obs, obsAt, move + obs, rt,
                    RpcBench.ratio(rt / (move + obs)), RpcBench.ratio(rt / rpc), async);
            }
        }
    }

    private int[] breakdownSizes() {
        return options.quick() ? new int[] {BREAKDOWN_SIZES[0]} : BREAKDOWN_SIZES;
    }

    private void goals(Map<String, Map<String, String>> ours, Map<String, Map<String, String>> theirs) {
        out.println();
        // 1: remote round trip vs our RPC round trip, p50, every payload
        double worst = 0;
        int worstSize = 0;
        for (int size : settings.sizes()) {
            double r = fig(ours, "rt.one." + size).p50() / fig(ours, "rpc." + size).p50();
            if (!(r <= worst)) {
                worst = r;
                worstSize = size;
            }
        }
        out.printf(Locale.ROOT, "  goal: remote move+observe round trip <= %.1f x our rpc round trip (p50, elements on "
                + "the echoing process, every payload): worst %s x at %s: %s%n", RPC_GOAL, RpcBench.ratio(worst),
            bytes(worstSize), worst <= RPC_GOAL ? "MET" : "NOT MET");
        // 2: the round trip against its parts, p50, measured interleaved, every breakdown payload
        double worstParts = 0;
        int worstPartsSize = 0;
        for (int size : breakdownSizes()) {
            double r = fig(ours, "bd.rt." + size).p50()
                / (fig(ours, "bd.move." + size).p50() + fig(ours, "bd.observe." + size).p50());
            if (!(r <= worstParts)) {
                worstParts = r;
                worstPartsSize = size;
            }
        }
        out.printf(Locale.ROOT, "  goal: remote round trip <= %.1f x (remote move + remote observe) (p50, measured "
                + "interleaved, every breakdown payload): worst %s x at %s: %s%n", PARTS_GOAL,
            RpcBench.ratio(worstParts), bytes(worstPartsSize), worstParts <= PARTS_GOAL ? "MET" : "NOT MET");
        // 3: ahead of Hazelcast everywhere: hz/ours > 1 for latency, ours/hz > 1 for bandwidth
        List<String[]> cases = new ArrayList<>();
        for (int size : settings.sizes()) {
            for (String p : List.of("one", "all")) {
                String name = "rt." + p + "." + size;
                cases.add(new String[] {"fig 3 " + (p.equals("one") ? "local-to-one " : "remote-to-both ")
                    + bytes(size), ratioOf(theirs, ours, name, Fig::p50)});
            }
        }
        for (int n : options.rings()) {
            for (int size : settings.ringSizes()) {
                String name = "ring." + n + "." + size;
                cases.add(new String[] {"ring " + n + " " + bytes(size), ratioOf(theirs, ours, name, Fig::p50)});
            }
        }
        for (int size : settings.bwSizes()) {
            String name = "bw." + size;
            cases.add(new String[] {"bandwidth " + bytes(size),
                Double.toString(mbPerSec(ours, name) / mbPerSec(theirs, name))});
        }
        String[] min = cases.stream().min((a, b) -> Double.compare(Double.parseDouble(a[1]),
            Double.parseDouble(b[1]))).orElseThrow();
        long behind = cases.stream().filter(c -> !(Double.parseDouble(c[1]) > 1)).count();
        out.printf(Locale.ROOT, "  goal: ahead of Hazelcast at every size (p50 latency, Figures 3, 4/5; bandwidth, "
                + "Figure 7): %d of %d cases behind, least ahead: %s (hz/ours %s): %s%n", behind, cases.size(), min[0],
            RpcBench.ratio(Double.parseDouble(min[1])), behind == 0 ? "MET" : "NOT MET");
    }

    private static String ratioOf(Map<String, Map<String, String>> theirs, Map<String, Map<String, String>> ours,
                                  String name, ToDoubleFunction<Fig> f) {
        return Double.toString(f.applyAsDouble(fig(theirs, name)) / f.applyAsDouble(fig(ours, name)));
    }
}
