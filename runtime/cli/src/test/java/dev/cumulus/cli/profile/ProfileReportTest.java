package dev.cumulus.cli.profile;

import dev.cumulus.cli.CapturedOutput;
import dev.cumulus.internal.jfr.NodeLifecycleEvent;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import dev.cumulus.profiler.report.JvmStats;
import jdk.jfr.Configuration;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The profile table from recordings made in this JVM, and the recording settings. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProfileReportTest {
    @TempDir
    Path dir;

    @Test
    void groupsRemoteCallsByObjectAndMethod() throws Exception {
        try (Recording r = new Recording()) {
            r.enable(RemoteCallEvent.NAME);
            r.enable(NodeLifecycleEvent.NAME);
            r.start();
            NodeLifecycleEvent.record(1, "joined", 1, "");
            call(1, 0, "grid", "get", false, 10, 800);
            call(1, 0, "grid", "get", true, 10, 800);
            call(2, 0, "grid", "set", false, 900, 0);
            NodeLifecycleEvent.record(1, "peer-failed", 2, "heartbeat timeout");
            r.stop();
            r.dump(dir.resolve("node-1.jfr"));
        }
        Files.writeString(dir.resolve("launch.properties"), "cumulus.nodes=2\n");

        ProfileReport report = ProfileReport.read(dir);

        ProfileReport.CallStats get = report.calls().get("grid").get("get");
        assertEquals(2, get.calls());
        assertEquals(1, get.asyncCalls());
        assertEquals(20, get.requestBytes());
        assertEquals(1600, get.replyBytes());
        assertEquals(1, report.calls().get("grid").get("set").calls());
        assertEquals(2, report.lifecycle().size());
        assertEquals(1, report.problems().size(), "node-0.jfr is missing: " + report.problems());

        CapturedOutput out = new CapturedOutput();
        report.print(out.stream());
        String text = out.text();
        assertTrue(text.contains("1 recording (node-1.jfr)"), text);
        assertTrue(text.contains("warning: node-0.jfr is missing"), text);
        assertTrue(Pattern.compile("grid\\s+get\\s+2\\s+1\\s+0\\s+[0-9.]+ \\S+\\s+[0-9.]+ \\S+\\s+20\\s+1600\\s+"
            + "1 -> 0\n")
            .matcher(text).find(), text);
        assertTrue(Pattern.compile("grid\\s+set\\s+1\\s+0\\s+0\\s+[0-9.]+ \\S+\\s+[0-9.]+ \\S+\\s+900\\s+0\\s+2 -> 0\n")
            .matcher(text).find(), text);
        assertTrue(text.contains("node 1  peer-failed (node 2): heartbeat timeout"), text);
    }

    @Test
    void saysSoWhenThereAreNoEvents() {
        CapturedOutput out = new CapturedOutput();
        ProfileReport.read(dir).print(out.stream());
        assertTrue(out.text().contains("no recordings"), out.text());
        assertTrue(out.text().contains("no Cumulus events recorded"), out.text());
    }

    @Test
    void settingsAreTheCumulusEventsAndTheJdkEventsTheReportReadsOnly() throws Exception {
        Path jfc = dir.resolve("cumulus.jfc");
        Files.writeString(jfc, ProfileSettings.jfc());

        Map<String, String> settings = Configuration.create(jfc).getSettings();

        assertEquals("true", settings.get("dev.cumulus.RemoteCall#enabled"));
        assertEquals("true", settings.get("dev.cumulus.NodeLifecycle#enabled"));
        assertEquals("0 ms", settings.get("dev.cumulus.RemoteCall#threshold"));
        assertEquals("true", settings.get("dev.cumulus.Migration#enabled"));
        for (String read : List.of(JvmStats.EXECUTION_SAMPLE, JvmStats.ALLOCATION_SAMPLE, JvmStats.GARBAGE_COLLECTION,
            JvmStats.HEAP_SUMMARY, JvmStats.THREAD_PARK)) {
            assertEquals("true", settings.get(read + "#enabled"), read + " is read by the report");
        }
        // the rates of the JDK's default.jfc, which the report's legends name
        assertEquals("20 ms", settings.get("jdk.ExecutionSample#period"));
        assertEquals("150/s", settings.get("jdk.ObjectAllocationSample#throttle"));
        assertEquals("20 ms", settings.get("jdk.ThreadPark#threshold"));
        for (String off : List.of("jdk.NativeMethodSample", "jdk.OldObjectSample", "jdk.CPULoad", "jdk.ThreadDump")) {
            assertFalse(settings.containsKey(off + "#enabled"), off + " is not listed");
        }
        try (Recording r = new Recording(Configuration.create(jfc))) {
            r.start();
            Map<String, Boolean> enabled = new HashMap<>();
            FlightRecorder.getFlightRecorder().getEventTypes().forEach(t -> enabled.put(t.getName(), t.isEnabled()));
            assertEquals(true, enabled.get("jdk.ExecutionSample"), "recorded");
            for (String off : List.of("jdk.NativeMethodSample", "jdk.OldObjectSample", "jdk.CPULoad", "jdk.SocketRead")) {
                assertEquals(false, enabled.get(off), off + ": a JDK event the settings do not list is off");
            }
        }
    }

    private static void call(int caller, int target, String object, String method, boolean async, long req, long reply) {
        RemoteCallEvent e = new RemoteCallEvent();
        e.begin();
        e.callerNode = caller;
        e.targetNode = target;
        e.object = object;
        e.method = method;
        e.async = async;
        e.requestBytes = req;
        e.replyBytes = reply;
        e.outcome = "ok";
        e.commit();
    }
}
