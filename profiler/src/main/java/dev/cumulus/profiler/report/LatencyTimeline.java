package dev.cumulus.profiler.report;

import dev.cumulus.profiler.Latencies;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * Latencies over time without keeping the samples: one coarse histogram per time slot. Slots are aligned to
 * multiples of their width since the epoch; when the slots in use would span more than {@link #MAX_SLOTS}, the width
 * doubles and neighbouring slots merge, so memory stays bounded however long the run. A slot is therefore never wider
 * than about 1/64 of the span this timeline covers, fine enough for the report's charts (40 intervals over the run).
 * Not thread-safe.
 */
public final class LatencyTimeline {
    static final int MAX_SLOTS = 128;
    /** The first slot width: 10 ms. */
    static final long FIRST_WIDTH_NS = 10_000_000L;
    /** One significant digit (a value's bucket within about 6 %): enough for a chart, small per slot. */
    private static final int DIGITS = 1;

    private long widthNs = FIRST_WIDTH_NS;
    private TreeMap<Long, Latencies> slots = new TreeMap<>();

    /** A latency of an operation that ended at {@code endNs} (ns since the epoch). */
    public void add(long endNs, long latencyNs) {
        long slot = Math.floorDiv(endNs, widthNs);
        while (!slots.isEmpty() && Math.max(slots.lastKey(), slot) - Math.min(slots.firstKey(), slot) >= MAX_SLOTS) {
            coarsen();
            slot = Math.floorDiv(endNs, widthNs);
        }
        slots.computeIfAbsent(slot, k -> new Latencies(DIGITS)).add(latencyNs);
    }

    private void coarsen() {
        TreeMap<Long, Latencies> merged = new TreeMap<>();
        for (Map.Entry<Long, Latencies> e : slots.entrySet()) {
            Latencies into = merged.get(Math.floorDiv(e.getKey(), 2));
            if (into == null) {
                merged.put(Math.floorDiv(e.getKey(), 2), e.getValue());
            } else {
                into.addAll(e.getValue());
            }
        }
        slots = merged;
        widthNs *= 2;
    }

    /** Each slot's middle (ns since the epoch) and latencies, in time order. */
    public void forEachSlot(BiConsumer<Long, Latencies> action) {
        slots.forEach((slot, lat) -> action.accept(slot * widthNs + widthNs / 2, lat));
    }

    long widthNs() {
        return widthNs;
    }
}
