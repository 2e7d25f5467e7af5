package dev.cumulus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** {@link RecordedEvents}: the modules' event lists, and their classes registered once the recorder runs. */
@Timeout(60)
class RecordedEventsTest {
    @Test
    void theListsOfTheModulesOnTheClassPathAreRead() {
        List<String> listed = RecordedEvents.listed(getClass().getClassLoader(), System.err);
        assertTrue(listed.contains("dev.cumulus.internal.jfr.RemoteCallEvent"), listed.toString());
        assertTrue(listed.contains("dev.cumulus.internal.cloud.BroadcastWriteEvent"), listed.toString());
    }

    @Test
    void everyListedClassIsARegisteredEventTypeOnceTheRecorderRuns() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Recording recording = new Recording()) {
            recording.start();
            RecordedEvents.registerWhenRecording(getClass().getClassLoader(),
                new PrintStream(err, true, StandardCharsets.UTF_8));
            Set<String> types = FlightRecorder.getFlightRecorder().getEventTypes().stream()
                .map(EventType::getName).collect(Collectors.toSet());
            for (String name : List.of("dev.cumulus.RemoteCall", "dev.cumulus.RemoteCallServed",
                    "dev.cumulus.NodeLifecycle", "dev.cumulus.BroadcastWrite", "dev.cumulus.SequencerMigration")) {
                assertTrue(types.contains(name), name + " is not registered");
            }
        }
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }
}
