package dev.cumulus.profiler.live;

import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.LiveWindow;
import dev.cumulus.profiler.channel.ProfileGson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live profile as the reader process makes it when every node is on the launcher's host: a sink without a socket
 * that stamps and writes the windows it is offered, the output it prints, and the reader's command line.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LiveOutputTest {
    @TempDir
    Path dir;

    @Test
    void aLocalSinkWritesStampedWindowsAndTheOutputPrintsTheStreamAndTheView() throws Exception {
        List<String> out = new ArrayList<>();
        List<String> err = new ArrayList<>();
        Path file = dir.resolve("profile-live.jsonl");
        long startMs = System.currentTimeMillis() - 5_000; // the view prints its first line at once
        try (LiveSink sink = LiveSink.local(file, new LiveOutput(true, new LiveView(startMs), out::add, err::add))) {
            assertEquals(-1, sink.port());
            assertThrows(IllegalStateException.class, sink::address);
            sink.offer("{\"type\":\"window\",\"version\":2,\"node\":0,\"sentMs\":5,\"objects\":[]}");
            sink.offer("{\"type\":\"window\",\"version\":2,\"node\":1,\"sentMs\":6,\"objects\":[]}");
            sink.offer("not a window");
            assertEquals(Map.of(0, 1L, 1, 1L), sink.received());
            assertEquals(1, sink.rejected());
        }
        List<String> written = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(2, written.size());
        LiveWindow first = assertInstanceOf(LiveWindow.class, ProfileGson.read(written.get(0)));
        assertTrue(first.recvMs() > 0, "stamped when offered: " + written.get(0));
        assertEquals(4, out.size(), "each window, then the figures: " + out);
        assertEquals(LiveOutput.STREAM_PREFIX + written.get(1), out.get(2));
        LiveFigures figures = assertInstanceOf(LiveFigures.class,
            ProfileGson.read(out.get(3).substring(LiveOutput.STREAM_PREFIX.length())));
        assertEquals(2, figures.nodes().size(), "merged over both nodes");
        assertEquals(1, err.size(), "at most one view line a second: " + err);
        assertTrue(err.getFirst().startsWith("cumulus: live +"), err.getFirst());
    }

    @Test
    void withoutTheStreamOrTheViewNothingIsPrinted() throws Exception {
        List<String> printed = new ArrayList<>();
        try (LiveSink sink = LiveSink.local(dir.resolve("live.jsonl"),
                new LiveOutput(false, null, printed::add, printed::add))) {
            sink.offer("{\"type\":\"window\",\"version\":2,\"node\":0,\"sentMs\":5,\"objects\":[]}");
        }
        assertEquals(List.of(), printed);
        assertEquals(1, Files.readAllLines(dir.resolve("live.jsonl")).size());
    }

    @Test
    void theReadersCommandLine() {
        RepositoryReaderMain.Arguments plain = RepositoryReaderMain.parse(new String[] {"0=/r0", "1=/r1:/n1.jfr"});
        assertEquals(null, plain.file());
        assertEquals(List.of(new RepositoryReaderMain.Node(0, Path.of("/r0"), null),
            new RepositoryReaderMain.Node(1, Path.of("/r1"), Path.of("/n1.jfr"))), plain.nodes());
        RepositoryReaderMain.Arguments whole = RepositoryReaderMain.parse(
            new String[] {"--file", "/run/profile-live.jsonl", "--stream", "--view", "1234", "0=/r0"});
        assertEquals(Path.of("/run/profile-live.jsonl"), whole.file());
        assertTrue(whole.stream());
        assertEquals(1234, whole.viewStartMs());
        assertEquals(-1, RepositoryReaderMain.parse(new String[] {"--file", "/f", "0=/r0"}).viewStartMs());
        for (String[] bad : List.of(new String[] {"--stream", "0=/r0"}, new String[] {"--file"},
                new String[] {"--view", "soon", "--file", "/f", "0=/r0"}, new String[] {"--file", "/f"},
                new String[] {"--fast", "0=/r0"}, new String[] {"x=/r0"})) {
            assertThrows(IllegalArgumentException.class, () -> RepositoryReaderMain.parse(bad), String.join(" ", bad));
        }
    }
}
