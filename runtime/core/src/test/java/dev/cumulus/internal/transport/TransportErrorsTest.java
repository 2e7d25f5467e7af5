package dev.cumulus.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The distinct, rate-limited error log, with a stepped clock. */
@Timeout(30)
class TransportErrorsTest {
    private long nowNs;
    private final List<String> lines = new ArrayList<>();
    private final TransportErrors errors = new TransportErrors("node 1: ", () -> nowNs, 10_000_000_000L, lines::add);

    @Test
    void oneErrorRepeatedAHundredThousandTimesIsOneLineAndACount() {
        IndexOutOfBoundsException e = new IndexOutOfBoundsException("index=40 length=40");
        for (int i = 0; i < 207_636; i++) {
            errors.report(e);
        }
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.getFirst().startsWith("node 1: error: java.lang.IndexOutOfBoundsException"), lines.getFirst());
        assertEquals(207_636, errors.total());
        nowNs += 10_000_000_000L;
        errors.report(e);
        assertEquals(2, lines.size());
        assertTrue(lines.get(1).contains("repeated 207636 more times") && lines.get(1).contains("207637 in all"),
            lines.get(1));
    }

    @Test
    void distinctKindsArePrintedEachOnceAndTheirNumberIsBounded() {
        for (int i = 0; i < 1000; i++) {
            errors.report("kind " + i, "event " + i);
        }
        assertEquals(TransportErrors.MAX_DISTINCT + 1, lines.size(), "one line per kept kind and one for the rest");
        assertEquals(TransportErrors.MAX_DISTINCT + 1, errors.distinct());
    }

    @Test
    void flushPrintsTheRepeatsNotPrintedYet() {
        errors.report("k", "event");
        errors.report("k", "event");
        errors.flush();
        assertEquals(List.of("node 1: event", "node 1: event (repeated 1 more times in the last 1 ms; 2 in all)"), lines);
    }
}
