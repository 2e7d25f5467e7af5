package dev.cumulus.bench.migration;

import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.CumulusException;
import dev.cumulus.Migration;
import dev.cumulus.bench.HostWakeup;
import dev.cumulus.bench.ProcessSet;
import dev.cumulus.bench.RpcBench;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.transport.IdleStrategies;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code migration} suite of {@code cumulus bench} (issue 18 §4): (a) the pause of a move against one remote call
 * carrying the same bytes, for states of 1 KiB to 64 MiB; (b) a call through a stale proxy with a forwarding chain of
 * 1 and 3, first call and later calls, against a direct call; (c) calls per second on an object that moves every
 * 10 ms under calls from two nodes, with the lost and doubled calls (which must be none). Five node processes
 * ({@link MigrationNode}); what is measured is printed in the output's header; see bench/README.md.
 */
public final class MigrationBench {
    /** The suite's name in {@code cumulus bench SUITE}. */
    public static final String SUITE = "migration";
    /** Goal (a): moving 1 MiB takes at most this many times one remote call carrying 1 MiB (p50). */
    static final double PAUSE_GOAL = 3.0;
    /** Goal (b): a call after the chain collapsed takes at most this many times a direct call (p50). */
    static final double COLLAPSED_GOAL = 1.1;
    static final Migration[] LOAD_KINDS = {Migration.DELAYED, Migration.SAFE_POINT};

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(300);

    private final boolean quick;
    private final String idle;
    private final Settings settings;
    private final PrintStream out;
    private final PrintStream err;

    private MigrationBench(boolean quick, String idle, PrintStream out, PrintStream err) {
        this.quick = quick;
        this.idle = idle;
        this.settings = quick ? Settings.quick() : Settings.standard();
        this.out = out;
        this.err = err;
    }

    /**
     * Runs the suite; tables to {@code out}, progress to {@code err}. Returns 0, or 1 when a call was lost or doubled
     * (the table shows where).
     *
     * @throws CumulusException when a process fails or times out (its last output is in the message); every process
     *                          and directory is gone by then
     */
    public static int run(boolean quick, String idle, PrintStream out, PrintStream err) {
        IdleStrategies.parse(idle);
        return new MigrationBench(quick, idle, out, err).run();
    }

    /** {@code java ... MigrationBench [--quick]}: the suite outside the CLI. */
    public static void main(String[] args) {
        System.exit(run(List.of(args).contains("--quick"), NodeSettings.DEFAULT_IDLE_STRATEGY, System.out, System.err));
    }

    private int run() {
        header();
        Map<String, Map<String, String>> r = nodes();
        pauses(r);
        chains(r);
        long bad = load(r);
        goals(r, bad);
        out.flush();
        if (bad > 0) {
            err.println("cumulus bench: " + bad + " call(s) were lost or doubled while the object moved; see the table");
            return 1;
        }
        return 0;
    }

    private Map<String, Map<String, String>> nodes() {
        err.println("cumulus bench: migration, " + MigrationNode.NODES + " processes (pause vs size, stale proxies, "
            + "calls under migration)");
        err.flush();
        long t0 = System.nanoTime();
        try (ProcessSet set = new ProcessSet("cumulus migration (" + MigrationNode.NODES + " processes)")) {
            String aeronDir = set.startDriver("migration");
            Path runDir = set.tempDirectory("migration-run");
            String runId = "bench-mig-" + Long.toHexString(System.nanoTime());
            List<ProcessSet.Child> nodes = new ArrayList<>();
            for (int i = 0; i < MigrationNode.NODES; i++) {
                LaunchConfig c = new LaunchConfig(runId, i, MigrationNode.NODES, runDir, aeronDir,
                    LaunchConfig.TransportMode.IPC, List.of(), 1000, NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
                    NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, idle, false);
                List<String> jvm = new ArrayList<>(c.toJvmArguments());
                jvm.add("-Dcumulus.join.timeout.ms=120000"); // JVM start-up on a loaded 2-core box
                jvm.addAll(settings.toJvmArguments());
                nodes.add(set.start("m" + i, jvm, MigrationNode.class, List.of()));
            }
            Map<String, Map<String, String>> r = ProcessSet.allResults(nodes, STEP_TIMEOUT);
            err.printf(Locale.ROOT, "cumulus bench:   done in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            return r;
        }
    }

    // ------------------------------------------------------------------ tables

    private void header() {
        out.println(ProcessSet.headerLine("migration", quick));
        out.println(HostWakeup.describeThisHost());
        out.printf(Locale.ROOT, "  Remote objects that move (Babylon §4.2). %d node processes started by this command (flags of%n"
            + "  'cumulus run', -XX:+UseSerialGC), Aeron IPC through one shared media driver, idle strategy '%s';%n"
            + "  load average when started: %.1f (figures from a loaded box are upper bounds).%n",
            MigrationNode.NODES, idle, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private void pauses(Map<String, Map<String, String>> r) {
        out.println();
        out.println("(a) pause against state size: Remote.migrate(IDLE) of an object whose state is one byte[], asked on");
        out.println("  its own node 1, to node 2 (returns once node 2 serves it; calls to it wait meanwhile), against one");
        out.println("  remote call from node 1 to node 2 carrying the same byte[]. Alternating, each move followed by an");
        out.println("  unmeasured move back. ms; pause/call = ratio of the p50s (1 = a move costs one call's transfer).");
        out.printf("  %-8s %6s %10s %10s %10s %10s %10s%n", "state", "moves", "pause p50", "pause p99", "call p50",
            "call p99", "pause/call");
        for (int size : settings.sizes()) {
            Fig pause = fig(r, "pause." + size);
            Fig call = fig(r, "call." + size);
            out.printf(Locale.ROOT, "  %-8s %6d %10.3f %10.3f %10.3f %10.3f %10s%n", bytes(size), pause.count(),
                pause.p50() / 1e6, pause.p99() / 1e6, call.p50() / 1e6, call.p99() / 1e6,
                RpcBench.ratio(pause.p50() / call.p50()));
        }
    }

    private void chains(Map<String, Map<String, String>> r) {
        out.println();
        out.println("(b) a call through a stale proxy: node 0 looked the object up on node 1, then node 1 moved it along");
        out.printf("  a chain (1: to node 2; 3: to nodes 2, 3, 4), leaving a forwarding address on each. first = node 0's%n"
            + "  first call (follows the chain; the proxy learns the new node); later = its next %d calls (direct now);%n"
            + "  direct = the same call, interleaved, to an object that never moved on the same node. µs; x direct =%n"
            + "  ratio of the p50s. %d proxies per chain.%n", settings.laterCalls(), settings.chainReps());
        out.printf("  %-6s %-7s %7s %10s %10s %9s%n", "chain", "calls", "count", "p50 µs", "p99 µs", "x direct");
        for (int chain : Settings.CHAINS) {
            Fig direct = fig(r, "chain" + chain + ".direct");
            for (String which : List.of("first", "later", "direct")) {
                Fig f = fig(r, "chain" + chain + "." + which);
                out.printf(Locale.ROOT, "  %-6d %-7s %7d %10.1f %10.1f %9s%n", chain, which, f.count(), f.p50() / 1e3,
                    f.p99() / 1e3, RpcBench.ratio(f.p50() / direct.p50()));
            }
        }
    }

    /** Prints part (c); returns the lost and doubled calls, summed. */
    private long load(Map<String, Map<String, String>> r) {
        out.println();
        out.printf(Locale.ROOT, "(c) calls under migration: nodes 0 and 1 each call Counter.apply(me, seq) one at a time "
            + "for %.1f s;%n  static: the object stays on node 4 (whose main thread wakes as often as the mover's); "
            + "moving:%n  node 4 moves it round nodes 2, 3, 4 every %d ms, with the kind named. calls/s summed over the callers; x static = moving / static. lost = numbers "
            + "the%n  object never saw, doubled = numbers it saw twice (must both be 0).%n",
            settings.loadMs() / 1e3, settings.moveEveryMs());
        out.printf("  %-10s %-7s %7s %8s %10s %9s %6s %8s%n", "kind", "object", "moves", "moves/s", "calls/s",
            "x static", "lost", "doubled");
        long bad = 0;
        for (Migration kind : LOAD_KINDS) {
            double staticRate = 0;
            for (String phase : List.of("static", "moving")) {
                Load l = load(r, kind, phase);
                if (phase.equals("static")) {
                    staticRate = l.callsPerSec();
                }
                bad += l.lost() + l.doubled();
                String moves = phase.equals("static") ? "-" : Long.toString(l.moves());
                String rate = phase.equals("static") ? "-" : String.format(Locale.ROOT, "%.0f", l.movesPerSec());
                out.printf(Locale.ROOT, "  %-10s %-7s %7s %8s %10.0f %9s %6d %8d%n", kind, phase, moves, rate,
                    l.callsPerSec(), phase.equals("static") ? "-" : RpcBench.ratio(l.callsPerSec() / staticRate),
                    l.lost(), l.doubled());
            }
        }
        return bad;
    }

    private void goals(Map<String, Map<String, String>> r, long bad) {
        out.println();
        double pause = fig(r, "pause." + Settings.MIB).p50() / fig(r, "call." + Settings.MIB).p50();
        out.printf(Locale.ROOT, "  goal: moving 1 MiB <= %.0f x one remote call carrying 1 MiB (p50): %s x: %s%n",
            PAUSE_GOAL, RpcBench.ratio(pause), pause <= PAUSE_GOAL ? "MET" : "NOT MET");
        StringBuilder chains = new StringBuilder();
        boolean met = true;
        for (int chain : Settings.CHAINS) {
            double x = fig(r, "chain" + chain + ".later").p50() / fig(r, "chain" + chain + ".direct").p50();
            met &= x <= COLLAPSED_GOAL;
            chains.append(chains.isEmpty() ? "" : ", ").append("chain ").append(chain).append(' ')
                .append(RpcBench.ratio(x)).append(" x");
        }
        out.printf(Locale.ROOT, "  goal: a call after the chain collapsed <= %.1f x a direct call (p50): %s: %s%n",
            COLLAPSED_GOAL, chains, met ? "MET" : "NOT MET");
        out.printf("  goal: no call lost or doubled while the object moves: %d: %s%n", bad, bad == 0 ? "MET" : "NOT MET");
    }

    // ------------------------------------------------------------------ results

    /** p50/p99 in ns and the sample count. */
    record Fig(double p50, double p99, long count) {
    }

    private static Fig fig(Map<String, Map<String, String>> r, String name) {
        Map<String, String> m = r.get(name);
        if (m == null) {
            throw new CumulusException("the migration suite's nodes printed no '" + name + "' result");
        }
        return new Fig(Long.parseLong(m.get("p50")), Long.parseLong(m.get("p99")), Long.parseLong(m.get("count")));
    }

    /** One run of part (c), summed over the callers. */
    record Load(long calls, double callsPerSec, long lost, long doubled, long moves, double movesPerSec) {
    }

    private static Load load(Map<String, Map<String, String>> r, Migration kind, String phase) {
        String key = "load." + kind + "." + phase;
        long calls = 0;
        long lost = 0;
        long doubled = 0;
        double perSec = 0;
        for (int n = 0; n < MigrationNode.CALLERS; n++) {
            Map<String, String> m = r.get(key + ".node" + n);
            if (m == null) {
                throw new CumulusException("the migration suite's node " + n + " printed no '" + key + "' result");
            }
            long c = Long.parseLong(m.get("calls"));
            calls += c;
            perSec += c * 1e9 / Long.parseLong(m.get("ns"));
            lost += Long.parseLong(m.get("lost"));
            doubled += Long.parseLong(m.get("doubled"));
        }
        Map<String, String> moves = r.get(key + ".moves");
        long count = moves == null ? 0 : Long.parseLong(moves.get("count"));
        double rate = moves == null ? 0 : count * 1e9 / Long.parseLong(moves.get("ns"));
        return new Load(calls, perSec, lost, doubled, count, rate);
    }

    static String bytes(int b) {
        return b >= Settings.MIB ? b / Settings.MIB + " MiB" : b >= Settings.KIB ? b / Settings.KIB + " KiB" : b + " B";
    }
}
