package dev.cumulus.profiler.report;

import dev.cumulus.profiler.Latencies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LatencyTimelineTest {
    private static final long T0 = 1_732_240_000_000_000_000L;

    @Test
    void slotsWidenSoALongRunStaysBoundedAndNothingIsLost() {
        LatencyTimeline t = new LatencyTimeline();
        long spanNs = TimeUnit.MINUTES.toNanos(10);
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            t.add(T0 + spanNs * i / n, 1_000 + i % 100);
        }
        List<Long> middles = new ArrayList<>();
        long[] count = {0};
        t.forEachSlot((middle, lat) -> {
            middles.add(middle);
            count[0] += lat.count();
        });
        assertEquals(n, count[0], "every latency is in some slot");
        assertTrue(middles.size() <= LatencyTimeline.MAX_SLOTS, middles.size() + " slots");
        assertTrue(t.widthNs() <= spanNs / 64, "slots stay fine enough for 40 chart intervals: " + t.widthNs());
        assertEquals(middles.stream().sorted().toList(), middles, "in time order");
    }

    @Test
    void aSlotKeepsItsLatenciesPercentiles() {
        LatencyTimeline t = new LatencyTimeline();
        for (int i = 1; i <= 100; i++) {
            t.add(T0, i * 1_000L);
        }
        List<Latencies> slots = new ArrayList<>();
        t.forEachSlot((middle, lat) -> slots.add(lat));
        assertEquals(1, slots.size());
        assertEquals(50.0, slots.getFirst().percentileMicros(50), 50.0 * 0.07, "one digit: within about 6 %");
    }
}
