package dev.cumulus.bench.singlevm;

import dev.cumulus.CumulusException;
import dev.cumulus.bench.BenchArgs;
import dev.cumulus.bench.LauncherRun;
import dev.cumulus.bench.HostWakeup;
import dev.cumulus.bench.ProcessSet;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code single-vm} suite of {@code cumulus bench}: Hyperion's table (seeds/hyperion.txt §5) for this machine. The
 * map colouring example ({@code dev.cumulus.examples.colouring.MapColouring}, 64 searcher threads, the best cost in one
 * object under its monitor) in each {@link SingleVmMode}: plain {@code java}; {@code cumulus run --single-vm} on one
 * node, where every object is its own master and only the woven in-line checks cost (Hyperion's §5.2); on two nodes,
 * the threads round robin over two processes on this machine's cores. The modes alternate within each round, in an
 * order that rotates from round to round, so a change of the shared machine's speed falls on every mode alike.
 *
 * <p>The figure is the program's own search time (the "in X ms" it prints: from before its threads start to after the
 * last join), so JVM and cluster start-up are not in it. Each run searches {@value #SEARCHES} times: the first search's
 * time has the JIT's warm-up in it, the median of the others is the steady state. Two tables, steady state and first
 * search, show every mode's median over the rounds, its spread (lowest, highest) and the ratio of its median to plain
 * java's; the goal lines hold the steady state of 1 node to {@value #GOAL_ONE_NODE}× and of 2 nodes to
 * {@value #GOAL_TWO_NODES}× plain java's, and say the first search's ratios beside. Below the tables, what a search
 * state costs where: the example's {@code --stats} lines (each searcher thread's states and CPU time, printed on the
 * node it ran on), as searcher CPU time per state per mode and, on 2 nodes, per node with each node's share of the
 * states ({@link StateCosts}): a state costs node 1, which holds copies of node 0's arrays and so checks every array
 * access, more than it costs node 0.
 */
public final class SingleVmBench {
    /** The suite's name in {@code cumulus bench SUITE}. */
    public static final String SUITE = "single-vm";
    static final double GOAL_ONE_NODE = 1.3;
    static final double GOAL_TWO_NODES = 1.5;
    static final String MAIN = "dev.cumulus.examples.colouring.MapColouring";
    /** Hyperion's thread count. */
    static final int THREADS = 64;
    /** Depth to which the searchers put the search tree's states back into the pool (the example's default). */
    static final int SPLIT_DEPTH = 4;
    /**
     * The colours' costs. Three colours of equal cost make the search's bound weak: about 137 million states, 79 times
     * the example's default costs (2 3 5 8), so plain java searches for seconds on this machine and the figure is the
     * search's, not the JIT's warm-up (Hyperion's table came from runs of minutes).
     */
    static final List<String> COSTS = List.of("4", "5", "5", "5");
    /**
     * Searches per run ({@code --searches}): the first pays for the JIT compiling the program and, under Cumulus, the
     * runtime it calls (each node's JVM compiles about 2,000 methods, seconds of a core); the others are the steady
     * state, which Hyperion's table measured (java2c compiled ahead of time; runs of minutes).
     */
    static final int SEARCHES = 4;
    static final int QUICK_SEARCHES = 2;
    private static final Pattern SEARCH = Pattern.compile("^search (\\d+)/(\\d+): .* in (\\d+) ms$");
    /** A run's limit: seconds on an idle 2-core machine, minutes on a loaded one. */
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(10);

    private final int rounds;
    private final boolean quick;
    private final PrintStream out;
    private final PrintStream err;
    private final LauncherRun launcher;
    /** Per mode, per run: the searchers' states and CPU time by node, searches 2 on. */
    private final Map<SingleVmMode, List<StateCosts>> stateCosts = new EnumMap<>(SingleVmMode.class);

    private SingleVmBench(int rounds, boolean quick, PrintStream out, PrintStream err) {
        this.rounds = rounds;
        this.quick = quick;
        this.out = out;
        this.err = err;
        this.launcher = LauncherRun.ofThisCheckout();
    }

    /**
     * Runs the suite: 5 rounds, 1 with {@code quick}, {@code rounds} when positive; the table to {@code out}, progress
     * to {@code err}. Returns 0; 1 when a run fails or times out, or the command line or the examples are not built
     * (the message, on {@code err}, carries the run's last output or says what to build).
     */
    public static int run(boolean quick, int rounds, PrintStream out, PrintStream err) {
        int n = rounds > 0 ? rounds : quick ? 1 : 5;
        try {
            return new SingleVmBench(n, quick, out, err).run();
        } catch (CumulusException e) {
            err.println("cumulus bench: " + e.getMessage());
            return 1;
        }
    }

    /** {@code java ... SingleVmBench [--quick] [--rounds N]}: the suite outside the CLI. */
    public static void main(String[] args) {
        List<String> a = List.of(args);
        System.exit(run(a.contains("--quick"), BenchArgs.rounds("single-vm", a), System.out, System.err));
    }

    /** One run's search times, ms: the first search (with the JIT's warm-up) and the median of the later ones. */
    record Searches(double firstMs, double warmMs) {
    }

    private int run() {
        double loadBefore = load();
        header(loadBefore);
        Map<SingleVmMode, List<Searches>> ms = new EnumMap<>(SingleVmMode.class);
        SingleVmMode[] modes = SingleVmMode.values();
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < modes.length; k++) {
                SingleVmMode mode = modes[(k + round) % modes.length];
                err.printf("cumulus bench single-vm: round %d/%d, %s%n", round + 1, rounds, mode.label());
                ms.computeIfAbsent(mode, m -> new ArrayList<>()).add(searches(mode));
            }
        }
        Map<SingleVmMode, List<Double>> warm = times(ms, Searches::warmMs);
        Map<SingleVmMode, List<Double>> first = times(ms, Searches::firstMs);
        table("searches 2 to " + searches() + " of each run (their median): the steady state", warm);
        table("the first search of each run: the JIT compiles meanwhile", first);
        StateCosts.print(out, stateCosts);
        out.println();
        double plain = median(warm.get(SingleVmMode.PLAIN));
        goal("1 node (the in-line checks)", GOAL_ONE_NODE, median(warm.get(SingleVmMode.ONE_NODE)) / plain);
        goal("2 nodes", GOAL_TWO_NODES, median(warm.get(SingleVmMode.TWO_NODES)) / plain);
        out.printf(Locale.ROOT, "  (goals on the steady state, as Hyperion's table; the first search: 1 node %.3fx, "
                + "2 nodes %.3fx plain java)%n",
            median(first.get(SingleVmMode.ONE_NODE)) / median(first.get(SingleVmMode.PLAIN)),
            median(first.get(SingleVmMode.TWO_NODES)) / median(first.get(SingleVmMode.PLAIN)));
        out.printf(Locale.ROOT, "  load average at the start %.1f, at the end %.1f.%n", loadBefore, load());
        out.flush();
        return 0;
    }

    private int searches() {
        return quick ? QUICK_SEARCHES : SEARCHES;
    }

    private static Map<SingleVmMode, List<Double>> times(Map<SingleVmMode, List<Searches>> ms,
                                                         ToDoubleFunction<Searches> which) {
        Map<SingleVmMode, List<Double>> t = new EnumMap<>(SingleVmMode.class);
        ms.forEach((mode, runs) -> t.put(mode, runs.stream().map(which::applyAsDouble).toList()));
        return t;
    }

    /** One run's search times. */
    private Searches searches(SingleVmMode mode) {
        List<String> args = new ArrayList<>(List.of("--searches", String.valueOf(searches()), "--stats",
            String.valueOf(THREADS), String.valueOf(SPLIT_DEPTH)));
        args.addAll(COSTS);
        List<String> lines;
        LauncherRun.Output o;
        if (mode == SingleVmMode.PLAIN) {
            o = launcher.plainJava(launcher.examples(), MAIN, args, RUN_TIMEOUT);
            lines = o.stdout();
        } else {
            o = launcher.run("cumulus run --single-vm (" + mode.label() + ")", dir -> List.of("--single-vm"),
                mode.nodes(), launcher.examples(), MAIN, args, RUN_TIMEOUT);
            lines = o.stdout().stream().filter(l -> l.startsWith("[0] ")).map(l -> l.substring(4)).toList();
        }
        stateCosts.computeIfAbsent(mode, m -> new ArrayList<>()).add(StateCosts.parse(o.stdout(), 2));
        return parse(mode, lines, searches(), o.tail());
    }

    /** The {@code search i/N: ... in X ms} lines of a run: all N of them, or a message with the run's output. */
    static Searches parse(SingleVmMode mode, List<String> lines, int searches, String tail) {
        double[] ms = new double[searches];
        int found = 0;
        for (String line : lines) {
            Matcher m = SEARCH.matcher(line);
            if (m.find() && Integer.parseInt(m.group(2)) == searches) {
                int i = Integer.parseInt(m.group(1));
                if (i >= 1 && i <= searches) {
                    ms[i - 1] = Double.parseDouble(m.group(3));
                    found++;
                }
            }
        }
        if (found != searches) {
            throw new CumulusException("the map colouring (" + mode.label() + ") printed " + found + " of its "
                + searches + " search times; its last output:\n" + tail);
        }
        return new Searches(ms[0], median(Arrays.stream(ms, 1, searches).boxed().toList()));
    }

    // ------------------------------------------------------------------ the table

    private void header(double load) {
        out.println(ProcessSet.headerLine(SUITE, quick));
        out.println(HostWakeup.describeThisHost());
        out.printf(Locale.ROOT, "  Hyperion's table (seeds/hyperion.txt section 5) for this machine: the map colouring example%n"
            + "  (29 states, 4 colours costing %s, %d searcher threads, split depth %d, the best cost under one%n"
            + "  monitor) under plain java, and unchanged under 'cumulus run --single-vm' on 1 node (the in-line checks%n"
            + "  alone) and on 2 nodes (the threads round robin over two processes, Aeron IPC). The costs make a search%n"
            + "  of about 137 million states, seconds of plain java here. Each run searches %d times in a row%n"
            + "  (--searches): the first search also pays for the JIT, which under Cumulus compiles the runtime too%n"
            + "  (about 2,000 methods per node's JVM, seconds of a core that the searchers would have had); the later%n"
            + "  ones are the steady state, which Hyperion's table measured (code compiled ahead of time, runs of%n"
            + "  minutes). %d round(s); in each the modes alternate, in an order that rotates from round to round.%n"
            + "  Load average when started: %.1f (figures from a loaded box are upper bounds; compare the modes of%n"
            + "  one run, not runs of different times).%n",
            String.join(" ", COSTS), THREADS, SPLIT_DEPTH, searches(), rounds, load);
    }

    private void table(String which, Map<SingleVmMode, List<Double>> ms) {
        out.println();
        out.printf("Map colouring, %d threads: the program's search time (its \"in X ms\": from before the threads start%n",
            THREADS);
        out.printf("  to after the last join), ms, %s. x plain = ratio of the medians.%n", which);
        out.printf("  %-10s %10s %10s %10s %8s%n", "mode", "median", "lowest", "highest", "x plain");
        double plain = median(ms.get(SingleVmMode.PLAIN));
        for (SingleVmMode mode : SingleVmMode.values()) {
            List<Double> v = ms.get(mode);
            out.printf(Locale.ROOT, "  %-10s %10.0f %10.0f %10.0f %8.3f%n", mode.label(), median(v), min(v), max(v),
                median(v) / plain);
        }
        StringBuilder sb = new StringBuilder("  rounds:");
        for (SingleVmMode mode : SingleVmMode.values()) {
            sb.append(' ').append(mode.label()).append(' ');
            sb.append(String.join(", ", ms.get(mode).stream().map(v -> String.format(Locale.ROOT, "%.0f", v))
                .toList())).append(';');
        }
        out.println(sb.substring(0, sb.length() - 1));
    }

    private void goal(String what, double goal, double ratio) {
        out.printf(Locale.ROOT, "  goal: %s <= %.1fx plain java: %.3fx: %s%n", what, goal, ratio,
            ratio <= goal ? "MET" : "NOT MET");
    }

    static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = a.length;
        return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
    }

    private static double min(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
