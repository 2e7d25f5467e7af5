package dev.cumulus.profiler.live;

import dev.cumulus.profiler.TestEvents;
import dev.cumulus.profiler.channel.LiveObject;
import dev.cumulus.profiler.channel.LiveWindow;
import dev.cumulus.profiler.channel.ProfileGson;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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

        LiveWindow m = window(w.drain(3_000));

        assertEquals(2, m.node());
        assertEquals(3_000L, m.sentMs());
        assertEquals(2_000L, m.windowMs());
        assertEquals(14L, m.totals().events());
        assertEquals(10L, m.totals().writes());
        assertEquals(1L, m.totals().sequencerArrivals());
        Map<String, LiveObject> objects = byName(m);
        LiveObject.Cloud best = (LiveObject.Cloud) objects.get("cloud best");
        assertEquals(10L, best.writes());
        assertEquals(5.0, best.writesPerSec());
        assertEquals(1L, best.migrations());
        assertTrue(best.p99WriteUs() >= 0);
        LiveObject.Remote worker = (LiveObject.Remote) objects.get("remote worker-0");
        assertEquals(2L, worker.calls());
        assertEquals(1L, worker.failed());
        assertEquals(300L, worker.bytes());
        assertEquals(1L, ((LiveObject.Array) objects.get("array A")).misses());
        assertTrue(m.lastEventMs() >= m.firstEventMs());

        LiveWindow next = window(w.drain(4_000));
        assertEquals(List.of(), next.objects(), "a new window starts empty");
        assertEquals(1_000L, next.windowMs());
        assertNull(next.firstEventMs(), "no events, no event times");
    }

    @Test
    void percentilesComeFromAHistogramWithinOnePercent() {
        WindowAggregator w = new WindowAggregator(0, 0);
        for (int i = 1; i <= 1_000; i++) {
            w.remoteCall("worker", i * 1_000L, 0, false);
        }
        LiveObject.Remote r = (LiveObject.Remote) byName(window(w.drain(1_000))).get("remote worker");
        assertEquals(500.0, r.p50Us(), 5.0);
        assertEquals(990.0, r.p99Us(), 9.9);
    }

    @Test
    void aCloudCarriesItsRootClassOnceASummaryNamedIt() {
        WindowAggregator w = new WindowAggregator(0, 0);
        w.cloudClass("best", "demo.Minimum");
        w.write("best", 1_000, 8);
        LiveObject.Cloud best = (LiveObject.Cloud) byName(window(w.drain(1_000))).get("cloud best");
        assertEquals("demo.Minimum", best.className());
        w.write("best", 1_000, 8);
        LiveObject.Cloud again = (LiveObject.Cloud) byName(window(w.drain(2_000))).get("cloud best");
        assertEquals("demo.Minimum", again.className(), "kept across windows");
    }

    @Test
    void aLineIsBounded() {
        WindowAggregator w = new WindowAggregator(0, 0);
        String longName = "x".repeat(500);
        for (int i = 0; i < 5_000; i++) {
            w.remoteCall(i + longName, 1_000, 10, false);
        }
        String line = w.drain(1_000);
        LiveWindow m = window(line);
        assertTrue(line.getBytes(StandardCharsets.UTF_8).length <= WindowAggregator.MAX_LINE_BYTES, line.length() + "");
        assertEquals(5_000L, m.objects().size() + (long) m.more(), "dropped objects are counted");
    }

    /** A node's line as the launcher reads it (Gson): what the node's own writer wrote must read back. */
    static LiveWindow window(String line) {
        return (LiveWindow) ProfileGson.read(line);
    }

    static Map<String, LiveObject> byName(LiveWindow w) {
        Map<String, LiveObject> m = new HashMap<>();
        for (LiveObject o : w.objects()) {
            m.put(o.kind() + " " + o.name(), o);
        }
        return m;
    }
}
