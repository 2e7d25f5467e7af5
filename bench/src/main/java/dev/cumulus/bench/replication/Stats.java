package dev.cumulus.bench.replication;

import dev.cumulus.bench.ChildIo;
import org.HdrHistogram.Histogram;

/** A histogram of nanoseconds (or picoseconds, for reads) and its RESULT line. */
final class Stats {
    private static final long HIGHEST = 100_000_000_000_000L;
    final Histogram h = new Histogram(HIGHEST, 3);

    void record(long v) {
        h.recordValue(Math.max(0, Math.min(v, HIGHEST)));
    }

    long p50() {
        return h.getValueAtPercentile(50);
    }

    /** {@code RESULT <name> count=.. p50=.. p99=.. max=..} (units: the recorded ones). */
    void print(String name) {
        ChildIo.line("RESULT " + name + " count=" + h.getTotalCount() + " p50=" + h.getValueAtPercentile(50)
            + " p99=" + h.getValueAtPercentile(99) + " max=" + h.getMaxValue());
    }
}
