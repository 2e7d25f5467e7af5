package dev.cumulus.profiler.report;

import dev.cumulus.profiler.figures.RuntimeObjects;
import dev.cumulus.profiler.report.RunProfile.ArrayNode;
import dev.cumulus.profiler.report.RunProfile.ArrayStats;
import dev.cumulus.profiler.report.RunProfile.CallStats;
import dev.cumulus.profiler.report.RunProfile.Cell;
import dev.cumulus.profiler.report.RunProfile.ElementStats;
import dev.cumulus.profiler.report.RunProfile.Lifecycle;
import dev.cumulus.profiler.report.RunProfile.NodeTotals;

import java.io.PrintStream;
import java.nio.charset.Charset;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A {@link RunProfile} as plain text tables, each followed by a line that explains its columns. Durations take the
 * unit that suits each value ({@link Units}); the runtime's own objects ({@code cumulus.names}, the capability
 * services, ...) have tables of their own after the program's. Scripts read {@code cumulus profile --json}, not this.
 */
public final class TextReport {
    private static final int MAX_SEQUENCER_STEPS = 16;

    private TextReport() {
    }

    /** Writes the report to {@code out} (µs when the stream can encode it, else us). */
    public static void print(RunProfile p, PrintStream out) {
        out.print(render(p, canEncode(out, 'µ') ? "µs" : "us", System.lineSeparator()));
        out.flush();
    }

    /** The report as text. */
    public static String render(RunProfile p, String us, String nl) {
        StringBuilder sb = new StringBuilder();
        List<String> recordings = p.recordings();
        sb.append("cumulus profile of ").append(p.runDir()).append(": ");
        sb.append(recordings.isEmpty() ? "no recordings" : recordings.size() + " recording"
            + (recordings.size() == 1 ? "" : "s") + " (" + String.join(", ", recordings) + ")").append(nl);
        p.problems().forEach(x -> sb.append("  warning: ").append(x).append(nl));
        if (p.isEmpty()) {
            if (p.profiled()) {
                sb.append("  no Cumulus events recorded (no remote calls and no lifecycle changes)").append(nl);
                JvmSection.text(p, sb, !us.equals("us"), nl);
            }
            return sb.toString();
        }
        boolean micro = !us.equals("us");
        remoteCalls(p, sb, micro, nl);
        placements(p, sb, micro, nl);
        clouds(p, sb, micro, nl);
        elements(p, sb, micro, nl);
        arrays(p, sb, micro, nl);
        singleVm(p, sb, micro, nl);
        other(p, sb, micro, nl);
        JvmSection.text(p, sb, micro, nl);
        nodes(p, sb, nl);
        lifecycle(p, sb, nl);
        return sb.toString();
    }

    private static void remoteCalls(RunProfile p, StringBuilder sb, boolean micro, String nl) {
        if (p.calls().isEmpty()) {
            sb.append("remote calls: none recorded").append(nl);
            return;
        }
        String[] header = {"object", "method", "calls", "async", "failed", "p50", "p99", "request bytes",
            "reply bytes", "nodes (callers -> targets)"};
        List<String[]> user = new ArrayList<>();
        List<String[]> internal = new ArrayList<>();
        user.add(header);
        internal.add(header);
        p.calls().forEach((object, methods) -> methods.forEach((method, s) ->
            (RuntimeObjects.isInternal("remote", object) ? internal : user).add(new String[] {
                object, method, Long.toString(s.calls()), Long.toString(s.asyncCalls()), Long.toString(s.failedCalls()),
                micros(s.percentileMicros(50), micro), micros(s.percentileMicros(99), micro),
                Long.toString(s.requestBytes()), Long.toString(s.replyBytes()),
                join(s.callers()) + " -> " + join(s.targets())})));
        String legend = "  columns: calls made (async: through a ticket; failed: an exception, timeout or failed "
            + "node); p50/p99: latency from send to reply as the caller saw it; bytes: arguments sent and results "
            + "returned";
        if (user.size() > 1) {
            sb.append("remote calls by object and method:").append(nl);
            table(sb, user, nl, 2);
        } else {
            sb.append("remote calls by object and method: none to the program's objects").append(nl);
        }
        if (internal.size() > 1) {
            sb.append("the runtime's own remote calls (name directory, factory, capability services):").append(nl);
            table(sb, internal, nl, 2);
        }
        sb.append(legend).append(nl);
    }

    /** A duration given in microseconds, in the unit that suits it. */
    static String micros(double us, boolean micro) {
        return Units.duration(us * 1e3, micro);
    }

    private static void placements(RunProfile p, StringBuilder sb, boolean micro, String nl) {
        Placements pl = p.placements();
        if (pl.objects().isEmpty()) {
            return;
        }
        long t0 = p.firstNs();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"object", "calls", "forwarded", "calls by caller node", "location (from the run's start)"});
        pl.objects().forEach((object, o) -> {
            long calls = o.calls();
            String byCaller = o.callers().entrySet().stream().map(en -> en.getKey() + ": " + en.getValue().calls()
                + (calls == 0 ? "" : String.format(Locale.ROOT, " (%.0f%%)", 100.0 * en.getValue().calls() / calls))
                + (en.getValue().forwarded() == 0 ? "" : " +" + en.getValue().forwarded() + " fwd"))
                .collect(Collectors.joining(", "));
            String where = o.location(t0, p.lastNs()).stream().map(st -> String.format(Locale.ROOT,
                "node %d %.3f-%.3fs", st.node(), (st.fromNs() - t0) / 1e9, (st.toNs() - t0) / 1e9))
                .collect(Collectors.joining(" -> "));
            rows.add(new String[] {object, Long.toString(calls), Long.toString(o.forwarded()), byCaller,
                where.isEmpty() ? "unknown" : where});
        });
        sb.append("remote objects: location over time and calls by caller node (forwarded: reached a forwarding "
            + "address first):").append(nl);
        table(sb, rows, nl, 1);
        if (!pl.moves().isEmpty()) {
            List<String[]> moves = new ArrayList<>();
            moves.add(new String[] {"time", "object", "kind", "from -> to", "state bytes", "pause", "calls held",
                "reason", "outcome"});
            for (Placements.Move m : pl.moves()) {
                moves.add(new String[] {String.format(Locale.ROOT, "+%.3fs", (m.timeNs() - t0) / 1e9), m.object(),
                    m.kind(), m.from() + " -> " + m.to(), Long.toString(m.stateBytes()), Units.duration(m.pauseNs(), micro),
                    Long.toString(m.callsHeld()), m.reason(), m.outcome()});
            }
            sb.append("remote object migrations:").append(nl);
            table(sb, moves, nl, 4);
        }
        for (Placements.Suggestion s : pl.suggestions()) {
            sb.append("  suggestion: ").append(s.message()).append(nl);
        }
    }

    private static void clouds(RunProfile p, StringBuilder sb, boolean micro, String nl) {
        if (p.writes().isEmpty() && p.migrations().isEmpty() && p.restarts().isEmpty()) {
            return;
        }
        if (!p.writes().isEmpty() || !p.restarts().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"cloud", "method", "writes", "restarts", "p50", "p99", "bytes",
                "writer nodes"});
            TreeSet<String> clouds = new TreeSet<>(p.writes().keySet());
            clouds.addAll(p.restarts().keySet());
            for (String cloud : clouds) {
                Map<String, CallStats> methods = p.writes().getOrDefault(cloud, Map.of());
                String restarted = Long.toString(p.restarts(cloud));
                if (methods.isEmpty()) {
                    rows.add(new String[] {cloud, "-", "0", restarted, "-", "-", "0", ""});
                }
                methods.forEach((method, s) -> rows.add(new String[] {
                    cloud, method, Long.toString(s.calls()), restarted,
                    micros(s.percentileMicros(50), micro), micros(s.percentileMicros(99), micro),
                    Long.toString(s.requestBytes()), join(s.callers())}));
            }
            sb.append("replicated writes by cloud and method (latency: call to local apply):").append(nl);
            table(sb, rows, nl, 2);
            sb.append("  columns: writes broadcast; restarts: reads that had to run again as writes; p50/p99: from the "
                + "call to its application on the writer's replica; bytes: arguments broadcast").append(nl);
        }
        long moves = p.sequencerArrivals().values().stream().mapToLong(Long::longValue).sum();
        sb.append("sequencer migrations: ").append(moves);
        if (!p.sequencerArrivals().isEmpty()) {
            sb.append(" (arrivals per node: ").append(p.sequencerArrivals().entrySet().stream()
                .map(en -> en.getKey() + "=" + en.getValue()).collect(Collectors.joining(", "))).append(')');
        }
        sb.append(nl);
        List<long[]> steps = p.sequencerLocation();
        if (!steps.isEmpty()) {
            long t0 = p.firstNs();
            sb.append("sequencer location: ");
            int shown = Math.min(steps.size(), MAX_SEQUENCER_STEPS);
            for (int i = 0; i < shown; i++) {
                long[] s = steps.get(i);
                sb.append(i == 0 ? "" : " -> ").append("node ").append(s[1])
                    .append(String.format(Locale.ROOT, " (+%.3fs)", (s[0] - t0) / 1e9));
            }
            if (steps.size() > shown) {
                sb.append(" ... ").append(steps.size() - shown).append(" more (see profile.html)");
            }
            sb.append(nl);
        }
    }

    private static void elements(RunProfile p, StringBuilder sb, boolean micro, String nl) {
        if (p.elements().isEmpty()) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"element", "moves", "observes", "remote ops", "blocked", "remote blocked",
            "round trip p50", "round trip p99", "bytes", "max distance", "nodes (callers -> homes)"});
        p.elements().forEach((name, s) -> rows.add(new String[] {name, Long.toString(s.moves()),
            Long.toString(s.observes()), Long.toString(s.remoteOperations()), Units.duration(s.blockedNs(), micro),
            Units.duration(s.remoteBlockedNs(), micro),
            s.remoteLatenciesNs().isEmpty() ? "-" : micros(s.remoteLatenciesNs().percentileMicros(50), micro),
            s.remoteLatenciesNs().isEmpty() ? "-" : micros(s.remoteLatenciesNs().percentileMicros(99), micro),
            Long.toString(s.bytes()), Long.toString(s.maxDistance()), join(s.callers()) + " -> " + join(s.homes())}));
        sb.append("tuple elements (PastSet):").append(nl);
        table(sb, rows, nl, 1);
        sb.append("  columns: moves and observes on the element (all nodes); remote ops: those from other nodes; "
            + "blocked: summed time all its operations, local and remote, waited at the element's home (no tuple yet, "
            + "or flow control); remote blocked: the part of that the remote operations waited; round trip: one "
            + "remote operation from the caller's send to its reply (its wait at home, the way there and back, and "
            + "the queue at the home's tuple-space service); bytes: tuples moved across nodes; max distance: most "
            + "tuples between the element's first and last pointers").append(nl);
    }

    private static void arrays(RunProfile p, StringBuilder sb, boolean micro, String nl) {
        if (p.arrays().isEmpty()) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"array", "node", "hits", "misses", "invalidations", "bytes sent", "bytes in",
            "hottest partition"});
        for (Map.Entry<String, ArrayStats> en : p.arrays().entrySet()) {
            ArrayStats a = en.getValue();
            for (Map.Entry<Integer, ArrayNode> n : a.nodes().entrySet()) {
                ArrayNode an = n.getValue();
                rows.add(new String[] {en.getKey(), Integer.toString(n.getKey()), Long.toString(an.hits()),
                    Long.toString(an.misses()), Long.toString(an.invalidations()), Long.toString(an.bytesSent()),
                    Long.toString(an.bytesReceived()), hottest(a, n.getKey())});
            }
        }
        sb.append("shared arrays by node:").append(nl);
        table(sb, rows, nl, 2);
        sb.append("  columns: hits and misses of this node's accesses (misses: the larger of miss events and summary "
            + "counters); invalidations of its copies; bytes sent: partition data it sent (as a home or forwarding a "
            + "copy); bytes in: data its misses brought; hottest partition: most misses and invalidations here")
            .append(nl);
        for (Map.Entry<String, ArrayStats> en : p.arrays().entrySet()) {
            ArrayStats a = en.getValue();
            if (!a.missLatenciesNs().isEmpty() || a.ownershipTransfers() > 0) {
                sb.append("  ").append(en.getKey()).append(": miss latency p50 ")
                    .append(micros(a.missLatenciesNs().percentileMicros(50), micro))
                    .append(", p99 ").append(micros(a.missLatenciesNs().percentileMicros(99), micro))
                    .append(", ownership transfers ").append(a.ownershipTransfers()).append(nl);
            }
        }
    }

    private static String hottest(ArrayStats a, int node) {
        int best = -1;
        long most = 0;
        for (Map.Entry<Integer, TreeMap<Integer, Cell>> en : a.partitions().entrySet()) {
            Cell c = en.getValue().get(node);
            if (c != null && c.misses() + c.invalidations() > most) {
                most = c.misses() + c.invalidations();
                best = en.getKey();
            }
        }
        return best < 0 ? "-" : best + " (" + most + ")";
    }

    private static void singleVm(RunProfile p, StringBuilder sb, boolean micro, String nl) {
        SingleVmHeap h = p.singleVm();
        if (h.isEmpty()) {
            return;
        }
        if (!h.fields().isEmpty()) {
            sb.append("single-VM heap: fetches and write-backs per field (the fields that move between nodes):")
                .append(nl);
            table(sb, singleVmFieldRows(h, micro, true), nl, 2);
            sb.append("  columns: fetches: reads that found the node's copy stale and fetched the object (an array's "
                + "block) from its home, attributed to the field read; fetch time: their round trips; entries: fields "
                + "or elements fetched; write-backs: releases that sent the field to its home; write-back time: their "
                + "calls' round trips, each call's shared among the objects it carried; nodes: fetching or writing -> "
                + "homes").append(nl);
        }
        if (!h.locks().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"class", "remote lock waits", "total wait", "longest", "nodes"});
            h.locks().forEach((c, s) -> rows.add(new String[] {c, Long.toString(s.waits()),
                Units.duration(s.waitNs(), micro), Units.duration(s.longestNs(), micro), join(s.nodes())}));
            sb.append("single-VM heap: monitors held at another node, by the class of the locked object:").append(nl);
            table(sb, rows, nl, 1);
        }
        if (!h.invalidations().isEmpty()) {
            sb.append("single-VM heap: cache invalidations (acquires) per node:");
            h.invalidations().forEach((n, v) -> sb.append(" node ").append(n).append(' ').append(v).append(';'));
            sb.setLength(sb.length() - 1);
            sb.append(nl);
        }
    }

    /** The per-field table's rows, the header first. */
    static List<String[]> singleVmFieldRows(SingleVmHeap h, boolean micro, boolean header) {
        List<String[]> rows = new ArrayList<>();
        if (header) {
            rows.add(new String[] {"class", "field", "fetches", "fetch time", "entries", "write-backs",
                "write-back time", "nodes"});
        }
        h.fields().forEach((c, byField) -> byField.forEach((f, s) -> rows.add(new String[] {c, f,
            Long.toString(s.fetches()), Units.duration(s.fetchNs(), micro), Long.toString(s.fetchedEntries()),
            Long.toString(s.writeBacks()), Units.duration(s.writeBackNs(), micro),
            join(s.nodes()) + " -> " + join(s.homes())})));
        return rows;
    }

    private static void other(RunProfile p, StringBuilder sb, boolean micro, String nl) {
        if (p.other().isEmpty()) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"event and key", "count", "total time", "longest", "bytes", "nodes"});
        p.other().forEach((k, s) -> rows.add(new String[] {k, Long.toString(s.count()),
            Units.duration(s.totalDurationNs(), micro), Units.duration(s.maxDurationNs(), micro),
            Long.toString(s.bytes()), join(s.nodes())}));
        sb.append("other Cumulus events:").append(nl);
        table(sb, rows, nl, 1);
        sb.append("  columns: events by type and key (a barrier's name, ...); total time and longest: the events' "
            + "durations (a barrier wait: until every node arrived)").append(nl);
    }

    private static void nodes(RunProfile p, StringBuilder sb, String nl) {
        if (p.nodes().isEmpty()) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"node", "events", "remote calls", "failed", "writes", "sequencer arrivals",
            "tuple ops", "array misses", "bytes sent"});
        p.nodes().forEach((n, t) -> rows.add(new String[] {Integer.toString(n), Long.toString(t.events()),
            Long.toString(t.remoteCalls()), Long.toString(t.failedCalls()), Long.toString(t.writes()),
            Long.toString(t.sequencerArrivals()), Long.toString(t.tupleOperations()),
            Long.toString(t.arrayMisses()), Long.toString(t.bytes())}));
        sb.append("per node totals (calls, writes and tuple operations the node made):").append(nl);
        table(sb, rows, nl, 1);
        sb.append("  columns: events: Cumulus events about the node; bytes sent: remote-call arguments, writes, "
            + "tuples and array partition data it sent").append(nl);
    }

    private static void lifecycle(RunProfile p, StringBuilder sb, String nl) {
        if (p.lifecycle().isEmpty()) {
            sb.append("lifecycle: none recorded").append(nl);
            return;
        }
        sb.append("lifecycle:").append(nl);
        Instant t0 = p.lifecycle().getFirst().time();
        for (Lifecycle l : p.lifecycle()) {
            Duration d = Duration.between(t0, l.time());
            sb.append(String.format(Locale.ROOT, "  +%.3fs  node %d  %s", d.toNanos() / 1e9, l.node(), l.phase()));
            if (l.subject() != l.node()) {
                sb.append(" (node ").append(l.subject()).append(')');
            }
            if (!l.detail().isEmpty()) {
                sb.append(": ").append(l.detail());
            }
            sb.append(nl);
        }
    }

    /** Rows with the first {@code leftCols} columns and the last one left-aligned, the others right-aligned. */
    static void table(StringBuilder sb, List<String[]> rows, String nl, int leftCols) {
        int cols = rows.getFirst().length;
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < cols; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            sb.append(' ');
            for (int i = 0; i < cols; i++) {
                boolean left = i < leftCols || i == cols - 1;
                String cell = pad(r[i], width[i], left);
                sb.append(' ').append(i == cols - 1 ? cell.stripTrailing() : cell);
            }
            sb.append(nl);
        }
    }

    private static String pad(String s, int width, boolean left) {
        String fill = " ".repeat(width - s.length());
        return left ? s + fill : fill + s;
    }

    static String join(TreeSet<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static boolean canEncode(PrintStream out, char c) {
        try {
            Charset cs = out.charset();
            return cs.newEncoder().canEncode(c);
        } catch (RuntimeException e) {
            return false;
        }
    }
}
