package dev.cumulus.profiler.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.cumulus.profiler.report.Svg.esc;

/**
 * The report's sections from the JDK's own events ({@link JvmStats}, per node) and the per-call timeline
 * ({@link CallTimeline}), as text and as HTML: hot methods (a flame graph per node in HTML), allocations, garbage
 * collections, thread parks, and remote calls with both ends. Stateless.
 */
final class JvmSection {
    static final int TOP_METHODS = 8;
    /** Fewer in the text: it follows every profiled run in the terminal. */
    static final int TOP_METHODS_TEXT = 5;
    static final int TOP_ALLOCATIONS = 5;
    static final int TIMELINE_CALLS = 40;
    static final int SLOWEST_CALLS = 5;

    private JvmSection() {
    }

    // ---------------------------------------------------------------- text

    static void text(RunProfile p, StringBuilder sb, boolean micro, String nl) {
        Map<Integer, JvmStats> jvm = p.jvm();
        if (jvm.values().stream().anyMatch(j -> j.samples().total() > 0)) {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"node", "samples", "self", "method"});
            jvm.forEach((n, j) -> {
                for (JvmStats.Entry e : j.hotMethods(TOP_METHODS_TEXT)) {
                    rows.add(new String[] {Integer.toString(n), Long.toString(e.amount()),
                        pct(e.amount(), j.samples().total()), e.name()});
                }
            });
            sb.append("hot methods by node (CPU samples; self: share of the node's samples running that method; "
                + "flame graphs in profile.html):").append(nl);
            TextReport.table(sb, rows, nl, 1);
        }
        if (jvm.values().stream().anyMatch(j -> j.allocatedBytes() > 0)) {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"node", "allocated", "top types", "top sites"});
            jvm.forEach((n, j) -> rows.add(new String[] {Integer.toString(n), Units.bytes(j.allocatedBytes()),
                shares(j.allocationsByClass(3), j.allocatedBytes()),
                shares(j.allocationsBySite(2), j.allocatedBytes())}));
            sb.append("allocations by node (estimated from allocation samples; a site is the first frame outside the "
                + "JDK):").append(nl);
            TextReport.table(sb, rows, nl, 1);
        }
        if (jvm.values().stream().anyMatch(j -> j.collections() > 0 || j.parks() > 0)) {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"node", "GCs", "total pause", "max pause", "max heap after GC", "long parks",
                "parked", "most parked at"});
            jvm.forEach((n, j) -> {
                List<JvmStats.Entry> park = j.parksBySite(1);
                rows.add(new String[] {Integer.toString(n), Long.toString(j.collections()),
                    Units.duration(j.pauseNs(), micro), Units.duration(j.longestPauseNs(), micro),
                    j.maxHeapAfterGcBytes() == 0 ? "-" : Units.bytes(j.maxHeapAfterGcBytes()),
                    Long.toString(j.parks()), Units.duration(j.parkedNs(), micro),
                    park.isEmpty() ? "-" : park.getFirst().name()});
            });
            sb.append("garbage collection and long thread parks by node (parks: those over the recording's threshold, "
                + "20 ms by default):").append(nl);
            TextReport.table(sb, rows, nl, 1);
        }
        CallTimeline t = p.callTimeline();
        List<CallTimeline.Call> linked = t.calls().stream().filter(c -> c.served() != null).toList();
        if (!linked.isEmpty()) {
            List<CallTimeline.Call> slowest = new ArrayList<>(linked);
            slowest.sort((a, b) -> Long.compare(b.caller().durationNs(), a.caller().durationNs()));
            List<CallTimeline.Call> user = slowest.stream().filter(c -> !c.internal()).toList();
            List<CallTimeline.Call> shown = (user.isEmpty() ? slowest : user).stream().limit(SLOWEST_CALLS).toList();
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"call", "nodes", "round trip", "running", "outside the method"});
            for (CallTimeline.Call c : shown) {
                rows.add(new String[] {c.caller().object() + "." + c.caller().method(),
                    c.caller().callerNode() + " -> " + c.served().targetNode(),
                    Units.duration(c.caller().durationNs(), micro), Units.duration(c.served().durationNs(), micro),
                    Units.duration(c.outsideNs(), micro)});
            }
            sb.append("slowest remote calls with both ends recorded (").append(linked.size()).append(" of ")
                .append(t.calls().size()).append(" calls; running: the method on the serving node; outside: on the "
                    + "way, queued, or held at the object's gate; timeline in profile.html):").append(nl);
            TextReport.table(sb, rows, nl, 2);
        }
    }

    private static String pct(long part, long whole) {
        return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
    }

    private static String shares(List<JvmStats.Entry> entries, long whole) {
        return entries.stream().map(e -> e.name() + " " + pct(e.amount(), whole)).collect(Collectors.joining(", "));
    }

    // ---------------------------------------------------------------- HTML

    static void html(RunProfile p, StringBuilder sb, int width) {
        Map<Integer, JvmStats> jvm = p.jvm();
        sb.append("<section id=\"cpu\"><h2>Hot methods (CPU samples)</h2>\n");
        if (jvm.values().stream().noneMatch(j -> j.samples().total() > 0)) {
            sb.append("<p class=\"empty\">No CPU samples were recorded (jdk.ExecutionSample was off, or the nodes were "
                + "idle).</p>\n");
        } else {
            sb.append("<p class=\"legend\">One flame graph per node, drawn top-down: the outermost frame at the top, "
                + "each frame as wide as its share of the node's samples, the methods it called below it. Hover for "
                + "counts. Orange: the program's code; blue: Cumulus and its libraries; grey: the JDK.</p>\n");
            jvm.forEach((n, j) -> {
                if (j.samples().total() == 0) {
                    return;
                }
                sb.append(FlameGraph.svg("node " + n + ": " + j.samples().total() + " samples", j.samples(), width))
                    .append('\n');
                List<String[]> rows = new ArrayList<>();
                for (JvmStats.Entry e : j.hotMethods(TOP_METHODS)) {
                    rows.add(new String[] {e.name(), Long.toString(e.amount()), pct(e.amount(), j.samples().total())});
                }
                HtmlReport.table(sb, new String[] {"method running (node " + n + ")", "samples", "share"}, rows);
            });
        }
        sb.append("</section>\n<section id=\"memory\"><h2>Allocations and garbage collection</h2>\n");
        if (jvm.values().stream().allMatch(JvmStats::isEmpty)) {
            sb.append("<p class=\"empty\">No allocation, GC or park events were recorded.</p>\n");
        } else {
            List<String[]> rows = new ArrayList<>();
            jvm.forEach((n, j) -> rows.add(new String[] {Integer.toString(n), Units.bytes(j.allocatedBytes()),
                shares(j.allocationsByClass(TOP_ALLOCATIONS), j.allocatedBytes()),
                shares(j.allocationsBySite(TOP_ALLOCATIONS), j.allocatedBytes())}));
            HtmlReport.table(sb, new String[] {"node", "allocated", "top types", "top sites"}, rows);
            sb.append("<p class=\"legend\">allocated: bytes estimated from jdk.ObjectAllocationSample (each sample "
                + "weighs the bytes allocated since the previous one); top types and sites with their share; a site "
                + "is the first frame outside the JDK.</p>\n");
            List<String[]> gc = new ArrayList<>();
            jvm.forEach((n, j) -> {
                List<JvmStats.Entry> park = j.parksBySite(3);
                gc.add(new String[] {Integer.toString(n), Long.toString(j.collections()), Units.duration(j.pauseNs()),
                    Units.duration(j.longestPauseNs()),
                    j.maxHeapAfterGcBytes() == 0 ? "-" : Units.bytes(j.maxHeapAfterGcBytes()),
                    Long.toString(j.parks()), Units.duration(j.parkedNs()),
                    park.stream().map(e -> e.name() + " " + Units.duration(e.amount())).collect(
                        Collectors.joining(", "))});
            });
            HtmlReport.table(sb, new String[] {"node", "GCs", "total pause", "max pause", "max heap after GC",
                "long parks", "parked", "parked most at"}, gc);
            sb.append("<p class=\"legend\">GCs: collections (jdk.GarbageCollection); total and max pause: the "
                + "stop-the-world pauses they made; long parks: thread parks over the recording's threshold "
                + "(jdk.ThreadPark, 20 ms by default), their total time and where they parked most.</p>\n");
        }
        sb.append("</section>\n");
        callTimeline(p, sb, width);
    }

    private static void callTimeline(RunProfile p, StringBuilder sb, int width) {
        sb.append("<section id=\"calls\"><h2>Per-call timeline (caller and callee)</h2>\n");
        List<CallTimeline.Call> window = p.callTimeline().window(TIMELINE_CALLS);
        if (window.isEmpty()) {
            sb.append("<p class=\"empty\">No remote call was recorded at both ends (the serving side's "
                + "dev.cumulus.RemoteCallServed events are missing).</p></section>\n");
            return;
        }
        long from = window.stream().mapToLong(c -> c.caller().startNs()).min().orElse(0);
        long to = window.stream().mapToLong(c -> c.caller().endNs()).max().orElse(from + 1);
        long span = Math.max(1, to - from);
        Units.Time unit = Units.Time.suiting(span);
        int left = 260;
        int plot = width - left - 12;
        int row = 16;
        int top = 24;
        int height = top + window.size() * row + 34;
        sb.append("<p class=\"legend\">Calls around the slowest call of the program's objects, one per row: the light "
            + "bar is the call as its caller saw it (send to reply), the dark bar the method running on the serving "
            + "node (joined by caller node and call id). The gap between them is the time on the way, queued, or held "
            + "at the object's gate. Times from +0 = ").append(esc(String.format(Locale.ROOT, "%.3f s",
                (from - p.firstNs()) / 1e9))).append(" after the first event.</p>\n");
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"calls\" width=\"").append(width)
            .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ')
            .append(height).append("\" role=\"img\"><title>per-call timeline</title>");
        for (double v : Svg.ticks(0, unit.of(span), 6)) {
            double x = left + v / unit.of(span) * plot;
            sb.append("<line x1=\"").append(Svg.n(x)).append("\" x2=\"").append(Svg.n(x)).append("\" y1=\"")
                .append(top - 4).append("\" y2=\"").append(top + window.size() * row).append("\" class=\"grid\"/>")
                .append("<text x=\"").append(Svg.n(x)).append("\" y=\"").append(top + window.size() * row + 14)
                .append("\" class=\"xl\">+").append(esc(Units.tick(v))).append("</text>");
        }
        sb.append("<text x=\"").append(left + plot / 2).append("\" y=\"").append(height - 4).append("\" class=\"xl\">")
            .append(unit.symbol(true)).append(" from the window's start</text>");
        for (int i = 0; i < window.size(); i++) {
            CallTimeline.Call c = window.get(i);
            double y = top + i * row;
            String name = c.caller().object() + "." + c.caller().method() + " " + c.caller().callerNode() + "→"
                + c.caller().targetNode();
            sb.append("<text x=\"").append(left - 6).append("\" y=\"").append(Svg.n(y + row - 4))
                .append("\" class=\"yl\">").append(esc(Svg.truncate(name, 40))).append("</text>");
            bar(sb, c.caller(), from, span, left, plot, y + 2, row - 4, "#bfdbfe",
                "call " + name + ": " + Units.duration(c.caller().durationNs()) + " round trip");
            if (c.served() != null) {
                bar(sb, c.served(), from, span, left, plot, y + 4, row - 8, "#1d4ed8",
                    "served on node " + c.served().targetNode() + ": " + Units.duration(c.served().durationNs())
                        + " running" + (c.served().deferred() ? " (its reply was sent later, from another thread)" : "")
                        + ", " + Units.duration(c.outsideNs()) + " outside the method");
            }
        }
        sb.append("</svg></section>\n");
    }

    private static void bar(StringBuilder sb, CallTimeline.Span s, long from, long span, int left, int plot, double y,
                            int h, String color, String tip) {
        double x0 = left + Math.max(0, s.startNs() - from) / (double) span * plot;
        double x1 = left + Math.min(span, s.endNs() - from) / (double) span * plot;
        sb.append("<rect x=\"").append(Svg.n(x0)).append("\" y=\"").append(Svg.n(y)).append("\" width=\"")
            .append(Svg.n(Math.max(1, x1 - x0))).append("\" height=\"").append(h).append("\" fill=\"").append(color)
            .append("\"><title>").append(esc(tip)).append("</title></rect>");
    }
}
