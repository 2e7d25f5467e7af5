package dev.cumulus.profiler.report;

import dev.cumulus.profiler.Latencies;
import dev.cumulus.profiler.figures.RuntimeObjects;
import dev.cumulus.profiler.report.RunProfile.ArrayNode;
import dev.cumulus.profiler.report.RunProfile.ArrayStats;
import dev.cumulus.profiler.report.RunProfile.CallStats;
import dev.cumulus.profiler.report.RunProfile.Cell;
import dev.cumulus.profiler.report.RunProfile.Lifecycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.cumulus.profiler.report.Svg.esc;

/**
 * A {@link RunProfile} as one self-contained HTML page (inline CSS, SVG and a few lines of JS; nothing fetched from
 * the network): charts of replicated writes and their latency over time per cloud, the sequencer's location over
 * time, remote-call latency over time, each remote object's location over time with its calls by caller node, a
 * per-partition miss heat map per shared array, and every table of the text report. Section ids: {@code clouds},
 * {@code sequencer}, {@code remote}, {@code placements}, {@code arrays}, {@code elements},
 * {@code other}, {@code nodes}, {@code lifecycle}.
 */
public final class HtmlReport {
    /** Most series one chart draws; the busiest objects are kept. */
    static final int MAX_SERIES = 8;
    /** Most partition columns of a heat map; beyond that, neighbouring partitions share a column. */
    static final int MAX_COLUMNS = 128;
    private static final int BUCKETS = 40;
    private static final int WIDTH = 760;

    private HtmlReport() {
    }

    /** Writes the page to {@code file}. */
    public static void write(RunProfile p, Path file) throws IOException {
        Files.writeString(file, render(p), StandardCharsets.UTF_8);
    }

    public static String render(RunProfile p) {
        StringBuilder sb = new StringBuilder(64 * 1024);
        String title = "Cumulus profile: " + p.runDir().getFileName();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(esc(title))
            .append("</title>\n<style>").append(CSS).append("</style></head><body>\n");
        sb.append("<h1>").append(esc(title)).append("</h1>\n<p class=\"meta\">Run directory <code>")
            .append(esc(p.runDir().toString())).append("</code> · ");
        sb.append(p.recordings().isEmpty() ? "no recordings" : p.recordings().size() + " recording"
            + (p.recordings().size() == 1 ? "" : "s") + " (" + esc(String.join(", ", p.recordings())) + ")");
        if (p.lastNs() > 0) {
            sb.append(String.format(Locale.ROOT, " · %.3f s of events", (p.lastNs() - p.firstNs()) / 1e9));
        }
        sb.append("</p>\n");
        for (String problem : p.problems()) {
            sb.append("<p class=\"warn\">warning: ").append(esc(problem)).append("</p>\n");
        }
        if (p.isEmpty()) {
            sb.append("<p class=\"empty\">No Cumulus events were recorded in this run.</p>\n");
        }
        sb.append("<nav><a href=\"#clouds\">clouds</a> <a href=\"#sequencer\">sequencer</a> <a href=\"#remote\">"
            + "remote objects</a> <a href=\"#placements\">object locations</a> <a href=\"#arrays\">shared arrays</a> <a href=\"#singlevm\">single-VM heap</a> "
            + "<a href=\"#elements\">tuple elements</a> <a href=\"#other\">other events</a> <a href=\"#cpu\">hot "
            + "methods</a> <a href=\"#memory\">allocations and GC</a> <a href=\"#calls\">per-call timeline</a> "
            + "<a href=\"#nodes\">nodes</a> <a href=\"#lifecycle\">lifecycle</a></nav>\n");
        double span = Math.max(1e-3, (p.lastNs() - p.firstNs()) / 1e9);
        clouds(p, sb, span);
        sequencer(p, sb, span);
        remote(p, sb, span);
        PlacementSection.render(p, sb, WIDTH);
        arrays(p, sb);
        singleVm(p, sb);
        elements(p, sb);
        other(p, sb);
        JvmSection.html(p, sb, WIDTH + 200);
        nodes(p, sb);
        lifecycle(p, sb);
        sb.append("<footer>Times are from each node's JFR clock (one host: one clock). Latency of a write: from the call "
            + "to its application on the writer's replica; of a remote call: send to reply, as the caller saw it."
            + "</footer>\n<script>").append(JS).append("</script>\n</body></html>\n");
        return sb.toString();
    }

    // ---------------------------------------------------------------- sections

    private static void clouds(RunProfile p, StringBuilder sb, double span) {
        sb.append("<section id=\"clouds\"><h2>Replicated objects (clouds)</h2>\n");
        if (p.writes().isEmpty() && p.restarts().isEmpty()) {
            sb.append("<p class=\"empty\">No replicated writes were recorded.</p></section>\n");
            return;
        }
        for (Map.Entry<String, Map<String, CallStats>> en : p.writes().entrySet()) {
            Series s = series(p, en.getValue().values(), span);
            List<Svg.Series> count = List.of(new Svg.Series("writes", Svg.PALETTE[0], s.x, s.count, Svg.Style.BARS));
            Units.Time unit = unitOf(s.p99);
            List<Svg.Series> lat = List.of(
                new Svg.Series("p50", Svg.PALETTE[2], s.x, scale(s.p50, unit), Svg.Style.LINE),
                new Svg.Series("p99", Svg.PALETTE[1], s.x, scale(s.p99, unit), Svg.Style.LINE));
            sb.append("<div class=\"row\">")
                .append(Svg.chart("cloud " + en.getKey() + ": writes per " + Units.duration(span * 1e9 / BUCKETS),
                    "writes", span, count, null, WIDTH / 2 - 6, 220))
                .append(Svg.chart("cloud " + en.getKey() + ": time to local apply", unit.symbol(true), span, lat,
                    null, WIDTH / 2 - 6, 220))
                .append("</div>\n");
        }
        List<String[]> rows = new ArrayList<>();
        TreeSet<String> clouds = new TreeSet<>(p.writes().keySet());
        clouds.addAll(p.restarts().keySet());
        for (String cloud : clouds) {
            Map<String, CallStats> methods = p.writes().getOrDefault(cloud, Map.of());
            if (methods.isEmpty()) {
                rows.add(new String[] {cloud, "-", "0", Long.toString(p.restarts(cloud)), "", "", "0", ""});
            }
            methods.forEach((m, s) -> rows.add(new String[] {cloud, m, Long.toString(s.calls()),
                Long.toString(p.restarts(cloud)), Units.micros(s.percentileMicros(50)),
                Units.micros(s.percentileMicros(99)), Long.toString(s.requestBytes()), TextReport.join(s.callers())}));
        }
        table(sb, new String[] {"cloud", "method", "writes", "restarts", "p50", "p99", "bytes", "writers"},
            rows);
        legend(sb, "writes: broadcast; restarts: reads that had to run again as writes; p50/p99: from the call to its "
            + "application on the writer's replica; bytes: arguments broadcast.");
        sb.append("</section>\n");
    }

    private static void sequencer(RunProfile p, StringBuilder sb, double span) {
        sb.append("<section id=\"sequencer\"><h2>Sequencer location over time</h2>\n");
        List<long[]> steps = p.sequencerLocation();
        if (steps.isEmpty()) {
            sb.append("<p class=\"empty\">The sequencer never migrated (no migrations recorded).</p></section>\n");
            return;
        }
        TreeSet<Integer> nodes = p.allNodes();
        steps.forEach(s -> nodes.add((int) s[1]));
        int maxNode = nodes.isEmpty() ? 0 : Math.max(0, nodes.last());
        List<String> cats = new ArrayList<>();
        for (int i = 0; i <= maxNode; i++) {
            cats.add("node " + i);
        }
        double[] xs = new double[steps.size()];
        double[] ys = new double[steps.size()];
        for (int i = 0; i < steps.size(); i++) {
            xs[i] = Math.max(0, (steps.get(i)[0] - p.firstNs()) / 1e9);
            ys[i] = steps.get(i)[1];
        }
        sb.append(Svg.chart("sequencer location (" + p.migrations().size() + " migrations)", "node", span,
            List.of(new Svg.Series("sequencer", Svg.PALETTE[4], xs, ys, Svg.Style.STEP)), cats, WIDTH,
            Math.max(140, 70 + 26 * cats.size())));
        StringBuilder arrivals = new StringBuilder();
        p.sequencerArrivals().forEach((n, c) -> arrivals.append(arrivals.isEmpty() ? "" : ", ").append("node ")
            .append(n).append(": ").append(c));
        sb.append("<p>Arrivals per node: ").append(esc(arrivals.toString())).append("</p></section>\n");
    }

    private static void remote(RunProfile p, StringBuilder sb, double span) {
        sb.append("<section id=\"remote\"><h2>Remote objects</h2>\n");
        if (p.calls().isEmpty()) {
            sb.append("<p class=\"empty\">No remote calls were recorded.</p></section>\n");
            return;
        }
        List<Map.Entry<String, Map<String, CallStats>>> user = new ArrayList<>();
        List<Map.Entry<String, Map<String, CallStats>>> internal = new ArrayList<>();
        for (Map.Entry<String, Map<String, CallStats>> e : p.calls().entrySet()) {
            (RuntimeObjects.isInternal("remote", e.getKey()) ? internal : user).add(e);
        }
        List<Map.Entry<String, Map<String, CallStats>>> busiest = new ArrayList<>(user.isEmpty() ? internal : user);
        busiest.sort(Comparator.comparingLong((Map.Entry<String, Map<String, CallStats>> e) ->
            -e.getValue().values().stream().mapToLong(CallStats::calls).sum()));
        List<Series> all = new ArrayList<>();
        for (int i = 0; i < Math.min(MAX_SERIES, busiest.size()); i++) {
            all.add(series(p, busiest.get(i).getValue().values(), span));
        }
        Units.Time unit = unitOf(all.stream().flatMapToDouble(x -> Arrays.stream(x.p99)).toArray());
        List<Svg.Series> lat = new ArrayList<>();
        List<Svg.Series> count = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Series s = all.get(i);
            String color = Svg.PALETTE[i % Svg.PALETTE.length];
            lat.add(new Svg.Series(busiest.get(i).getKey(), color, s.x, scale(s.p99, unit), Svg.Style.LINE));
            count.add(new Svg.Series(busiest.get(i).getKey(), color, s.x, s.count, Svg.Style.LINE));
        }
        String whose = user.isEmpty() ? "the runtime's own objects" : "the program's objects";
        sb.append(Svg.chart("remote call latency over time (p99 per interval, caller's view; " + whose + ")",
            unit.symbol(true), span, lat, null, WIDTH, 240)).append('\n');
        sb.append(Svg.chart("remote calls per " + Units.duration(span * 1e9 / BUCKETS) + " (" + whose + ")", "calls",
            span, count, null, WIDTH, 200)).append('\n');
        if (busiest.size() > MAX_SERIES) {
            sb.append("<p class=\"note\">Charts show the ").append(MAX_SERIES).append(" busiest of ")
                .append(busiest.size()).append(" objects.</p>");
        }
        String[] header = {"object", "method", "calls", "async", "failed", "p50", "p99", "request bytes",
            "reply bytes", "callers → targets"};
        if (!user.isEmpty()) {
            table(sb, header, callRows(user));
        } else {
            sb.append("<p class=\"empty\">The program made no remote calls of its own.</p>\n");
        }
        if (!internal.isEmpty()) {
            sb.append("<h3>The runtime's own objects</h3>\n<p class=\"note\">Calls Cumulus made for the program: the "
                + "name directory (cumulus.names), remote creation (cumulus.factory), the shared arrays' and tuple "
                + "space's services.</p>\n");
            table(sb, header, callRows(internal));
        }
        legend(sb, "calls made (async: through a ticket; failed: an exception, timeout or failed node); p50/p99: "
            + "latency from send to reply as the caller saw it; bytes: arguments sent and results returned; charts "
            + "count calls per interval, not rates.");
        sb.append("</section>\n");
    }

    private static List<String[]> callRows(List<Map.Entry<String, Map<String, CallStats>>> objects) {
        List<String[]> rows = new ArrayList<>();
        objects.forEach(en -> en.getValue().forEach((m, s) -> rows.add(new String[] {en.getKey(), m,
            Long.toString(s.calls()), Long.toString(s.asyncCalls()), Long.toString(s.failedCalls()),
            Units.micros(s.percentileMicros(50)), Units.micros(s.percentileMicros(99)),
            Long.toString(s.requestBytes()), Long.toString(s.replyBytes()),
            TextReport.join(s.callers()) + " → " + TextReport.join(s.targets())})));
        return rows;
    }

    /** The unit that suits the largest of {@code micros} (values in µs). */
    private static Units.Time unitOf(double[] micros) {
        double max = 0;
        for (double v : micros) {
            max = Math.max(max, v);
        }
        return Units.Time.suiting(max * 1e3);
    }

    private static double[] scale(double[] micros, Units.Time unit) {
        double[] out = new double[micros.length];
        for (int i = 0; i < micros.length; i++) {
            out[i] = unit.of(micros[i] * 1e3);
        }
        return out;
    }

    static void legend(StringBuilder sb, String text) {
        sb.append("<p class=\"legend\">").append(esc(text)).append("</p>\n");
    }

    private static void arrays(RunProfile p, StringBuilder sb) {
        sb.append("<section id=\"arrays\"><h2>Shared arrays: misses per partition and node</h2>\n");
        boolean any = false;
        for (Map.Entry<String, ArrayStats> en : p.arrays().entrySet()) {
            ArrayStats a = en.getValue();
            if (a.partitions().isEmpty()) {
                continue;
            }
            any = true;
            TreeSet<Integer> nodes = new TreeSet<>();
            a.partitions().values().forEach(m -> nodes.addAll(m.keySet()));
            int lo = a.partitions().firstKey();
            int hi = a.partitions().lastKey();
            int count = hi - lo + 1;
            int per = (int) Math.ceil(count / (double) MAX_COLUMNS);
            int cols = (int) Math.ceil(count / (double) per);
            List<Integer> nodeList = new ArrayList<>(nodes);
            long[][] values = new long[nodeList.size()][cols];
            long[][] inval = new long[nodeList.size()][cols];
            long[][] bytes = new long[nodeList.size()][cols];
            for (Map.Entry<Integer, TreeMap<Integer, Cell>> part : a.partitions().entrySet()) {
                int c = (part.getKey() - lo) / per;
                for (Map.Entry<Integer, Cell> cell : part.getValue().entrySet()) {
                    int r = nodeList.indexOf(cell.getKey());
                    values[r][c] += cell.getValue().misses();
                    inval[r][c] += cell.getValue().invalidations();
                    bytes[r][c] += cell.getValue().bytes();
                }
            }
            List<String> rowLabels = nodeList.stream().map(n -> "node " + n).toList();
            List<String> colLabels = new ArrayList<>();
            String[][] tips = new String[nodeList.size()][cols];
            for (int c = 0; c < cols; c++) {
                int from = lo + c * per;
                int to = Math.min(hi, from + per - 1);
                String range = from == to ? Integer.toString(from) : from + "-" + to;
                colLabels.add(range);
                for (int r = 0; r < nodeList.size(); r++) {
                    tips[r][c] = en.getKey() + " partition " + range + ", node " + nodeList.get(r) + ": "
                        + values[r][c] + " misses bringing " + Units.bytes(bytes[r][c]) + ", " + inval[r][c]
                        + " invalidations";
                }
            }
            sb.append(Svg.heatMap("array " + en.getKey() + (per > 1 ? " (" + per + " partitions per column)" : ""),
                rowLabels, colLabels, values, tips)).append('\n');
        }
        if (!any) {
            sb.append("<p class=\"empty\">No shared-array misses were recorded in this run (no events with array and "
                + "partition fields).</p>\n");
        }
        if (!p.arrays().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            p.arrays().forEach((name, a) -> a.nodes().forEach((n, an) -> rows.add(new String[] {name,
                Integer.toString(n), Long.toString(an.hits()), Long.toString(an.misses()),
                Long.toString(an.invalidations()), Long.toString(an.bytesSent()),
                Long.toString(an.bytesReceived())})));
            table(sb, new String[] {"array", "node", "hits", "misses", "invalidations", "bytes sent", "bytes in"},
                rows);
            legend(sb, "hits and misses of the node's accesses (misses: the larger of miss events and summary "
                + "counters); invalidations of its copies; bytes sent: partition data it sent (as a home, or "
                + "forwarding a copy); bytes in: data its misses brought. Heat maps: misses per partition and node.");
        }
        sb.append("</section>\n");
    }

    private static void elements(RunProfile p, StringBuilder sb) {
        sb.append("<section id=\"elements\"><h2>Tuple elements (PastSet)</h2>\n");
        if (p.elements().isEmpty()) {
            sb.append("<p class=\"empty\">No tuple operations were recorded.</p></section>\n");
            return;
        }
        List<String[]> rows = new ArrayList<>();
        p.elements().forEach((name, s) -> rows.add(new String[] {name, Long.toString(s.moves()),
            Long.toString(s.observes()), Long.toString(s.remoteOperations()), Units.duration(s.blockedNs()),
            Units.duration(s.remoteBlockedNs()),
            s.remoteLatenciesNs().isEmpty() ? "-" : Units.micros(s.remoteLatenciesNs().percentileMicros(50)),
            s.remoteLatenciesNs().isEmpty() ? "-" : Units.micros(s.remoteLatenciesNs().percentileMicros(99)),
            Long.toString(s.bytes()), Long.toString(s.maxDistance()),
            TextReport.join(s.callers()) + " → " + TextReport.join(s.homes())}));
        table(sb, new String[] {"element", "moves", "observes", "remote ops", "blocked", "remote blocked",
            "round trip p50", "round trip p99", "bytes", "max distance", "callers → homes"}, rows);
        legend(sb, "moves and observes on the element (all nodes); remote ops: those from other nodes; blocked: summed "
            + "time all its operations, local and remote, waited at the element's home (no tuple yet, or flow "
            + "control); remote blocked: the part of that the remote operations waited; round trip: one remote "
            + "operation from the caller's send to its reply (its wait at home, the way there and back, and the queue "
            + "at the home's tuple-space service); bytes: tuples moved across nodes; max distance: most tuples "
            + "between the element's first and last pointers.");
        sb.append("</section>\n");
    }

    private static void singleVm(RunProfile p, StringBuilder sb) {
        sb.append("<section id=\"singlevm\"><h2>Single-VM heap: fields that move between nodes</h2>\n");
        SingleVmHeap h = p.singleVm();
        if (h.isEmpty()) {
            sb.append("<p class=\"empty\">Not a single-VM run (cumulus run --single-vm), or nothing was fetched.</p>"
                + "</section>\n");
            return;
        }
        if (!h.fields().isEmpty()) {
            table(sb, new String[] {"class", "field", "fetches", "fetch time", "entries", "write-backs",
                "write-back time", "nodes"}, TextReport.singleVmFieldRows(h, true, false));
            legend(sb, "fetches: reads that found the node's copy stale and fetched the object (an array's block) from "
                + "its home, attributed to the field read; fetch time: their round trips; entries: fields or elements "
                + "fetched; write-backs: releases that sent the field to its home; nodes: fetching or writing → homes.");
        }
        if (!h.locks().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            h.locks().forEach((c, s) -> rows.add(new String[] {c, Long.toString(s.waits()),
                Units.duration(s.waitNs()), Units.duration(s.longestNs()), TextReport.join(s.nodes())}));
            sb.append("<h3>Monitors held at another node</h3>\n");
            table(sb, new String[] {"class", "remote lock waits", "total wait", "longest", "nodes"}, rows);
        }
        if (!h.invalidations().isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            h.invalidations().forEach((n, v) -> rows.add(new String[] {Integer.toString(n), Long.toString(v)}));
            sb.append("<h3>Cache invalidations (acquires)</h3>\n");
            table(sb, new String[] {"node", "invalidations"}, rows);
        }
        sb.append("</section>\n");
    }

    private static void other(RunProfile p, StringBuilder sb) {
        sb.append("<section id=\"other\"><h2>Other Cumulus events</h2>\n");
        if (p.other().isEmpty()) {
            sb.append("<p class=\"empty\">None.</p></section>\n");
            return;
        }
        List<String[]> rows = new ArrayList<>();
        p.other().forEach((k, s) -> rows.add(new String[] {k, Long.toString(s.count()),
            Units.duration(s.totalDurationNs()), Units.duration(s.maxDurationNs()),
            Long.toString(s.bytes()), TextReport.join(s.nodes())}));
        table(sb, new String[] {"event and key", "count", "total time", "longest", "bytes", "nodes"}, rows);
        legend(sb, "events by type and key (a barrier's name, ...); total time and longest: the events' durations (a "
            + "barrier wait: until every node arrived).");
        sb.append("</section>\n");
    }

    private static void nodes(RunProfile p, StringBuilder sb) {
        sb.append("<section id=\"nodes\"><h2>Per node totals</h2>\n");
        if (p.nodes().isEmpty()) {
            sb.append("<p class=\"empty\">No events.</p></section>\n");
            return;
        }
        List<String[]> rows = new ArrayList<>();
        p.nodes().forEach((n, t) -> rows.add(new String[] {Integer.toString(n), Long.toString(t.events()),
            Long.toString(t.remoteCalls()), Long.toString(t.failedCalls()), Long.toString(t.writes()),
            Long.toString(t.sequencerArrivals()), Long.toString(t.tupleOperations()), Long.toString(t.arrayMisses()),
            Long.toString(t.bytes())}));
        table(sb, new String[] {"node", "events", "remote calls", "failed", "writes", "sequencer arrivals",
            "tuple ops", "array misses", "bytes sent"}, rows);
        legend(sb, "calls, writes and tuple operations the node made; events: Cumulus events about the node; bytes "
            + "sent: remote-call arguments, writes, tuples and array partition data it sent.");
        sb.append("</section>\n");
    }

    private static void lifecycle(RunProfile p, StringBuilder sb) {
        sb.append("<section id=\"lifecycle\"><h2>Lifecycle</h2>\n");
        if (p.lifecycle().isEmpty()) {
            sb.append("<p class=\"empty\">No lifecycle changes were recorded.</p></section>\n");
            return;
        }
        long t0 = p.lifecycle().getFirst().time().toEpochMilli();
        List<String[]> rows = new ArrayList<>();
        for (Lifecycle l : p.lifecycle()) {
            rows.add(new String[] {String.format(Locale.ROOT, "+%.3f s", (l.time().toEpochMilli() - t0) / 1e3),
                Integer.toString(l.node()), l.phase(), l.subject() == l.node() ? "" : "node " + l.subject(),
                l.detail()});
        }
        table(sb, new String[] {"time", "node", "phase", "about", "detail"}, rows);
        sb.append("</section>\n");
    }

    // ---------------------------------------------------------------- helpers

    /** Per-interval call counts and latency percentiles (µs) of some calls, over the run's span. */
    private record Series(double[] x, double[] count, double[] p50, double[] p99) {
    }

    private static Series series(RunProfile p, Iterable<CallStats> stats, double spanSec) {
        int buckets = BUCKETS;
        double width = spanSec / buckets;
        Latencies[] lat = new Latencies[buckets];
        for (int i = 0; i < buckets; i++) {
            lat[i] = new Latencies();
        }
        for (CallStats s : stats) {
            s.timeline().forEachSlot((middleNs, slot) -> {
                double t = (middleNs - p.firstNs()) / 1e9;
                int b = (int) Math.min(buckets - 1, Math.max(0, Math.floor(t / width)));
                lat[b].addAll(slot);
            });
        }
        double[] x = new double[buckets];
        double[] count = new double[buckets];
        double[] p50 = new double[buckets];
        double[] p99 = new double[buckets];
        int n = 0;
        for (int i = 0; i < buckets; i++) {
            if (lat[i].isEmpty()) {
                continue;
            }
            x[n] = (i + 0.5) * width;
            count[n] = lat[i].count();
            p50[n] = lat[i].percentileMicros(50);
            p99[n] = lat[i].percentileMicros(99);
            n++;
        }
        return new Series(Arrays.copyOf(x, n), Arrays.copyOf(count, n), Arrays.copyOf(p50, n), Arrays.copyOf(p99, n));
    }

    static void table(StringBuilder sb, String[] header, List<String[]> rows) {
        sb.append("<table class=\"sortable\"><thead><tr>");
        for (String h : header) {
            sb.append("<th>").append(esc(h)).append("</th>");
        }
        sb.append("</tr></thead><tbody>\n");
        for (String[] r : rows) {
            sb.append("<tr>");
            for (String c : r) {
                boolean num = !c.isEmpty() && Character.isDigit(c.charAt(0))
                    && c.chars().allMatch(ch -> Character.isDigit(ch) || ".-% µnsmKiBGT".indexOf(ch) >= 0);
                sb.append(num ? "<td class=\"n\">" : "<td>").append(esc(c)).append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</tbody></table>\n");
    }

    private static final String CSS = """
        body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1000px;\
        color:#111827;padding:0 16px}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #e5e7eb;\
        padding-bottom:4px}
        .meta{color:#4b5563;margin:0 0 8px}.warn{color:#b45309}.empty{color:#6b7280;font-style:italic}\
        .note{color:#6b7280}
        nav a{margin-right:10px;color:#2563eb;text-decoration:none}
        table{border-collapse:collapse;margin:8px 0 4px;font-size:13px}
        th,td{border-bottom:1px solid #e5e7eb;padding:3px 10px;text-align:left;overflow-wrap:anywhere}
        th{background:#f3f4f6;cursor:pointer;user-select:none}td.n{text-align:right;font-variant-numeric:tabular-nums}
        .row{display:flex;gap:12px;flex-wrap:wrap}
        svg{margin:6px 0;background:#fff}svg .plot{fill:#fafafa;stroke:#d1d5db}svg .grid{stroke:#e5e7eb}\
        svg .axis{stroke:#6b7280}
        svg text{font:11px system-ui,sans-serif;fill:#374151}svg .t{font-weight:600;font-size:12px}\
        svg .yl{text-anchor:end}svg .xl{text-anchor:middle}svg .al{text-anchor:middle;fill:#6b7280}\
        svg .cell{stroke:#f3f4f6}
        svg .in{fill:#fff;font-size:11px}svg .move{stroke:#111827;stroke-width:2}\
        svg .stayed{stroke:#111827;stroke-width:1.5;stroke-dasharray:3 2}
        .legend{color:#4b5563;font-size:12px;margin:2px 0 10px}h3{font-size:15px;margin:18px 0 4px}
        svg .fl{font-size:10px;fill:#111827}svg .ll{text-anchor:start;fill:#6b7280}
        .key{display:inline-block;width:10px;height:10px;margin:0 3px 0 6px}.suggest{color:#1d4ed8;font-weight:600}
        footer{margin-top:32px;color:#6b7280;font-size:12px}
        """;

    private static final String JS = """
        document.querySelectorAll('table.sortable th').forEach(function(th){th.addEventListener('click',function(){\
        var t=th.closest('table'),b=t.tBodies[0],i=Array.prototype.indexOf.call(th.parentNode.children,th),\
        d=th.dataset.d==='a'?'d':'a';th.dataset.d=d;var rows=Array.prototype.slice.call(b.rows);\
        rows.sort(function(x,y){var p=x.cells[i].textContent,q=y.cells[i].textContent,a=parseFloat(p),c=parseFloat(q);\
        var r=(!isNaN(a)&&!isNaN(c))?a-c:p.localeCompare(q);return d==='a'?r:-r;});\
        rows.forEach(function(r){b.appendChild(r);});});});
        """;
}
