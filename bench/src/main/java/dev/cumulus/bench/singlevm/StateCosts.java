package dev.cumulus.bench.singlevm;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a search state cost where in one run of the map colouring: from its {@code --stats} lines (each searcher thread
 * prints, when it ends, the states it expanded and its CPU time; under {@code cumulus run} prefixed with the node it
 * ran on), the states and the searchers' CPU time per node, summed over the searches from {@code fromSearch} on (the
 * first pays for the JIT). Per node: {@code [states, cpuUs]}.
 */
record StateCosts(Map<Integer, long[]> byNode) {
    private static final Pattern STATS = Pattern.compile(
        "^(?:\\[(\\d+)\\] )?stats search (\\d+) searcher-\\d+: (\\d+) states, (\\d+) us of CPU$");

    static StateCosts parse(List<String> lines, int fromSearch) {
        Map<Integer, long[]> byNode = new TreeMap<>();
        for (String line : lines) {
            Matcher m = STATS.matcher(line);
            if (m.matches() && Integer.parseInt(m.group(2)) >= fromSearch) {
                long[] sum = byNode.computeIfAbsent(m.group(1) == null ? 0 : Integer.parseInt(m.group(1)),
                    n -> new long[2]);
                sum[0] += Long.parseLong(m.group(3));
                sum[1] += Long.parseLong(m.group(4));
            }
        }
        return new StateCosts(byNode);
    }

    /** Searcher CPU time per state on {@code node}, ns, or NaN when it expanded none. */
    double nsPerState(int node) {
        long[] s = byNode.get(node);
        return s == null || s[0] == 0 ? Double.NaN : 1000.0 * s[1] / s[0];
    }

    /** Searcher CPU time per state over all nodes, ns, or NaN when none was expanded. */
    double nsPerState() {
        long states = byNode.values().stream().mapToLong(s -> s[0]).sum();
        long us = byNode.values().stream().mapToLong(s -> s[1]).sum();
        return states == 0 ? Double.NaN : 1000.0 * us / states;
    }

    /** Node {@code node}'s share of the states expanded, 0 to 1 (NaN when none was). */
    double stateShare(int node) {
        long states = byNode.values().stream().mapToLong(s -> s[0]).sum();
        long[] s = byNode.get(node);
        return states == 0 ? Double.NaN : (s == null ? 0.0 : (double) s[0] / states);
    }

    /**
     * The table below the search times: per mode (and, with more than one node, per node) the median over the runs of
     * the searcher CPU time per state and its ratio to plain java's; per node, the median share of the states.
     */
    static void print(PrintStream out, Map<SingleVmMode, List<StateCosts>> runs) {
        List<StateCosts> plainRuns = runs.getOrDefault(SingleVmMode.PLAIN, List.of());
        double plain = median(plainRuns.stream().mapToDouble(StateCosts::nsPerState).toArray());
        if (Double.isNaN(plain)) {
            out.println("  (no cost per search state: the runs printed no --stats lines)");
            return;
        }
        out.println();
        out.println("What a search state costs: the searcher threads' CPU time per state expanded (their --stats");
        out.println("  lines, searches 2 on), ns, median over the rounds; on 2 nodes per node, with its share of the");
        out.println("  states.");
        for (SingleVmMode mode : SingleVmMode.values()) {
            List<StateCosts> r = runs.getOrDefault(mode, List.of());
            if (mode.nodes() <= 1) {
                double ns = median(r.stream().mapToDouble(StateCosts::nsPerState).toArray());
                out.printf(Locale.ROOT, "  %-18s %8.1f ns  %6.2fx plain java%n", mode.label(), ns, ns / plain);
                continue;
            }
            for (int node = 0; node < mode.nodes(); node++) {
                int n = node;
                double ns = median(r.stream().mapToDouble(c -> c.nsPerState(n)).toArray());
                double share = median(r.stream().mapToDouble(c -> c.stateShare(n)).toArray());
                out.printf(Locale.ROOT, "  %-18s %8.1f ns  %6.2fx plain java, %3.0f%% of the states%n",
                    mode.label() + ", node " + node, ns, ns / plain, 100 * share);
            }
        }
        out.println("  (a node that holds copies of another's arrays checks each of its array accesses for a copy:");
        out.println("  docs/design/SINGLEVM.md, \"The node's own arrays once it holds copies\")");
    }

    /** The median of the values that are numbers; NaN when none is. */
    static double median(double[] values) {
        double[] v = java.util.Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
