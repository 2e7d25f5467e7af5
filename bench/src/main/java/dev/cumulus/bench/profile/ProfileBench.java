package dev.cumulus.bench.profile;

import dev.cumulus.CumulusException;
import dev.cumulus.bench.BenchArgs;
import dev.cumulus.bench.LauncherRun;
import dev.cumulus.bench.ProcessSet;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code profile} suite of {@code cumulus bench}: what profiling costs the program it measures. Two workloads, each
 * run by {@code cumulus run} on 2 nodes in every {@link ProfileMode} (plain, the JDK's default recording,
 * {@code --profile}, {@code --live}), the modes alternating within each round and their order rotating from round to
 * round, so a change of the shared machine's speed falls on every mode alike:
 * <ol>
 *   <li>the replicated TSP example ({@code dev.cumulus.examples.tsp.ReplicatedTsp}); the figure is the compute time
 *       node 0 prints (the parallel search between its two barriers);</li>
 *   <li>{@code bench replication}'s read path: reads of a replicated object ({@link ReadPathProgram}); the figures are
 *       node 0's per-call p50 and p99 over batches of reads.</li>
 * </ol>
 * Each table shows every mode's median over the rounds, its spread (lowest, highest) and the ratio of the medians to
 * plain's; the goal lines hold {@code --profile} and {@code --live} to {@value #GOAL}× plain.
 */
public final class ProfileBench {
    /** The suite's name in {@code cumulus bench SUITE}. */
    public static final String SUITE = "profile";
    /** Goal: a profiled run's figure is at most this many times the plain run's (medians). */
    static final double GOAL = 1.02;
    /** The node count of every run (the measurement: 2 nodes). */
    public static final int NODES = 2;
    static final String TSP_MAIN = "dev.cumulus.examples.tsp.ReplicatedTsp";
    private static final Pattern TSP_TIME = Pattern.compile(" in ([0-9.]+) ms,");
    private static final Pattern READS = Pattern.compile("p50_ps=(\\d+) p99_ps=(\\d+) batches=(\\d+)");
    /** A run's limit: a 23-city run takes 10-20 s on an idle 2-core machine, minutes on a loaded one. */
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(15);

    /**
     * What a full and a quick run measure; {@code reads} false leaves the read workload out. The full run's rounds make
     * the medians' ratios resolve about 1 %: the compute time's spread from run to run is several per cent.
     */
    record Settings(int rounds, int cities, double readSeconds, boolean reads) {
        static Settings standard() {
            return new Settings(10, 23, 3, true);
        }

        static Settings quick() {
            return new Settings(1, 14, 0.5, true);
        }
    }

    private final Settings settings;
    private final boolean quick;
    private final PrintStream out;
    private final PrintStream err;
    private final LauncherRun launcher;

    private ProfileBench(Settings settings, boolean quick, PrintStream out, PrintStream err) {
        this.settings = settings;
        this.quick = quick;
        this.out = out;
        this.err = err;
        this.launcher = LauncherRun.ofThisCheckout();
    }

    /**
     * Runs the suite; tables to {@code out}, progress to {@code err}; {@code rounds} overrides the settings' when
     * positive. Returns 0; 1 when a run fails or times out, or the command line or examples are not built (the
     * message, on {@code err}, carries the run's last output or says what to build).
     */
    public static int run(boolean quick, int rounds, PrintStream out, PrintStream err) {
        return run(quick, rounds, true, out, err);
    }

    /** {@link #run(boolean, int, PrintStream, PrintStream)}; {@code reads} false measures the TSP alone. */
    static int run(boolean quick, int rounds, boolean reads, PrintStream out, PrintStream err) {
        Settings s = quick ? Settings.quick() : Settings.standard();
        s = new Settings(rounds > 0 ? rounds : s.rounds(), s.cities(), s.readSeconds(), reads);
        try {
            return new ProfileBench(s, quick, out, err).run();
        } catch (CumulusException e) {
            err.println("cumulus bench: " + e.getMessage());
            return 1;
        }
    }

    /**
     * {@code java ... ProfileBench [--quick] [--rounds N] [--tsp-only]}: the suite outside the CLI; {@code --tsp-only}
     * leaves the read workload out (an A/B of the TSP's cost in half the time).
     */
    public static void main(String[] args) {
        List<String> a = List.of(args);
        System.exit(run(a.contains("--quick"), BenchArgs.rounds("profile", a), !a.contains("--tsp-only"), System.out,
            System.err));
    }

    private int run() {
        double loadBefore = load();
        header(loadBefore);
        Map<ProfileMode, List<TspRun>> tsp = new EnumMap<>(ProfileMode.class);
        Map<ProfileMode, List<Double>> p50 = new EnumMap<>(ProfileMode.class);
        Map<ProfileMode, List<Double>> p99 = new EnumMap<>(ProfileMode.class);
        ProfileMode[] modes = ProfileMode.values();
        for (int round = 0; round < settings.rounds(); round++) {
            for (int k = 0; k < modes.length; k++) {
                ProfileMode mode = modes[(k + round) % modes.length];
                err.printf("cumulus bench profile: round %d/%d, TSP, %s%n", round + 1, settings.rounds(), mode.label());
                tsp.computeIfAbsent(mode, m -> new ArrayList<>()).add(tspRun(mode));
            }
            for (int k = 0; k < modes.length && settings.reads(); k++) {
                ProfileMode mode = modes[(k + round) % modes.length];
                err.printf("cumulus bench profile: round %d/%d, reads, %s%n", round + 1, settings.rounds(),
                    mode.label());
                double[] r = readsNs(mode);
                p50.computeIfAbsent(mode, m -> new ArrayList<>()).add(r[0]);
                p99.computeIfAbsent(mode, m -> new ArrayList<>()).add(r[1]);
            }
        }
        TspTables tables = new TspTables(tsp, settings.cities(), NODES, out);
        tables.print();
        if (settings.reads()) {
            readTable(p50, p99);
        }
        out.println();
        for (ProfileMode mode : List.of(ProfileMode.PROFILE, ProfileMode.LIVE)) {
            goal("TSP compute time, " + mode.label(), tables.wallRatio(mode));
            if (settings.reads()) {
                goal("read p50, " + mode.label(), median(p50.get(mode)) / median(p50.get(ProfileMode.PLAIN)));
            }
        }
        tables.cpuLine();
        out.printf(Locale.ROOT, "  load average at the start %.1f, at the end %.1f.%n", loadBefore, load());
        out.flush();
        return 0;
    }

    private TspRun tspRun(ProfileMode mode) {
        LauncherRun.Output o = launcher.run("cumulus run " + mode.label(), mode::launcherOptions, NODES,
            launcher.examples(), TSP_MAIN, List.of(String.valueOf(settings.cities())), RUN_TIMEOUT);
        String line = o.nodeLine(0, "TSP ");
        Matcher m = line == null ? null : TSP_TIME.matcher(line);
        if (m == null || !m.find()) {
            throw new CumulusException("the replicated TSP (" + mode.label() + ") printed no compute time on node 0; "
                + "its last output:\n" + o.tail());
        }
        return new TspRun(Double.parseDouble(m.group(1)), o.cpu());
    }

    /** Node 0's read p50 and p99, ns per call. */
    private double[] readsNs(ProfileMode mode) {
        Path classes = LauncherRun.benchClasses();
        LauncherRun.Output o = launcher.run("cumulus run " + mode.label(), mode::launcherOptions, NODES, classes,
            ReadPathProgram.class.getName(), List.of(String.valueOf(settings.readSeconds())), RUN_TIMEOUT);
        String line = o.nodeLine(0, ReadPathProgram.PREFIX);
        Matcher m = line == null ? null : READS.matcher(line);
        if (m == null || !m.find()) {
            throw new CumulusException("the read program (" + mode.label() + ") printed no figures on node 0; its "
                + "last output:\n" + o.tail());
        }
        return new double[] {Long.parseLong(m.group(1)) / 1000.0, Long.parseLong(m.group(2)) / 1000.0};
    }

    // ------------------------------------------------------------------ tables

    private void header(double load) {
        out.println(ProcessSet.headerLine("profile", quick));
        out.printf(Locale.ROOT, "  What profiling costs the program it measures. Each run is 'cumulus run --nodes %d' as a user%n"
            + "  starts it (Aeron IPC, one shared media driver), in four modes: plain; JDK JFR (every node under%n"
            + "  -XX:StartFlightRecording with the JDK's default.jfc); --profile; --live. %d round(s); in each the modes%n"
            + "  alternate, in an order that rotates from round to round. Load average when started: %.1f (figures%n"
            + "  from a loaded box are upper bounds; compare the modes of one run, not runs of different times).%n",
            NODES, settings.rounds(), load);
    }

    private void readTable(Map<ProfileMode, List<Double>> p50, Map<ProfileMode, List<Double>> p99) {
        out.println();
        out.printf(Locale.ROOT, "(b) Reads of a replicated object (bench replication's read path), %d nodes each reading its replica%n",
            NODES);
        out.printf(Locale.ROOT, "  in batches of %d for %.1f s after a warm-up; node 0's per-call time, ns (p50, p99 over the%n",
            ReadPathProgram.BATCH, settings.readSeconds());
        out.println("  batches; median over the rounds, lowest-highest). x plain = ratio of the medians.");
        out.printf("  %-10s %10s %15s %10s %15s %8s %8s%n", "mode", "p50", "p50 spread", "p99", "p99 spread",
            "x plain", "p99 x");
        double plain50 = median(p50.get(ProfileMode.PLAIN));
        double plain99 = median(p99.get(ProfileMode.PLAIN));
        for (ProfileMode mode : ProfileMode.values()) {
            List<Double> a = p50.get(mode);
            List<Double> b = p99.get(mode);
            out.printf(Locale.ROOT, "  %-10s %10.2f %15s %10.2f %15s %8.3f %8.3f%n", mode.label(), median(a),
                spread(a), median(b), spread(b), median(a) / plain50, median(b) / plain99);
        }
        rounds(p50, "%.2f");
    }

    private void rounds(Map<ProfileMode, List<Double>> values, String format) {
        StringBuilder sb = new StringBuilder("  rounds:");
        for (ProfileMode mode : ProfileMode.values()) {
            sb.append(' ').append(mode.label()).append(' ');
            sb.append(String.join(", ", values.get(mode).stream().map(v -> String.format(Locale.ROOT, format, v))
                .toList())).append(';');
        }
        out.println(sb.substring(0, sb.length() - 1));
    }

    private void goal(String what, double ratio) {
        out.printf(Locale.ROOT, "  goal: %s <= %.2fx plain: %.3fx: %s%n", what, GOAL, ratio,
            ratio <= GOAL ? "MET" : "NOT MET");
    }

    private static String spread(List<Double> v) {
        return String.format(Locale.ROOT, "%.2f-%.2f", min(v), max(v));
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
