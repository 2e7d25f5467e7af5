package dev.cumulus.profiler.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import static dev.cumulus.profiler.report.Svg.esc;

/**
 * The HTML report's {@code placements} section: a location-over-time strip per remote object (one colour per node, a
 * mark at each move), the calls-by-caller table, every migration, and the moves the calls suggest.
 */
final class PlacementSection {
    /** Most strips drawn; objects that moved come first, then the busiest. */
    static final int MAX_STRIPS = 40;
    private static final int LABEL = 150;
    private static final int ROW = 22;
    private static final int TOP = 8;
    private static final int AXIS = 36;

    private PlacementSection() {
    }

    private static final String[] MOVE_HEADER = {"time", "object", "kind", "from → to", "state bytes", "pause",
        "calls held", "reason", "outcome"};

    static void render(RunProfile p, StringBuilder sb, int width) {
        Placements pl = p.placements();
        sb.append("<section id=\"placements\"><h2>Remote objects: location over time and calls by caller</h2>\n");
        if (pl.objects().isEmpty()) {
            sb.append("<p class=\"empty\">No remote calls or migrations were recorded.</p></section>\n");
            return;
        }
        for (Placements.Suggestion s : pl.suggestions()) {
            sb.append("<p class=\"suggest\">Suggestion: ").append(esc(s.message())).append("</p>\n");
        }
        strips(p, sb, width);
        callers(p, sb);
        if (!pl.moves().isEmpty()) {
            sb.append("<h3>Migrations</h3>\n");
            HtmlReport.table(sb, MOVE_HEADER, moveRows(p));
        }
        sb.append("</section>\n");
    }

    private static List<String[]> moveRows(RunProfile p) {
        List<String[]> rows = new ArrayList<>();
        for (Placements.Move m : p.placements().moves()) {
            rows.add(new String[] {String.format(Locale.ROOT, "+%.3f s", (m.timeNs() - p.firstNs()) / 1e9), m.object(),
                m.kind(), m.from() + " → " + m.to(), Long.toString(m.stateBytes()), Units.duration(m.pauseNs()),
                Long.toString(m.callsHeld()), m.reason(), m.outcome()});
        }
        return rows;
    }

    private static void strips(RunProfile p, StringBuilder sb, int width) {
        List<Map.Entry<String, Placements.ObjectPlacement>> shown = new ArrayList<>(p.placements().objects().entrySet());
        shown.sort(Comparator.comparing((Map.Entry<String, Placements.ObjectPlacement> e) -> e.getValue().moves()
            .isEmpty()).thenComparingLong(e -> -e.getValue().calls()).thenComparing(Map.Entry::getKey));
        int total = shown.size();
        shown = shown.subList(0, Math.min(MAX_STRIPS, total));
        long t0 = p.firstNs();
        double span = Math.max(1, p.lastNs() - t0);
        int plot = width - LABEL - 12;
        int height = TOP + ROW * shown.size() + AXIS;
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"strips\" width=\"").append(width)
            .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ')
            .append(height).append("\">");
        TreeSet<Integer> nodes = new TreeSet<>();
        for (int r = 0; r < shown.size(); r++) {
            String object = shown.get(r).getKey();
            Placements.ObjectPlacement o = shown.get(r).getValue();
            int y = TOP + r * ROW;
            sb.append("<text class=\"yl\" x=\"").append(LABEL - 6).append("\" y=\"").append(y + ROW / 2 + 4)
                .append("\">").append(esc(Svg.truncate(object, 22))).append("</text>");
            List<Placements.Stay> stays = o.location(t0, p.lastNs());
            if (stays.isEmpty()) {
                sb.append("<text x=\"").append(LABEL + 4).append("\" y=\"").append(y + ROW / 2 + 4)
                    .append("\" class=\"al\">location unknown</text>");
            }
            for (Placements.Stay s : stays) {
                nodes.add(s.node());
                double x0 = LABEL + plot * (s.fromNs() - t0) / span;
                double x1 = LABEL + plot * (s.toNs() - t0) / span;
                String tip = String.format(Locale.ROOT, "%s on node %d from +%.3f s to +%.3f s", object, s.node(),
                    (s.fromNs() - t0) / 1e9, (s.toNs() - t0) / 1e9);
                sb.append("<rect class=\"stay\" x=\"").append(Svg.n(x0)).append("\" y=\"").append(y + 3)
                    .append("\" width=\"").append(Svg.n(Math.max(1, x1 - x0))).append("\" height=\"").append(ROW - 6)
                    .append("\" fill=\"").append(color(s.node())).append("\"><title>").append(esc(tip))
                    .append("</title></rect>");
                if (x1 - x0 > 44) {
                    sb.append("<text class=\"in\" x=\"").append(Svg.n(x0 + 4)).append("\" y=\"").append(y + ROW / 2 + 4)
                        .append("\">node ").append(s.node()).append("</text>");
                }
            }
            for (Placements.Move m : o.moves()) {
                double x = LABEL + plot * Math.max(0, m.timeNs() - t0) / span;
                String tip = String.format(Locale.ROOT, "+%.3f s %s %s %d → %d: %s, %d state bytes, pause %s, "
                    + "%d calls held, %s", (m.timeNs() - t0) / 1e9, object, m.kind(), m.from(), m.to(), m.outcome(),
                    m.stateBytes(), Units.duration(m.pauseNs()), m.callsHeld(), m.reason());
                sb.append("<line class=\"").append(m.moved() ? "move" : "stayed").append("\" x1=\"").append(Svg.n(x))
                    .append("\" x2=\"").append(Svg.n(x)).append("\" y1=\"").append(y).append("\" y2=\"")
                    .append(y + ROW).append("\"><title>").append(esc(tip)).append("</title></line>");
            }
        }
        int axisY = TOP + ROW * shown.size() + 4;
        sb.append("<line class=\"axis\" x1=\"").append(LABEL).append("\" x2=\"").append(LABEL + plot)
            .append("\" y1=\"").append(axisY).append("\" y2=\"").append(axisY).append("\"/>");
        for (double t : Svg.ticks(0, span / 1e9, 8)) {
            double x = LABEL + plot * t * 1e9 / span;
            sb.append("<text class=\"xl\" x=\"").append(Svg.n(x)).append("\" y=\"").append(axisY + 14).append("\">")
                .append(esc(Svg.label(t))).append("</text>");
        }
        sb.append("<text class=\"al\" x=\"").append(LABEL + plot / 2).append("\" y=\"").append(axisY + 26)
            .append("\">seconds from the run's start</text></svg>\n");
        StringBuilder legend = new StringBuilder();
        for (int n : nodes) {
            legend.append("<span class=\"key\" style=\"background:").append(color(n)).append("\"></span>node ")
                .append(n).append(' ');
        }
        sb.append("<p class=\"note\">").append(legend).append("· a dark mark is a move, a dashed one a migration "
            + "that left the object where it was");
        if (total > shown.size()) {
            sb.append(" · showing ").append(shown.size()).append(" of ").append(total)
                .append(" objects (those that moved first, then the busiest)");
        }
        sb.append("</p>\n");
    }

    private static void callers(RunProfile p, StringBuilder sb) {
        TreeSet<Integer> nodes = new TreeSet<>();
        p.placements().objects().values().forEach(o -> nodes.addAll(o.callers().keySet()));
        List<String> header = new ArrayList<>(List.of("object", "lives on", "calls", "forwarded"));
        nodes.forEach(n -> header.add("from node " + n));
        List<String[]> rows = new ArrayList<>();
        p.placements().objects().forEach((object, o) -> {
            List<String> row = new ArrayList<>();
            long calls = o.calls();
            row.add(object);
            row.add(o.node() < 0 ? "?" : "node " + o.node());
            row.add(Long.toString(calls));
            row.add(Long.toString(o.forwarded()));
            for (int n : nodes) {
                Placements.CallerCalls c = o.callers().get(n);
                if (c == null) {
                    row.add("");
                    continue;
                }
                row.add(c.calls() + (calls == 0 ? "" : String.format(Locale.ROOT, " (%.0f %%)", 100.0 * c.calls()
                    / calls)) + (c.forwarded() == 0 ? "" : ", " + c.forwarded() + " forwarded"));
            }
            rows.add(row.toArray(String[]::new));
        });
        sb.append("<h3>Calls by caller node</h3>\n");
        HtmlReport.table(sb, header.toArray(String[]::new), rows);
    }

    private static String color(int node) {
        return node < 0 ? "#9ca3af" : Svg.PALETTE[node % Svg.PALETTE.length];
    }
}
