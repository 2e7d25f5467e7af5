package dev.cumulus.cli.launch;

import dev.cumulus.cli.CapturedOutput;
import dev.cumulus.profiler.live.RepositoryReaderMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live profile's reader as the launcher starts it (a real JVM under {@code nice}): it says when its parser is
 * ready, before any window, and that line never reaches the live sink; a reader that ends (here: refusing an empty
 * list of nodes) is not waited for.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LiveReaderProcessTest {
    @TempDir
    Path dir;

    @Test
    void theReaderSaysItIsReadyAndTheLineStaysOutOfTheWindows() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        CapturedOutput err = new CapturedOutput();
        Map<Integer, LiveReaderProcess.Source> sources = Map.of(0,
            new LiveReaderProcess.Source(dir.resolve("repository-not-made-yet"), dir.resolve("node-0.jfr")));
        try (LiveReaderProcess reader = LiveReaderProcess.start(sources, lines::add, err.stream())) {
            assertTrue(reader.awaitReady(TimeUnit.SECONDS.toMillis(100)), "the reader never said it was ready");
            assertTrue(reader.running(), "the reader ended instead of saying it was ready");
            assertTrue(lines.isEmpty(), "a window before any node ran: " + lines);
        }
        assertFalse(lines.contains(RepositoryReaderMain.READY), "the ready line reached the sink: " + lines);
    }

    @Test
    void aReaderThatEndsIsNotWaitedFor() throws Exception {
        CapturedOutput err = new CapturedOutput();
        List<String> lines = new CopyOnWriteArrayList<>();
        try (LiveReaderProcess reader = LiveReaderProcess.start(Map.of(), lines::add, err.stream())) {
            // no node to read: the reader refuses its (empty) arguments and exits at once, without the ready line
            assertTrue(reader.awaitReady(TimeUnit.SECONDS.toMillis(100)));
        }
        assertTrue(lines.isEmpty(), lines.toString());
    }
}
