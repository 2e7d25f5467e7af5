package dev.cumulus.bench.profile;

import dev.cumulus.bench.NodeCpuWatch;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The TSP workload's tables: node 0's compute time (wall) and the CPU time of the node processes per mode, each as
 * median, spread and two ratios to plain (of the medians, and the median of each round's own ratio, which a drift of
 * the machine's speed from round to round does not move); then the node threads whose CPU time a mode changes.
 */
final class TspTables {
    /** A thread group is listed when some mode's median differs from plain's by at least this much. */
    private static final long THREAD_LISTED_NS = 15_000_000L;

    private final Map<ProfileMode, List<TspRun>> runs;
    private final int cities;
    private final int nodes;
    private final PrintStream out;

    TspTables(Map<ProfileMode, List<TspRun>> runs, int cities, int nodes, PrintStream out) {
        this.runs = runs;
        this.cities = cities;
        this.nodes = nodes;
        this.out = out;
    }

    void print() {
        out.println();
        out.printf("(a) Replicated TSP (examples tsp.ReplicatedTsp), %d cities, %d nodes: the program's own compute time%n",
            cities, nodes);
        out.println("  (node 0's \"in X ms\": the parallel search between two barriers), ms. x plain = ratio of the medians;");
        out.println("  paired x = median over the rounds of the round's ratio to its own plain run.");
        table(TspRun::computeMs, "%10.1f");
        rounds(TspRun::computeMs, "%.0f");
        if (!cpuKnown()) {
            out.println("  (no CPU times: no /proc here, or it did not show every node of a run)");
            return;
        }
        out.println();
        out.println("(a') The same runs' CPU time: user + system of both node processes, start to exit (the recording's");
        out.println("  dump at exit included), s. Other load on the machine barely moves it, unlike the wall time above.");
        table(r -> r.cpu().nodesNs() / 1e9, "%10.3f");
        rounds(r -> r.cpu().nodesNs() / 1e9, "%.2f");
        launcherLines();
        threads();
    }

    /**
     * Besides the nodes: the launcher JVM's own CPU time until its nodes ended, per mode, and {@code --live}'s reader
     * process; then what {@code --live} costs outside the nodes over {@code --profile} (reader plus the launcher's
     * extra), the figure a change of the live reading moves.
     */
    private void launcherLines() {
        StringBuilder sb = new StringBuilder("  the launcher JVM itself (driver, output, live view), start to the nodes' end, median s:");
        for (ProfileMode mode : ProfileMode.values()) {
            sb.append(String.format(Locale.ROOT, " %s %.3f,", mode.label(), launcherMedian(mode)));
        }
        out.println(sb.substring(0, sb.length() - 1));
        List<TspRun> live = runs.get(ProfileMode.LIVE);
        if (live == null) {
            return;
        }
        double reader = median(live, r -> r.cpu().readerNs() / 1e9);
        out.printf(Locale.ROOT, "  --live's reader process (nice 19) besides, while the nodes ran: median %.3f s; --live outside%n"
            + "  the nodes (reader + launcher) over --profile's launcher, median: %.3f s%n", reader,
            reader + launcherMedian(ProfileMode.LIVE) - launcherMedian(ProfileMode.PROFILE));
    }

    /**
     * A mode's median launcher time over the runs that know it (a launcher that ended within a poll of its nodes
     * does not), NaN when none does.
     */
    private double launcherMedian(ProfileMode mode) {
        List<Double> known = runs.get(mode).stream().map(TspRun::launcherS).filter(v -> !Double.isNaN(v)).toList();
        return known.isEmpty() ? Double.NaN : ProfileBench.median(known);
    }

    /** Node 0's compute time, a profiled mode's median over plain's. */
    double wallRatio(ProfileMode mode) {
        return median(runs.get(mode), TspRun::computeMs) / median(runs.get(ProfileMode.PLAIN), TspRun::computeMs);
    }

    /** The CPU ratios of the profiled modes, one line. */
    void cpuLine() {
        if (!cpuKnown()) {
            return;
        }
        StringBuilder sb = new StringBuilder("  node CPU time, x plain (medians; paired):");
        for (ProfileMode mode : List.of(ProfileMode.JFR, ProfileMode.PROFILE, ProfileMode.LIVE)) {
            ToDoubleFunction<TspRun> cpu = r -> r.cpu().nodesNs();
            sb.append(String.format(Locale.ROOT, " %s %.3f; %.3f,", mode.label(),
                median(runs.get(mode), cpu) / median(runs.get(ProfileMode.PLAIN), cpu), paired(mode, cpu)));
        }
        out.println(sb.substring(0, sb.length() - 1));
    }

    private boolean cpuKnown() {
        return runs.values().stream().flatMap(List::stream).allMatch(r -> r.cpu().known());
    }

    private void table(ToDoubleFunction<TspRun> f, String format) {
        out.printf("  %-10s %10s %10s %10s %8s %8s%n", "mode", "median", "lowest", "highest", "x plain", "paired x");
        double plain = median(runs.get(ProfileMode.PLAIN), f);
        for (ProfileMode mode : ProfileMode.values()) {
            List<TspRun> v = runs.get(mode);
            double[] a = v.stream().mapToDouble(f).toArray();
            out.printf(Locale.ROOT, "  %-10s " + format + " " + format + " " + format + " %8.3f %8.3f%n",
                mode.label(), median(v, f), min(a), max(a), median(v, f) / plain, paired(mode, f));
        }
    }

    private void rounds(ToDoubleFunction<TspRun> f, String format) {
        StringBuilder sb = new StringBuilder("  rounds:");
        for (ProfileMode mode : ProfileMode.values()) {
            sb.append(' ').append(mode.label()).append(' ');
            sb.append(String.join(", ", runs.get(mode).stream()
                .map(r -> String.format(Locale.ROOT, format, f.applyAsDouble(r))).toList())).append(';');
        }
        out.println(sb.substring(0, sb.length() - 1));
    }

    /** The node threads whose CPU time differs from plain's, ms (both nodes, median over the rounds). */
    private void threads() {
        Set<String> names = new TreeSet<>();
        runs.values().forEach(l -> l.forEach(r -> names.addAll(r.cpu().threadsNs().keySet())));
        List<String> listed = new ArrayList<>();
        for (String name : names) {
            double plain = threadMedian(ProfileMode.PLAIN, name);
            for (ProfileMode mode : ProfileMode.values()) {
                if (Math.abs(threadMedian(mode, name) - plain) >= THREAD_LISTED_NS) {
                    listed.add(name);
                    break;
                }
            }
        }
        listed.sort(Comparator.comparingDouble((String n) -> threadMedian(ProfileMode.PLAIN, n)
            - threadMedian(ProfileMode.LIVE, n)).thenComparing(n -> n));
        out.println();
        out.printf("(a'') Node threads whose CPU time a mode changes by %d ms or more: ms, both nodes, median over the%n",
            THREAD_LISTED_NS / 1_000_000);
        out.printf("  rounds (read every %d ms, so up to that much of a thread's end is missing; Linux keeps 15%n",
            NodeCpuWatch.THREAD_READ_MS);
        out.println("  characters of a name; names that differ in their last digits are one).");
        StringBuilder head = new StringBuilder(String.format("  %-18s", "thread"));
        for (ProfileMode mode : ProfileMode.values()) {
            head.append(String.format(" %10s", mode.label()));
        }
        out.println(head);
        for (String name : listed) {
            StringBuilder row = new StringBuilder(String.format("  %-18s", name));
            for (ProfileMode mode : ProfileMode.values()) {
                row.append(String.format(Locale.ROOT, " %10.0f", threadMedian(mode, name) / 1e6));
            }
            out.println(row);
        }
    }

    private double threadMedian(ProfileMode mode, String name) {
        return median(runs.get(mode), r -> r.cpu().threadsNs().getOrDefault(name, 0L));
    }

    /** The median over the rounds of each round's figure over plain's in the same round. */
    private double paired(ProfileMode mode, ToDoubleFunction<TspRun> f) {
        List<TspRun> plain = runs.get(ProfileMode.PLAIN);
        List<TspRun> v = runs.get(mode);
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(plain.size(), v.size()); i++) {
            ratios.add(f.applyAsDouble(v.get(i)) / f.applyAsDouble(plain.get(i)));
        }
        return ProfileBench.median(ratios);
    }

    private static double median(List<TspRun> v, ToDoubleFunction<TspRun> f) {
        return ProfileBench.median(v.stream().map(f::applyAsDouble).toList());
    }

    private static double min(double[] a) {
        double m = Double.POSITIVE_INFINITY;
        for (double x : a) {
            m = Math.min(m, x);
        }
        return m;
    }

    private static double max(double[] a) {
        double m = Double.NEGATIVE_INFINITY;
        for (double x : a) {
            m = Math.max(m, x);
        }
        return m;
    }
}
