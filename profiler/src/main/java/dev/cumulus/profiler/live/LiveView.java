package dev.cumulus.profiler.live;

import dev.cumulus.profiler.channel.LiveObject;
import dev.cumulus.profiler.channel.LiveWindow;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The terminal view of {@code cumulus run --live}: keeps each node's newest summary and makes one line a second that
 * sums rates and takes the worst p99 over nodes, busiest objects first, with the measured delay of the data:
 * <pre>
 * live +4s (JFR lags ~1 s; data 1.2 s old) 2 nodes | cloud best 1200 w/s p99 35µs mig 3 | remote worker-1 50 calls/s p99 120µs
 * </pre>
 * Not thread-safe; the sink's receive thread calls it.
 */
public final class LiveView {
    /** The header printed once when the live view starts. */
    public static final String HEADER = "cumulus: live profile, one line a second (JFR data lags about one second; "
        + "rates summed over nodes, p99 the worst node's)";
    private static final int MAX_OBJECTS = 6;

    private final Map<Integer, LiveWindow> latest = new TreeMap<>();
    private final long startMs;
    private long lastPrintMs;

    public LiveView(long startMs) {
        this.startMs = startMs;
        this.lastPrintMs = startMs;
    }

    /** Takes one summary (as the sink parsed it); returns a line to print when a second has passed, else null. */
    public String accept(LiveWindow summary, long nowMs) {
        latest.put(summary.node(), summary);
        if (nowMs - lastPrintMs < 1000) {
            return null;
        }
        lastPrintMs = nowMs;
        return line(nowMs);
    }

    private static final class Row {
        String kind;
        String name;
        double rate;
        double p99;
        long migrations;
        long count;
    }

    String line(long nowMs) {
        Map<String, Row> rows = new TreeMap<>();
        double maxAge = 0;
        for (LiveWindow s : latest.values()) {
            long recv = s.recvMs() != null ? s.recvMs() : nowMs;
            long last = s.lastEventMs() != null ? s.lastEventMs() : s.sentMs() > 0 ? s.sentMs() : recv;
            maxAge = Math.max(maxAge, nowMs - last);
            for (LiveObject o : s.objectsOrEmpty()) {
                Row r = rows.computeIfAbsent(o.kind() + " " + o.name(), k -> new Row());
                r.kind = o.kind();
                r.name = o.name();
                switch (o) {
                    case LiveObject.Cloud c -> {
                        r.rate += c.writesPerSec();
                        r.p99 = Math.max(r.p99, c.p99WriteUs());
                        r.migrations += c.migrations();
                    }
                    case LiveObject.Remote c -> {
                        r.rate += c.callsPerSec();
                        r.p99 = Math.max(r.p99, c.p99Us());
                    }
                    case LiveObject.Array a -> {
                        r.rate += a.missesPerSec();
                        r.p99 = Math.max(r.p99, a.p99MissUs());
                    }
                    case LiveObject.Tuple t -> {
                        r.count += t.moves() + t.observes() + t.remoteOperations();
                        r.p99 = Math.max(r.p99, t.remoteP99Us());
                    }
                    case LiveObject.Other x -> r.count += x.count();
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "live +%ds (JFR lags ~1 s; data %.1f s old) %d node%s",
            (nowMs - startMs) / 1000, maxAge / 1000.0, latest.size(), latest.size() == 1 ? "" : "s"));
        List<Row> list = new ArrayList<>(rows.values());
        list.sort(Comparator.comparingDouble((Row r) -> -(r.rate + r.count)));
        if (list.isEmpty()) {
            sb.append(" | no Cumulus activity");
        }
        for (int i = 0; i < Math.min(MAX_OBJECTS, list.size()); i++) {
            Row r = list.get(i);
            sb.append(" | ").append(r.kind).append(' ').append(r.name);
            switch (r.kind) {
                case "cloud" -> sb.append(String.format(Locale.ROOT, " %.0f w/s p99 %.0fµs mig %d", r.rate, r.p99,
                    r.migrations));
                case "remote" -> sb.append(String.format(Locale.ROOT, " %.0f calls/s p99 %.0fµs", r.rate, r.p99));
                case "array" -> sb.append(String.format(Locale.ROOT, " %.0f misses/s p99 %.0fµs", r.rate, r.p99));
                case "tuple" -> sb.append(String.format(Locale.ROOT, " %d ops p99 %.0fµs", r.count, r.p99));
                default -> sb.append(' ').append(r.count);
            }
        }
        if (list.size() > MAX_OBJECTS) {
            sb.append(" | +").append(list.size() - MAX_OBJECTS).append(" more");
        }
        return sb.toString();
    }
}
