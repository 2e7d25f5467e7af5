package dev.cumulus.profiler.live;

import dev.cumulus.profiler.Json;
import dev.cumulus.profiler.TestEvents;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WindowAggregatorTest {
    @TempDir
    Path dir;

    @Test
    void oneWindowPerObjectAsAJsonLine() throws Exception {
        Recording r = TestEvents.start();
        for (int i = 0; i < 10; i++) {
            TestEvents.write(2, "best", "set", i, 8);
        }
        TestEvents.migrate(0, 2, 1);
        TestEvents.call(2, 0, "worker-0", "work", false, 100, 50, "ok");
        TestEvents.call(2, 0, "worker-0", "work", false, 100, 50, "exception");
        TestEvents.miss(2, "A", 1);
        TestEvents.dump(r, dir.resolve("w.jfr"));
        WindowAggregator w = new WindowAggregator(2, 1_000);
        for (RecordedEvent e : RecordingFile.readAllEvents(dir.resolve("w.jfr"))) {
            w.accept(e);
        }

        Map<String, Object> m = Json.parseObject(w.drain(3_000));

        assertEquals(2L, m.get("node"));
        assertEquals(3_000L, m.get("t"));
        assertEquals(2_000L, m.get("windowMs"));
        Map<?, ?> totals = (Map<?, ?>) m.get("totals");
        assertEquals(14L, totals.get("events"));
        assertEquals(10L, totals.get("writes"));
        assertEquals(1L, totals.get("sequencerArrivals"));
        Map<String, Map<?, ?>> objects = byName((List<?>) m.get("objects"));
        Map<?, ?> best = objects.get("cloud best");
        assertEquals(10L, best.get("writes"));
        assertEquals(5L, best.get("writesPerSec"));
        assertEquals(1L, best.get("migrations"));
        assertTrue(((Number) best.get("p99WriteUs")).doubleValue() >= 0);
        Map<?, ?> worker = objects.get("remote worker-0");
        assertEquals(2L, worker.get("calls"));
        assertEquals(1L, worker.get("failed"));
        assertEquals(300L, worker.get("bytes"));
        assertEquals(1L, objects.get("array A").get("misses"));
        assertTrue(((Number) m.get("lastEventMs")).longValue() >= ((Number) m.get("firstEventMs")).longValue());

        Map<String, Object> next = Json.parseObject(w.drain(4_000));
        assertEquals(List.of(), next.get("objects"), "a new window starts empty");
        assertEquals(1_000L, next.get("windowMs"));
    }

    @Test
    void aCloudCarriesItsRootClassOnceASummaryNamedIt() {
        WindowAggregator w = new WindowAggregator(0, 0);
        w.cloudClass("best", "demo.Minimum");
        w.write("best", 1_000, 8);
        Map<?, ?> best = byName((List<?>) Json.parseObject(w.drain(1_000)).get("objects")).get("cloud best");
        assertEquals("demo.Minimum", best.get("className"));
        w.write("best", 1_000, 8);
        Map<?, ?> again = byName((List<?>) Json.parseObject(w.drain(2_000)).get("objects")).get("cloud best");
        assertEquals("demo.Minimum", again.get("className"), "kept across windows");
    }

    @Test
    void aLineIsBounded() {
        WindowAggregator w = new WindowAggregator(0, 0);
        String longName = "x".repeat(500);
        for (int i = 0; i < 5_000; i++) {
            w.remoteCall(i + longName, 1_000, 10, false);
        }
        String line = w.drain(1_000);
        Map<String, Object> m = Json.parseObject(line);
        assertTrue(line.getBytes(StandardCharsets.UTF_8).length <= WindowAggregator.MAX_LINE_BYTES, line.length() + "");
        int shown = ((List<?>) m.get("objects")).size();
        assertEquals(5_000L, shown + ((Number) m.get("more")).longValue(), "dropped objects are counted");
    }

    static Map<String, Map<?, ?>> byName(List<?> objects) {
        Map<String, Map<?, ?>> m = new java.util.HashMap<>();
        for (Object o : objects) {
            Map<?, ?> x = (Map<?, ?>) o;
            m.put(x.get("kind") + " " + x.get("name"), x);
        }
        return m;
    }
}
