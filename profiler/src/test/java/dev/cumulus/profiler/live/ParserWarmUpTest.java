package dev.cumulus.profiler.live;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reader's warm-up records a moment of its own JVM and reads it back (a JVM with JFR, as the JDK 25 here is). */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ParserWarmUpTest {
    @Test
    void recordsItsOwnJvmAndReadsTheRecording() {
        assertTrue(ParserWarmUp.run(), "see the line on stderr for why it could not");
    }
}
