package dev.cumulus.profiler.live;

import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.ObjectFigures;
import dev.cumulus.profiler.figures.FigureText;

import java.util.List;
import java.util.Locale;

/**
 * The terminal view of {@code cumulus run --live}: at most one line a second from the cluster's newest figures (the
 * same {@link LiveFigures} the editor gets), the busiest objects of the program first, with the measured delay of the
 * data:
 * <pre>
 * live +4s (JFR lags ~1 s; data 1.2 s old) 2 nodes | best: 1,200 writes/s · p99 35 µs | worker-1: 50 calls/s · p99 120 µs
 * </pre>
 * Not thread-safe; the sink's receive thread calls it.
 */
public final class LiveView {
    /** The header printed once when the live view starts. */
    public static final String HEADER = "cumulus: live profile, one line a second (JFR data lags about one second; "
        + "rates summed over nodes, p99 the worst node's; the runtime's own objects left out)";
    private static final int MAX_OBJECTS = 6;

    private final long startMs;
    private long lastPrintMs;

    public LiveView(long startMs) {
        this.startMs = startMs;
        this.lastPrintMs = startMs;
    }

    /** Takes the newest figures; returns a line to print when a second has passed, else null. */
    public String accept(LiveFigures figures, long nowMs) {
        if (nowMs - lastPrintMs < 1000) {
            return null;
        }
        lastPrintMs = nowMs;
        return line(figures, nowMs);
    }

    String line(LiveFigures f, long nowMs) {
        double ageSec = f.lastEventMs() == null ? 0 : Math.max(0, nowMs - f.lastEventMs()) / 1000.0;
        int nodes = f.nodes() == null ? 0 : f.nodes().size();
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
            "live +%ds (JFR lags ~1 s; data %.1f s old) %d node%s", (nowMs - startMs) / 1000, ageSec, nodes,
            nodes == 1 ? "" : "s"));
        if (f.sequencerMigrations() > 0) {
            sb.append(" | sequencer moved ").append(f.sequencerMigrations());
        }
        List<ObjectFigures> active = (f.objects() == null ? List.<ObjectFigures>of() : f.objects()).stream()
            .filter(o -> o.operations() > 0).toList();
        if (active.isEmpty()) {
            sb.append(" | no activity of the program's objects");
        }
        for (int i = 0; i < Math.min(MAX_OBJECTS, active.size()); i++) {
            sb.append(" | ").append(FigureText.describe(active.get(i), true));
        }
        if (active.size() > MAX_OBJECTS) {
            sb.append(" | +").append(active.size() - MAX_OBJECTS).append(" more");
        }
        return sb.toString();
    }
}
