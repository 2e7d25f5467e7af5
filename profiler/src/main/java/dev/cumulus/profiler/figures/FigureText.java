package dev.cumulus.profiler.figures;

import dev.cumulus.profiler.channel.ObjectFigures;
import dev.cumulus.profiler.channel.ProfileReport;

import java.util.List;
import java.util.Locale;

/**
 * One object's figures as one line of text, for a code lens and the terminal's live line:
 * {@code best: 1,200 writes/s · p99 35 µs} during a run, {@code worker-1: 3,000 calls · 150/s · p99 1.2 ms} after it.
 * Words come from {@link ObjectFigures#operation()}, so a remote object's lens says calls and a cloud's writes. Latencies
 * take the unit that suits the value (µs below a millisecond, ms below a second, else s). A single-VM heap field's
 * line ({@link #describe(ProfileReport.HeapField)}) goes on the field's declaration.
 */
public final class FigureText {
    private FigureText() {
    }

    /** The line for {@code f}; {@code live}: figures of the newest second, else of the whole run. */
    public static String describe(ObjectFigures f, boolean live) {
        StringBuilder b = new StringBuilder(f.name()).append(": ");
        if (live) {
            double rate = f.operationsPerSec() == null ? 0 : f.operationsPerSec();
            b.append(String.format(Locale.ROOT, "%,.0f %s/s", rate, f.operation()));
        } else {
            b.append(String.format(Locale.ROOT, "%,d %s", f.operations(), f.operation()));
            if (f.operationsPerSec() != null) {
                b.append(String.format(Locale.ROOT, " · %,.1f/s", f.operationsPerSec()));
            }
        }
        if (f.p99Us() != null) {
            b.append(" · p99 ").append(latency(f.p99Us()));
        }
        if (f.failed() != null && f.failed() > 0) {
            b.append(String.format(Locale.ROOT, " · %,d failed", f.failed()));
        }
        if (f.moves() != null && f.moves() > 0) {
            b.append(String.format(Locale.ROOT, " · %,d %s", f.moves(), f.moves() == 1 ? "move" : "moves"));
        }
        return b.toString();
    }

    /**
     * A single-VM heap field's line, for the lens on its declaration after the run:
     * {@code 1,204 remote fetches · 37 write-backs · nodes 1, 2 ↔ home 0}. The counts are the report's.
     */
    public static String describe(ProfileReport.HeapField f) {
        return String.format(Locale.ROOT, "%,d remote %s · %,d %s · nodes %s ↔ home %s", f.fetches(),
            f.fetches() == 1 ? "fetch" : "fetches", f.writeBacks(), f.writeBacks() == 1 ? "write-back" : "write-backs",
            nodes(f.nodes()), nodes(f.homes()));
    }

    private static String nodes(List<Integer> ids) {
        return ids == null || ids.isEmpty() ? "-" : String.join(", ", ids.stream().map(String::valueOf).toList());
    }

    /** A latency in microseconds with the unit that suits it: {@code 35 µs}, {@code 4.2 µs}, {@code 1.2 ms}. */
    public static String latency(double us) {
        if (us < 10) {
            return String.format(Locale.ROOT, "%.1f µs", us);
        } else if (us < 1_000) {
            return String.format(Locale.ROOT, "%.0f µs", us);
        } else if (us < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f ms", us / 1_000);
        }
        return String.format(Locale.ROOT, "%.2f s", us / 1_000_000);
    }
}
