package dev.cumulus.bench.hostile;

import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.CumulusException;
import dev.cumulus.bench.ProcessSet;
import dev.cumulus.bench.RpcBench;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.transport.IdleStrategies;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code hostile} suite of {@code cumulus bench} (issue 24 §2): two runs of two node processes each, started as
 * {@code cumulus run} starts them — one over IPC through a shared driver, one over UDP on loopback with a driver per
 * node — in which node 1 ({@link HostileNode}) attacks node 0. Every hostile input is sent several times and timed
 * from send to the refusal node 1 sees; then normal calls are timed against those before the attack, and node 0's
 * heap after a GC is shown before and after. The goal lines: every input refused in under 100 ms, and node 0 still
 * serving. See bench/README.md.
 */
public final class HostileBench {
    /** The suite's name in {@code cumulus bench SUITE}. */
    public static final String SUITE = "hostile";
    /** Goal: every hostile input is refused within this many ms (the slowest of its sends). */
    static final double GOAL_MS = 100;
    /** Each node's heap: the per-message heap budget is a quarter of what the JVM reports for it (about 62 MB). */
    static final String NODE_HEAP = "-Xmx256m";
    /** Nulls in the list that asks for more heap than the budget (48 bytes of list node each: 96 MB). */
    static final int NULLS = 2_000_000;

    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(300);

    /** A row of the table: an input's key as the attacker prints it, the run it is sent in, what it is. */
    private record Input(String key, String run, String what, String seenAs) {
    }

    private static final List<Input> INPUTS = List.of(
        new Input("bomb", "ipc", "HashSet of lists sharing each other 40 deep", "error answer: maxDecodeWork"),
        new Input("colliders", "ipc", "HashSet of 50,000 records, one hash code", "error answer: maxDecodeWork"),
        new Input("nulls", "ipc", "LinkedList of 2 M nulls (96 MB > ~62 MB budget)", "error answer: maxDecodeHeapBytes"),
        new Input("stranger", "ipc", "a record in no exported signature", "error answer: allow-list"),
        new Input("chunk", "ipc", "chunk frame declaring a 1 GiB message", "node 0's dropped-chunk count"),
        new Input("garbage", "ipc", "40-byte frame: our header, random bytes", "the counted frame behind it"),
        new Input("setup", "udp", "Aeron setup frame declaring a 1 GiB term", "node 0's driver's drop count"),
        new Input("forged", "udp", "sealed frame with a made-up counter and tag", "node 0's rejected-frame count"));

    private final boolean quick;
    private final String idle;
    private final PrintStream out;
    private final PrintStream err;

    private HostileBench(boolean quick, String idle, PrintStream out, PrintStream err) {
        this.quick = quick;
        this.idle = idle;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs the suite; the table to {@code out}, progress to {@code err}. Returns 0, or 1 when an input was not refused
     * or node 0 stopped serving (the table shows which); a refusal slower than the goal is reported, not an error.
     *
     * @throws CumulusException when a process fails or times out (its last output is in the message); every process
     *                          and directory is gone by then
     */
    public static int run(boolean quick, String idle, PrintStream out, PrintStream err) {
        IdleStrategies.parse(idle);
        return new HostileBench(quick, idle, out, err).run();
    }

    /** {@code java ... HostileBench [--quick]}: the suite outside the CLI. */
    public static void main(String[] args) {
        System.exit(run(List.of(args).contains("--quick"), NodeSettings.DEFAULT_IDLE_STRATEGY, System.out, System.err));
    }

    private int run() {
        Map<String, Map<String, Map<String, String>>> byRun = new LinkedHashMap<>();
        byRun.put("ipc", nodes("ipc"));
        byRun.put("udp", nodes("udp"));
        header();
        boolean allRefused = inputs(byRun);
        boolean serving = serving(byRun);
        out.flush();
        if (!allRefused || !serving) {
            err.println("cumulus bench: " + (!allRefused ? "a hostile input was not refused" : "")
                + (!allRefused && !serving ? "; " : "") + (!serving ? "node 0 stopped serving" : "") + "; see the table");
            return 1;
        }
        return 0;
    }

    private Map<String, Map<String, String>> nodes(String mode) {
        int reps = quick ? 3 : 20;
        err.println("cumulus bench: hostile, " + HostileNode.NODES + " processes over " + mode + ", each input "
            + reps + " times");
        err.flush();
        long t0 = System.nanoTime();
        try (ProcessSet set = new ProcessSet("cumulus hostile " + mode + " (" + HostileNode.NODES + " processes)")) {
            boolean udp = mode.equals("udp");
            String aeronDir = udp ? null : set.startDriver("hostile");
            Path runDir = set.tempDirectory("hostile-run");
            String runId = "bench-hostile-" + Long.toHexString(System.nanoTime());
            List<String> endpoints = new ArrayList<>();
            if (udp) {
                for (int port : ProcessSet.freeUdpPorts(HostileNode.NODES)) {
                    endpoints.add("127.0.0.1:" + port);
                }
            }
            List<ProcessSet.Child> nodes = new ArrayList<>();
            for (int i = 0; i < HostileNode.NODES; i++) {
                if (udp) { // each node's own driver: the node deletes it; this, should the node be killed
                    set.deleteOnClose(Path.of(DriverHost.defaultDirectory(runId + "-node" + i)));
                }
                LaunchConfig c = new LaunchConfig(runId, i, HostileNode.NODES, runDir, aeronDir,
                    udp ? LaunchConfig.TransportMode.UDP : LaunchConfig.TransportMode.IPC, endpoints, 1000,
                    NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS, NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, idle, false);
                List<String> jvm = new ArrayList<>(c.toJvmArguments());
                jvm.add("-Dcumulus.join.timeout.ms=120000"); // JVM start-up on a loaded 2-core box
                jvm.add(NODE_HEAP);
                jvm.add("-D" + HostileNode.MODE + "=" + mode);
                jvm.add("-D" + HostileNode.REPS + "=" + reps);
                jvm.add("-D" + HostileNode.CALLS + "=" + (quick ? 50 : 500));
                jvm.add("-D" + HostileNode.NULLS + "=" + NULLS);
                nodes.add(set.start("h" + i, jvm, HostileNode.class, List.of()));
            }
            Map<String, Map<String, String>> r = ProcessSet.allResults(nodes, STEP_TIMEOUT);
            err.printf(Locale.ROOT, "cumulus bench:   done in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            return r;
        }
    }

    // ------------------------------------------------------------------ tables

    private void header() {
        out.println(ProcessSet.headerLine("hostile", quick));
        out.printf(Locale.ROOT, "  Hostile inputs (issue 24 §2). Two runs of %d node processes started by this command (flags of%n"
            + "  'cumulus run', %s each, idle strategy '%s'): over IPC through one shared media driver, and over UDP%n"
            + "  on loopback with a driver per node. Node 1 attacks node 0, whose Target takes general arguments%n"
            + "  (Collection<Object>, Object). Load average when started: %.1f (figures from a loaded box are upper bounds).%n",
            HostileNode.NODES, NODE_HEAP, idle, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** Prints the inputs' table and the first goal line; returns whether every send was refused. */
    private boolean inputs(Map<String, Map<String, Map<String, String>>> byRun) {
        out.println();
        out.println("Refusals: time from node 1's send to the refusal it sees, ms: for a call, its error answer; for a");
        out.println("  raw frame, node 0's counter of such frames going up (read by normal calls). sent = sends,");
        out.println("  refused = sends refused for the reason shown (one not refused within 60 s counts 60 s).");
        out.printf("  %-10s %-4s %9s %5s %8s %8s %8s %8s  %-48s %s%n", "input", "run", "bytes", "sent", "refused",
            "p50 ms", "p99 ms", "max ms", "what", "refusal seen as");
        boolean allRefused = true;
        double worst = 0;
        String worstKey = "";
        for (Input in : INPUTS) {
            Map<String, String> m = byRun.get(in.run()).get("in." + in.key());
            if (m == null) {
                throw new CumulusException("hostile: node 1 printed no result for input '" + in.key() + "' ("
                    + in.run() + ")");
            }
            int sent = Integer.parseInt(m.get("sent"));
            int refused = Integer.parseInt(m.get("refused"));
            double max = ms(m, "max");
            allRefused &= sent > 0 && refused == sent;
            if (max >= worst) {
                worst = max;
                worstKey = in.key();
            }
            out.printf(Locale.ROOT, "  %-10s %-4s %9s %5d %8d %8.3f %8.3f %8.3f  %-48s %s%n", in.key(), in.run(),
                m.get("bytes"), sent, refused, ms(m, "p50"), ms(m, "p99"), max, in.what(), in.seenAs());
        }
        out.println();
        out.printf(Locale.ROOT, "  goal: every input refused in < %.0f ms (worst: %s, %.3f ms): %s%n", GOAL_MS, worstKey,
            worst, allRefused && worst < GOAL_MS ? "MET" : "NOT MET");
        return allRefused;
    }

    /** Prints node 0's service and heap before and after the attack, and the second goal line. */
    private boolean serving(Map<String, Map<String, Map<String, String>>> byRun) {
        out.println();
        out.println("Node 0 after the attack: a normal call (Target.echo) timed before the attack and after it (p50, µs;");
        out.println("  after/before = ratio), node 0's heap used after a full GC (MB), and whether a last call answered.");
        out.printf("  %-4s %7s %12s %12s %13s %14s %13s %8s%n", "run", "calls", "before µs", "after µs", "after/before",
            "heap before", "heap after", "serving");
        boolean all = true;
        for (var e : byRun.entrySet()) {
            Map<String, Map<String, String>> r = e.getValue();
            Map<String, String> before = r.get("calls.before");
            Map<String, String> after = r.get("calls.after");
            Map<String, String> heap = r.get("heap");
            boolean ok = Boolean.parseBoolean(r.get("serving").get("ok"))
                && after.get("ok").equals(after.get("sent"));
            all &= ok;
            double b = Long.parseLong(before.get("p50")) / 1e3;
            double a = Long.parseLong(after.get("p50")) / 1e3;
            out.printf(Locale.ROOT, "  %-4s %7s %12.1f %12.1f %13s %14.1f %13.1f %8s%n", e.getKey(), after.get("sent"),
                b, a, RpcBench.ratio(a / b) + " x", Long.parseLong(heap.get("before")) / 1e6,
                Long.parseLong(heap.get("after")) / 1e6, ok ? "yes" : "no");
        }
        out.println();
        out.println("  goal: node still serving: " + (all ? "yes" : "no"));
        return all;
    }

    private static double ms(Map<String, String> m, String key) {
        return Long.parseLong(m.get(key)) / 1e6;
    }
}
