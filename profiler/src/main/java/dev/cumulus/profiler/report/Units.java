package dev.cumulus.profiler.report;

import java.util.Locale;

/**
 * Durations and counts as a performance engineer reads them: each duration in the unit that suits it (ns, µs, ms or
 * s) with three significant digits ({@code 396 ms}, {@code 11.5 ms}, {@code 96.3 µs}), and a chart's axis in one unit
 * chosen from its largest value, so no axis says {@code 600k µs}.
 */
public final class Units {
    /** A time unit: its symbol and its size in nanoseconds. */
    public enum Time {
        NS("ns", 1), US("µs", 1e3), MS("ms", 1e6), S("s", 1e9);

        private final String symbol;
        private final double ns;

        Time(String symbol, double ns) {
            this.symbol = symbol;
            this.ns = ns;
        }

        /** The symbol; {@code us} for microseconds when {@code micro} is false (a terminal that cannot print µ). */
        public String symbol(boolean micro) {
            return this == US && !micro ? "us" : symbol;
        }

        /** {@code valueNs} in this unit. */
        public double of(double valueNs) {
            return valueNs / ns;
        }

        /** The largest unit in which {@code valueNs} is at least 1 (ns for 0 and below). */
        public static Time suiting(double valueNs) {
            double v = Math.abs(valueNs);
            return v >= 1e9 ? S : v >= 1e6 ? MS : v >= 1e3 ? US : NS;
        }
    }

    private Units() {
    }

    /** A duration with the unit that suits it and three significant digits: {@code 11.5 ms}, {@code 850 ns}. */
    public static String duration(double ns) {
        return duration(ns, true);
    }

    /** As {@link #duration(double)}; {@code micro}: whether µ may be printed (else {@code us}). */
    public static String duration(double ns, boolean micro) {
        Time t = Time.suiting(ns);
        String digits = sig3(t.of(ns));
        if (digits.equals("1000") && t != Time.S) { // rounding carried into the next unit
            t = Time.values()[t.ordinal() + 1];
            digits = sig3(t.of(ns));
        }
        return digits + " " + t.symbol(micro);
    }

    /** A duration given in microseconds, as {@link #duration(double)}. */
    public static String micros(double us) {
        return duration(us * 1e3);
    }

    /** {@code v} with three significant digits and no exponent: 396, 11.5, 1.10, 0.963. */
    public static String sig3(double v) {
        if (v == 0 || !Double.isFinite(v)) {
            return v == 0 ? "0" : String.valueOf(v);
        }
        double a = Math.abs(v);
        int magnitude = (int) Math.floor(Math.log10(a));
        int decimals = Math.max(0, 2 - magnitude);
        double rounded = Math.round(v * Math.pow(10, decimals)) / Math.pow(10, decimals);
        if (Math.abs(rounded) >= Math.pow(10, magnitude + 1) && decimals > 0) {
            decimals--; // 9.995 rounds to 10.0: keep three digits
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** As {@link #sig3}, without trailing zeros after the point (axis ticks): 0.5, 2.5, 120. */
    public static String tick(double v) {
        String s = sig3(v);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    /** A byte count: {@code 512 B}, {@code 43.3 KiB}, {@code 1.20 MiB}. */
    public static String bytes(double b) {
        if (Math.abs(b) < 1024) {
            return String.format(Locale.ROOT, "%.0f B", b);
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = b;
        int u = -1;
        while (Math.abs(v) >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return sig3(v) + " " + units[u];
    }
}
