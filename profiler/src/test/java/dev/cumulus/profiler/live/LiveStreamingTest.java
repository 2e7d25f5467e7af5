package dev.cumulus.profiler.live;

import dev.cumulus.profiler.Json;
import dev.cumulus.profiler.TestEvents;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sink alone, and a live profiler streaming this JVM's own events to it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LiveStreamingTest {
    @TempDir
    Path dir;

    @Test
    void theSinkStampsWritesAndHandsOnJsonLinesAndIgnoresGarbage() throws Exception {
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Path file = dir.resolve("live.jsonl");
        try (LiveSink sink = LiveSink.open(file, (line, m) -> lines.add(line));
             DatagramSocket s = new DatagramSocket()) {
            assertTrue(sink.address().startsWith("127.0.0.1:") || sink.address().contains(":"), sink.address());
            InetSocketAddress to = LiveProfiler.parse(sink.address());
            send(s, to, "not json");
            send(s, to, "{\"node\":4,\"t\":5,\"objects\":[]}");
            String line = lines.poll(10, TimeUnit.SECONDS);
            assertNotNull(line);
            Map<String, Object> m = Json.parseObject(line);
            assertEquals(4L, m.get("node"));
            assertTrue(((Number) m.get("recv")).longValue() > 0);
            assertTrue(line.startsWith("{\"recv\":"), line);
            assertEquals(Map.of(4, 1L), sink.received());
            assertEquals(1, sink.rejected());
        }
        List<String> written = Files.readAllLines(file);
        assertEquals(1, written.size(), written.toString());
        assertTrue(written.getFirst().contains("\"node\":4"));
    }

    @Test
    void aBadSinkAddressIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LiveProfiler.parse("nowhere"));
        assertTrue(e.getMessage().contains("cumulus.profile.sink=nowhere"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LiveProfiler.parse("127.0.0.1:99999"));
    }

    @Test
    void aNodeStreamsItsOwnEventsOnceASecond() throws Exception {
        LinkedBlockingQueue<Map<String, Object>> summaries = new LinkedBlockingQueue<>();
        Recording recording = TestEvents.start();
        try (LiveSink sink = LiveSink.open(dir.resolve("live.jsonl"), (line, m) -> summaries.add(m))) {
            LiveProfiler p = LiveProfiler.start(sink.address(), 7);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            Map<String, Object> seen = null;
            boolean unknownSeen = false;
            int windows = 0;
            while ((seen == null || !unknownSeen) && System.nanoTime() < deadline) {
                TestEvents.call(7, 1, "live-worker", "work", false, 10, 10, "ok");
                TestEvents.BarrierWait bw = new TestEvents.BarrierWait();
                bw.barrier = "stage";
                bw.commit();
                Map<String, Object> m = summaries.poll(50, TimeUnit.MILLISECONDS);
                if (m == null) {
                    continue;
                }
                windows++;
                assertEquals(7L, m.get("node"));
                if (m.get("objects") instanceof List<?> objects && objects.stream()
                    .anyMatch(o -> "live-worker".equals(((Map<?, ?>) o).get("name")))) {
                    seen = m;
                }
                if (m.get("objects") instanceof List<?> objects && objects.stream()
                    .anyMatch(o -> "BarrierWait stage".equals(((Map<?, ?>) o).get("name")))) {
                    unknownSeen = true;
                }
            }
            assertNotNull(seen, "a window with the remote calls arrived (" + windows + " windows)");
            assertTrue(unknownSeen, "an event type the profiler does not know by name is streamed too");
            Map<?, ?> worker = WindowAggregatorTest.byName((List<?>) seen.get("objects")).get("remote live-worker");
            assertTrue(((Number) worker.get("callsPerSec")).doubleValue() > 0, worker.toString());
            long delay = ((Number) seen.get("recv")).longValue() - ((Number) seen.get("lastEventMs")).longValue();
            assertTrue(delay >= 0 && delay < 10_000, "event to launcher delay " + delay + " ms");
            p.close();
            assertTrue(p.sent() >= 1);
        } finally {
            recording.close();
        }
    }

    private static void send(DatagramSocket s, InetSocketAddress to, String text) throws Exception {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        s.send(new DatagramPacket(b, b.length, to));
    }
}
