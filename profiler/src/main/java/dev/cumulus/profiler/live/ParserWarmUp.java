package dev.cumulus.profiler.live;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.EventStream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;

/**
 * Readies the live reader's JFR parser before the nodes start. Its first read of a node's chunk (the chunk's
 * metadata and constant pools, every event of it, the aggregation) ran cold: class loading and the JIT compiling the
 * parser took most of the reader's CPU time of a run, all of it in the program's first seconds, and on a box the
 * program keeps busy that showed in the program's time whatever the reader's priority. So the reader first records a
 * moment of its own JVM in memory (the JDK's default event set), and reads that recording through the same
 * aggregation, every event materialized; then the launcher starts the nodes.
 *
 * <p>Best effort: a JVM without JFR, or a recording that cannot be made or read, leaves the parser cold and says why
 * on stderr; the live profile works either way.
 */
final class ParserWarmUp {
    /** Times the recording is read: the JIT's quick tier compiles a method after a few hundred calls. */
    static final int READS = 3;

    private ParserWarmUp() {
    }

    /** Records, then reads the recording {@value #READS} times; false (and a line on stderr) when it could not. */
    static boolean run() {
        Path file = null;
        try {
            file = Files.createTempFile("cumulus-live-warm-up", ".jfr");
            try (Recording recording = new Recording(Configuration.getConfiguration("default"))) {
                recording.setToDisk(false);
                recording.start();
                recording.dump(file); // while it runs: an in-memory recording keeps no data once stopped
            }
            for (int i = 0; i < READS; i++) {
                read(file);
            }
            return true;
        } catch (IOException | ParseException | RuntimeException e) {
            System.err.println("cumulus: live profile reader: no warm-up (" + e.getMessage() + "); its first reads "
                + "run cold");
            return false;
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a temporary file; the system cleans it up
                }
            }
        }
    }

    private static void read(Path file) throws IOException {
        WindowAggregator window = new WindowAggregator(-1, System.currentTimeMillis());
        try (EventStream stream = EventStream.openFile(file)) {
            stream.setReuse(true);
            stream.setOrdered(false);
            stream.onEvent(window::accept);
            stream.start();
        }
        window.drain(System.currentTimeMillis());
    }
}
