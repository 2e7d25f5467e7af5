package dev.cumulus.profiler.live;

import dev.cumulus.profiler.channel.LiveObject;
import dev.cumulus.profiler.channel.LiveWindow;
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
    /** A run's live profile key, as the runtime derives it from the run's secret. */
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    @TempDir
    Path dir;

    @Test
    void theSinkStampsWritesAndHandsOnJsonLinesAndIgnoresGarbage() throws Exception {
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Path file = dir.resolve("live.jsonl");
        try (LiveSink sink = LiveSink.open(file, KEY, (line, m) -> lines.add(line));
             DatagramSocket s = new DatagramSocket()) {
            assertTrue(sink.address().startsWith("127.0.0.1:") || sink.address().contains(":"), sink.address());
            InetSocketAddress to = LiveProfiler.parse(sink.address());
            send(s, to, "not json");
            send(s, to, "{\"type\":\"report\",\"version\":2}");
            send(s, to, "{\"type\":\"window\",\"version\":2,\"node\":4,\"sentMs\":5,\"objects\":[]}");
            String line = lines.poll(10, TimeUnit.SECONDS);
            assertNotNull(line);
            LiveWindow m = WindowAggregatorTest.window(line);
            assertEquals(4, m.node());
            assertTrue(m.recvMs() > 0, line);
            assertEquals(Map.of(4, 1L), sink.received());
            assertEquals(2, sink.rejected(), "garbage and a record that is not a window");
            // a local process without the run's key: untagged, or tagged under another key, never read
            byte[] window = "{\"type\":\"window\",\"version\":2,\"node\":5,\"sentMs\":5,\"objects\":[]}"
                .getBytes(StandardCharsets.UTF_8);
            s.send(new DatagramPacket(window, window.length, to));
            byte[] forged = new LiveLineTag(new byte[32]).seal(window);
            s.send(new DatagramPacket(forged, forged.length, to));
            send(s, to, "{\"type\":\"window\",\"version\":2,\"node\":6,\"sentMs\":5,\"objects\":[]}");
            assertEquals(6, WindowAggregatorTest.window(lines.poll(10, TimeUnit.SECONDS)).node(),
                "the strangers' windows were dropped, the next tagged one read");
            assertEquals(4, sink.rejected(), "untagged and wrongly tagged windows counted");
        }
        List<String> written = Files.readAllLines(file);
        assertEquals(2, written.size(), written.toString());
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
        LinkedBlockingQueue<LiveWindow> summaries = new LinkedBlockingQueue<>();
        Recording recording = TestEvents.start();
        try (LiveSink sink = LiveSink.open(dir.resolve("live.jsonl"), KEY, (line, m) -> summaries.add(m))) {
            LiveProfiler p = LiveProfiler.start(sink.address(), 7, KEY);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            LiveWindow seen = null;
            boolean unknownSeen = false;
            int windows = 0;
            while ((seen == null || !unknownSeen) && System.nanoTime() < deadline) {
                TestEvents.call(7, 1, "live-worker", "work", false, 10, 10, "ok");
                TestEvents.BarrierWait bw = new TestEvents.BarrierWait();
                bw.barrier = "stage";
                bw.commit();
                LiveWindow m = summaries.poll(50, TimeUnit.MILLISECONDS);
                if (m == null) {
                    continue;
                }
                windows++;
                assertEquals(7, m.node());
                if (m.objects().stream().anyMatch(o -> "live-worker".equals(o.name()))) {
                    seen = m;
                }
                if (m.objects().stream().anyMatch(o -> "BarrierWait stage".equals(o.name()))) {
                    unknownSeen = true;
                }
            }
            assertNotNull(seen, "a window with the remote calls arrived (" + windows + " windows)");
            assertTrue(unknownSeen, "an event type the profiler does not know by name is streamed too");
            LiveObject.Remote worker = (LiveObject.Remote) WindowAggregatorTest.byName(seen).get("remote live-worker");
            assertTrue(worker.callsPerSec() > 0, worker.toString());
            long delay = seen.recvMs() - seen.lastEventMs();
            assertTrue(delay >= 0 && delay < 10_000, "event to launcher delay " + delay + " ms");
            p.close();
            assertTrue(p.sent() >= 1);
        } finally {
            recording.close();
        }
    }

    @Test
    void theLauncherStreamsANodesRecordingFromItsRepository() throws Exception {
        LinkedBlockingQueue<LiveWindow> summaries = new LinkedBlockingQueue<>();
        Recording recording = TestEvents.start();
        // the root a launched node's repository option names holds one directory of chunks: this JVM's own
        Path root = Files.createDirectory(dir.resolve("repository"));
        Files.createSymbolicLink(root.resolve("chunks"), Path.of(System.getProperty("jdk.jfr.repository")));
        try (LiveSink sink = LiveSink.open(dir.resolve("live-repo.jsonl"), KEY, (line, m) -> summaries.add(m))) {
            RepositoryWindows reader = RepositoryWindows.start(7, root, sink::offer);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            LiveWindow seen = null;
            while (seen == null && System.nanoTime() < deadline) {
                TestEvents.call(7, 1, "repo-worker", "work", false, 10, 10, "ok");
                LiveWindow m = summaries.poll(50, TimeUnit.MILLISECONDS);
                if (m != null && m.objects().stream().anyMatch(o -> "repo-worker".equals(o.name()))) {
                    seen = m;
                }
            }
            assertNotNull(seen, "a window with the remote calls arrived");
            assertEquals(7, seen.node());
            long before = sink.received().get(7);
            reader.close();
            assertTrue(sink.received().get(7) > before, "close hands on the last window");
        } finally {
            recording.close();
            Files.deleteIfExists(root.resolve("chunks")); // the link only, never this JVM's repository
        }
    }

    @Test
    void aRepositoryThatNeverAppearsEndsWithoutAWindow() throws Exception {
        LinkedBlockingQueue<LiveWindow> summaries = new LinkedBlockingQueue<>();
        try (LiveSink sink = LiveSink.open(dir.resolve("live-none.jsonl"), KEY, (line, m) -> summaries.add(m))) {
            RepositoryWindows.start(3, dir.resolve("never"), sink::offer).close();
            assertEquals(0, summaries.size());
            assertEquals(Map.of(), sink.received());
        }
    }

    @Test
    void aReaderThatNeverReachedTheRepositoryHandsOnTheRecordingAsTheLastWindow() throws Exception {
        LinkedBlockingQueue<LiveWindow> summaries = new LinkedBlockingQueue<>();
        Path recordingFile = dir.resolve("node-5.jfr");
        Recording recording = TestEvents.start();
        try {
            for (int i = 0; i < 3; i++) {
                TestEvents.call(5, 1, "late-worker", "work", false, 10, 10, "ok");
            }
            recording.dump(recordingFile);
        } finally {
            recording.close();
        }
        try (LiveSink sink = LiveSink.open(dir.resolve("live-late.jsonl"), KEY, (line, m) -> summaries.add(m))) {
            RepositoryWindows.start(5, dir.resolve("not-yet"), sink::offer).close(recordingFile);
            LiveWindow last = summaries.poll();
            assertNotNull(last, "the recording's events came as the last window");
            assertEquals(5, last.node());
            LiveObject worker = last.objects().stream().filter(o -> "late-worker".equals(o.name())).findFirst()
                .orElseThrow(() -> new AssertionError("late-worker in " + last));
            assertEquals(3, ((LiveObject.Remote) worker).calls(), last.toString());
        }
    }

    private static void send(DatagramSocket s, InetSocketAddress to, String text) throws Exception {
        byte[] b = new LiveLineTag(KEY).seal(text.getBytes(StandardCharsets.UTF_8));
        s.send(new DatagramPacket(b, b.length, to));
    }
}
