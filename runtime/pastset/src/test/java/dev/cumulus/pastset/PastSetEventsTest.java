package dev.cumulus.pastset;

import dev.cumulus.LocalCluster;
import dev.cumulus.internal.pastset.PastSetOperationEvent;
import dev.cumulus.internal.pastset.PastSetSummaryEvent;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.cumulus.pastset.PastSetTestSupport.awaitCondition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JFR: one event per remote move/observe, and a periodic per-element summary fed by counters. */
@Timeout(60)
class PastSetEventsTest {
    @Test
    void remoteOperationsAndPerElementSummariesAreRecorded() {
        List<RecordedEvent> operations = new CopyOnWriteArrayList<>();
        List<RecordedEvent> summaries = new CopyOnWriteArrayList<>();
        try (RecordingStream rs = new RecordingStream()) {
            rs.enable(PastSetOperationEvent.NAME);
            rs.enable(PastSetSummaryEvent.NAME).withPeriod(Duration.ofMillis(200));
            rs.onEvent(PastSetOperationEvent.NAME, e -> {
                if (e.getString("element").contains("jfr-")) {
                    operations.add(e);
                }
            });
            rs.onEvent(PastSetSummaryEvent.NAME, e -> {
                if (e.getString("element").contains("jfr-")) {
                    summaries.add(e);
                }
            });
            rs.startAsync();
            LocalCluster.run(2, cluster -> {
                Element e = cluster.pastSet(Placement.CENTRAL).enter("jfr-events", byte[].class);
                cluster.barrier();
                if (cluster.nodeId() == 1) {
                    for (int i = 0; i < 10; i++) {
                        e.move((Object) new byte[100]);
                    }
                    for (int i = 0; i < 10; i++) {
                        e.observe();
                    }
                    awaitCondition(() -> operations.size() >= 20 && summaries.stream()
                        .anyMatch(s -> s.getLong("moves") > 0 || s.getLong("observes") > 0));
                }
                cluster.barrier();
            });
        }
        RecordedEvent move = operations.stream().filter(e -> e.getString("operation").equals("move")).findFirst()
            .orElseThrow();
        assertEquals(1, move.getInt("callerNode"));
        assertEquals(0, move.getInt("homeNode"));
        assertTrue(move.getLong("bytes") >= 100, "tuple bytes: " + move.getLong("bytes"));
        assertEquals("ok", move.getString("outcome"));
        RecordedEvent observe = operations.stream().filter(e -> e.getString("operation").equals("observe"))
            .findFirst().orElseThrow();
        // the tuple's encoded bytes as the move sent them, not counting the reply's index and blocked time
        assertEquals(move.getLong("bytes"), observe.getLong("bytes"));
        assertEquals("ok", observe.getString("outcome"));
        RecordedEvent summary = summaries.getFirst();
        assertEquals(0, summary.getInt("node"));
        assertTrue(summary.getLong("remoteOperations") > 0);
    }
}
