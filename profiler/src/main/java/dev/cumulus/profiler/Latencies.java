package dev.cumulus.profiler;

import org.HdrHistogram.Histogram;

/**
 * Latencies (nanoseconds) as an HdrHistogram: percentiles to within 1 % without keeping the samples, so memory does
 * not grow with the number of events. Auto-resizing (any positive value fits); negative values count as 0. Not
 * thread-safe.
 */
public final class Latencies {
    /** Two significant digits: a value's bucket is within 1 % of it. */
    static final int DIGITS = 2;

    private final Histogram histogram;

    public Latencies() {
        this(DIGITS);
    }

    /** With {@code digits} significant digits (1 to 5): a value's bucket is within 10^-digits of it. */
    public Latencies(int digits) {
        histogram = new Histogram(digits);
    }

    public void add(long ns) {
        histogram.recordValue(Math.max(0, ns));
    }

    /** Adds every value of {@code other}. */
    public void addAll(Latencies other) {
        histogram.add(other.histogram);
    }

    public long count() {
        return histogram.getTotalCount();
    }

    public boolean isEmpty() {
        return histogram.getTotalCount() == 0;
    }

    public void clear() {
        histogram.reset();
    }

    /** The {@code p}th percentile (0..100) in nanoseconds, 0 when empty. */
    public long percentile(double p) {
        return isEmpty() ? 0 : histogram.getValueAtPercentile(p);
    }

    /** The {@code p}th percentile in microseconds, rounded to the nanosecond; 0 when empty. */
    public double percentileMicros(double p) {
        return micros(percentile(p));
    }

    /** Nanoseconds as microseconds, rounded to the nanosecond (three decimals). */
    public static double micros(long ns) {
        return ns / 1000.0;
    }

    /** Nanoseconds as milliseconds, rounded to the microsecond (three decimals). */
    public static double millis(long ns) {
        return Math.round(ns / 1000.0) / 1000.0;
    }
}
