package dev.cumulus.profiler.report;

import java.util.Locale;

import static dev.cumulus.profiler.report.Svg.esc;

/**
 * A {@link StackTree} as an inline SVG icicle graph (a flame graph drawn top-down): the root spans the width, each
 * frame's children sit below it, each as wide as its share of the samples; a frame narrower than a pixel is left out.
 * Every frame has a tooltip (method, samples, share); colours tell the program's code (warm), the Cumulus runtime and
 * its libraries (blue) and the JDK (grey) apart. No script, nothing fetched.
 */
final class FlameGraph {
    static final int ROW = 16;
    /** Deepest frame drawn. */
    static final int MAX_DEPTH = 80;
    private static final double MIN_PX = 1.0;

    private FlameGraph() {
    }

    /** The graph of {@code tree}, {@code width} pixels wide, titled {@code title}. */
    static String svg(String title, StackTree tree, int width) {
        int depth = Math.min(MAX_DEPTH, depth(tree, 0, tree.total(), width));
        int top = 22;
        int height = top + (depth + 1) * ROW + 4;
        StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flame\" width=\"").append(width)
            .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ')
            .append(height).append("\" role=\"img\"><title>").append(esc(title)).append("</title>");
        sb.append("<text x=\"0\" y=\"14\" class=\"t\">").append(esc(title)).append("</text>");
        if (tree.total() > 0) {
            frame(sb, tree, tree.total(), 0, width, top, 0);
        }
        sb.append("</svg>");
        return sb.toString();
    }

    private static int depth(StackTree t, int level, long rootTotal, int width) {
        int d = level;
        for (StackTree c : t.children()) {
            if (c.total() * (double) width / rootTotal < MIN_PX || level >= MAX_DEPTH) {
                break; // children come most samples first
            }
            d = Math.max(d, depth(c, level + 1, rootTotal, width));
        }
        return d;
    }

    private static void frame(StringBuilder sb, StackTree t, long rootTotal, double x, int width, int top, int level) {
        double w = t.total() * (double) width / rootTotal;
        double y = top + level * ROW;
        String label = level == 0 ? "all samples" : t.frame();
        String tip = String.format(Locale.ROOT, "%s: %,d samples (%.1f%%)%s", label, t.total(),
            100.0 * t.total() / rootTotal, t.self() > 0 ? String.format(Locale.ROOT, ", %,d running here", t.self())
                : "");
        sb.append("<g><title>").append(esc(tip)).append("</title><rect x=\"").append(Svg.n(x)).append("\" y=\"")
            .append(Svg.n(y)).append("\" width=\"").append(Svg.n(Math.max(0.5, w - 0.5))).append("\" height=\"")
            .append(ROW - 1).append("\" fill=\"").append(color(level == 0 ? "" : t.frame())).append("\"/>");
        int chars = (int) ((w - 6) / 6.2);
        if (chars >= 3) {
            sb.append("<text x=\"").append(Svg.n(x + 3)).append("\" y=\"").append(Svg.n(y + ROW - 4))
                .append("\" class=\"fl\">").append(esc(Svg.truncate(shortName(label), chars))).append("</text>");
        }
        sb.append("</g>");
        if (level >= MAX_DEPTH) {
            return;
        }
        double cx = x;
        for (StackTree c : t.children()) {
            double cw = c.total() * (double) width / rootTotal;
            if (cw < MIN_PX) {
                break;
            }
            frame(sb, c, rootTotal, cx, width, top, level + 1);
            cx += cw;
        }
    }

    /** {@code pkg.Outer$Inner.method} → {@code Outer$Inner.method}. */
    static String shortName(String frame) {
        int dot = frame.lastIndexOf('.');
        if (dot <= 0) {
            return frame;
        }
        int typeDot = frame.lastIndexOf('.', dot - 1);
        return typeDot < 0 ? frame : frame.substring(typeDot + 1);
    }

    /** Warm for the program's code, blue for Cumulus and its libraries, grey for the JDK; shade by name. */
    static String color(String frame) {
        int h = Math.floorMod(frame.hashCode(), 20);
        if (frame.isEmpty()) {
            return "rgb(209,213,219)";
        }
        if (JvmStats.isJdk(frame)) {
            return "rgb(" + (200 + h) + "," + (200 + h) + "," + (190 + h) + ")";
        }
        if (frame.startsWith("dev.cumulus.internal.") || frame.startsWith("dev.cumulus.") && !frame.startsWith(
            "dev.cumulus.examples.") || frame.startsWith("org.agrona.") || frame.startsWith("io.aeron.")) {
            return "rgb(" + (140 + h) + "," + (180 + h) + ",235)";
        }
        return "rgb(245," + (130 + 3 * h) + "," + (60 + h) + ")";
    }
}
