package dev.cumulus.profiler.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Inline SVG charts for the HTML report: line, step and bar series over time, and heat maps. Every chart is a
 * well-formed XML element of its own ({@code <svg xmlns=...>}), with text escaped, so it parses as XML.
 */
final class Svg {
    static final String[] PALETTE = {"#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777",
        "#4b5563"};
    private static final int LEFT = 56;
    private static final int RIGHT = 16;
    private static final int TOP = 40;
    private static final int BOTTOM = 40;

    enum Style { LINE, STEP, BARS, POINTS }

    /** One series: x in seconds from the run's start, y in the chart's unit. */
    record Series(String name, String color, double[] xs, double[] ys, Style style) {
    }

    private Svg() {
    }

    static String esc(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> {
                    if (c >= 0x20 || c == '\n' || c == '\t') {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    static String n(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** Ticks at 1, 2 or 5 times a power of ten covering [lo, hi]. */
    static List<Double> ticks(double lo, double hi, int target) {
        List<Double> t = new ArrayList<>();
        if (!(hi > lo)) {
            t.add(lo);
            return t;
        }
        double raw = (hi - lo) / Math.max(1, target);
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
        for (double v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
            t.add(Math.abs(v) < step * 1e-9 ? 0 : v);
        }
        return t;
    }

    static String label(double v) {
        if (Math.abs(v) >= 1e6) {
            return trim(v / 1e6) + "M";
        }
        if (Math.abs(v) >= 1e4) {
            return trim(v / 1e3) + "k";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e12) {
            return Long.toString((long) v);
        }
        return Units.tick(v);
    }

    /**
     * A chart of series over time. {@code yCategories}, when not null, labels integer y values (node ids) and draws
     * them as lanes.
     */
    static String chart(String title, String yLabel, double xMax, List<Series> series, List<String> yCategories,
                        int width, int height) {
        double yMax = 0;
        for (Series s : series) {
            for (double y : s.ys()) {
                yMax = Math.max(yMax, y);
            }
        }
        double yLo = 0;
        double yHi;
        if (yCategories != null) {
            yLo = -0.5;
            yHi = yCategories.size() - 0.5;
        } else {
            yHi = yMax <= 0 ? 1 : yMax * 1.1;
        }
        double xHi = xMax <= 0 ? 1 : xMax;
        int pw = width - LEFT - RIGHT;
        int ph = height - TOP - BOTTOM;
        StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"").append(width)
            .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ')
            .append(height).append("\" role=\"img\"><title>").append(esc(title)).append("</title>");
        sb.append("<text x=\"").append(LEFT).append("\" y=\"16\" class=\"t\">").append(esc(title)).append("</text>");
        sb.append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(pw)
            .append("\" height=\"").append(ph).append("\" class=\"plot\"/>");
        // y axis
        if (yCategories != null) {
            for (int i = 0; i < yCategories.size(); i++) {
                double y = TOP + ph - (i - yLo) / (yHi - yLo) * ph;
                sb.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + pw).append("\" y1=\"")
                    .append(n(y)).append("\" y2=\"").append(n(y)).append("\" class=\"grid\"/>");
                sb.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(n(y + 4))
                    .append("\" class=\"yl\">").append(esc(yCategories.get(i))).append("</text>");
            }
        } else {
            for (double v : ticks(yLo, yHi, 4)) {
                double y = TOP + ph - (v - yLo) / (yHi - yLo) * ph;
                sb.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + pw).append("\" y1=\"")
                    .append(n(y)).append("\" y2=\"").append(n(y)).append("\" class=\"grid\"/>");
                sb.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(n(y + 4))
                    .append("\" class=\"yl\">").append(esc(label(v))).append("</text>");
            }
        }
        sb.append("<text x=\"12\" y=\"").append(n(TOP + ph / 2.0)).append("\" class=\"al\" transform=\"rotate(-90 12 ")
            .append(n(TOP + ph / 2.0)).append(")\">").append(esc(yLabel)).append("</text>");
        // x axis
        for (double v : ticks(0, xHi, 8)) {
            double x = LEFT + v / xHi * pw;
            sb.append("<line x1=\"").append(n(x)).append("\" x2=\"").append(n(x)).append("\" y1=\"")
                .append(TOP + ph).append("\" y2=\"").append(TOP + ph + 4).append("\" class=\"axis\"/>");
            sb.append("<text x=\"").append(n(x)).append("\" y=\"").append(TOP + ph + 16)
                .append("\" class=\"xl\">").append(esc(label(v))).append("</text>");
        }
        sb.append("<text x=\"").append(n(LEFT + pw / 2.0)).append("\" y=\"").append(height - 6)
            .append("\" class=\"xl\">seconds since the first event</text>");
        // series
        int legendX = LEFT + pw;
        for (int si = series.size() - 1; si >= 0; si--) {
            Series s = series.get(si);
            double[] xs = s.xs();
            double[] ys = s.ys();
            if (s.style() == Style.BARS) {
                double bw = xs.length > 1 ? Math.max(1, (xs[1] - xs[0]) / xHi * pw * 0.8) : Math.max(2, pw / 40.0);
                for (int i = 0; i < xs.length; i++) {
                    if (ys[i] <= 0) {
                        continue;
                    }
                    double x = LEFT + xs[i] / xHi * pw;
                    double y = TOP + ph - (ys[i] - yLo) / (yHi - yLo) * ph;
                    sb.append("<rect x=\"").append(n(Math.max(LEFT, x - bw / 2))).append("\" y=\"").append(n(y))
                        .append("\" width=\"").append(n(bw)).append("\" height=\"").append(n(TOP + ph - y))
                        .append("\" fill=\"").append(s.color()).append("\" opacity=\"0.55\"><title>")
                        .append(esc(s.name() + ": " + label(ys[i]) + " at +" + n(xs[i]) + " s"))
                        .append("</title></rect>");
                }
            } else if (xs.length > 0) {
                StringBuilder pts = new StringBuilder();
                double prevY = Double.NaN;
                for (int i = 0; i < xs.length; i++) {
                    double x = LEFT + Math.min(xs[i], xHi) / xHi * pw;
                    double y = TOP + ph - (ys[i] - yLo) / (yHi - yLo) * ph;
                    if (s.style() == Style.STEP && !Double.isNaN(prevY)) {
                        pts.append(n(x)).append(',').append(n(prevY)).append(' ');
                    }
                    pts.append(n(x)).append(',').append(n(y)).append(' ');
                    prevY = y;
                }
                if (s.style() == Style.STEP) {
                    pts.append(n(LEFT + pw)).append(',').append(n(prevY));
                }
                if (s.style() != Style.POINTS) {
                    sb.append("<polyline fill=\"none\" stroke=\"").append(s.color())
                        .append("\" stroke-width=\"1.8\" points=\"").append(pts.toString().trim()).append("\"/>");
                }
                if (s.style() == Style.POINTS || xs.length <= 200) {
                    for (int i = 0; i < xs.length; i++) {
                        double x = LEFT + Math.min(xs[i], xHi) / xHi * pw;
                        double y = TOP + ph - (ys[i] - yLo) / (yHi - yLo) * ph;
                        sb.append("<circle cx=\"").append(n(x)).append("\" cy=\"").append(n(y))
                            .append("\" r=\"2.2\" fill=\"").append(s.color()).append("\"><title>")
                            .append(esc(s.name() + ": " + (yCategories != null ? "node " : "") + label(ys[i])
                                + " at +" + String.format(Locale.ROOT, "%.3f", xs[i]) + " s"))
                            .append("</title></circle>");
                    }
                }
            }
            legendX -= 12 + 7 * Math.min(s.name().length(), 24);
            sb.append("<rect x=\"").append(legendX).append("\" y=\"22\" width=\"9\" height=\"9\" fill=\"")
                .append(s.color()).append("\"/><text x=\"").append(legendX + 12).append("\" y=\"30\" class=\"lg\">")
                .append(esc(truncate(s.name(), 24))).append("</text>");
        }
        sb.append("</svg>");
        return sb.toString();
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    /**
     * A heat map: one row per row label, one column per column label, colour by value (white to red); cells with a
     * tooltip.
     */
    static String heatMap(String title, List<String> rows, List<String> cols, long[][] values, String[][] tips) {
        long max = 1;
        for (long[] r : values) {
            for (long v : r) {
                max = Math.max(max, v);
            }
        }
        int cell = cols.size() > 64 ? 8 : cols.size() > 32 ? 12 : 18;
        int left = 64;
        int top = 30;
        String caption = "partition (darker: more misses; max " + max + ")";
        int width = Math.max(left + cols.size() * cell + 90, left + 7 * caption.length());
        int height = top + rows.size() * cell + 34;
        StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heat\" width=\"").append(width)
            .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ')
            .append(height).append("\" role=\"img\"><title>").append(esc(title)).append("</title>");
        sb.append("<text x=\"").append(left).append("\" y=\"16\" class=\"t\">").append(esc(title)).append("</text>");
        for (int r = 0; r < rows.size(); r++) {
            int y = top + r * cell;
            sb.append("<text x=\"").append(left - 6).append("\" y=\"").append(y + cell / 2 + 4)
                .append("\" class=\"yl\">").append(esc(rows.get(r))).append("</text>");
            for (int c = 0; c < cols.size(); c++) {
                long v = values[r][c];
                double f = v == 0 ? 0 : 0.12 + 0.88 * Math.log1p(v) / Math.log1p(max);
                int g = (int) Math.round(255 - 200 * f);
                int b = (int) Math.round(255 - 230 * f);
                sb.append("<rect x=\"").append(left + c * cell).append("\" y=\"").append(y).append("\" width=\"")
                    .append(cell - 1).append("\" height=\"").append(cell - 1).append("\" fill=\"rgb(255,")
                    .append(g).append(',').append(b).append(")\" class=\"cell\"><title>")
                    .append(esc(tips[r][c])).append("</title></rect>");
            }
        }
        int step = Math.max(1, (int) Math.ceil(cols.size() / 16.0));
        for (int c = 0; c < cols.size(); c += step) {
            sb.append("<text x=\"").append(left + c * cell + cell / 2).append("\" y=\"")
                .append(top + rows.size() * cell + 14).append("\" class=\"xl\">").append(esc(cols.get(c)))
                .append("</text>");
        }
        sb.append("<text x=\"").append(left).append("\" y=\"").append(top + rows.size() * cell + 30)
            .append("\" class=\"ll\">").append(esc(caption)).append("</text>");
        sb.append("</svg>");
        return sb.toString();
    }
}
