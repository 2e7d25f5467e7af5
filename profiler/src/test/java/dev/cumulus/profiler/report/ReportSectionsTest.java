package dev.cumulus.profiler.report;

import dev.cumulus.profiler.TestEvents;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report's split of the runtime's objects, its units, and the sections made from the JDK's events. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReportSectionsTest {
    @TempDir
    Path dir;

    @Test
    void theRuntimesOwnObjectsHaveTablesOfTheirOwnAndDurationsTheirUnit() throws Exception {
        Recording r = TestEvents.start();
        TestEvents.call(0, 1, "worker-1", "work", false, 100, 10, "ok");
        TestEvents.call(1, 0, "cumulus.names", "bind", false, 50, 5, "ok");
        TestEvents.call(1, 0, "cumulus.ArrayService", "deliver", true, 50, 0, "ok");
        TestEvents.dump(r, dir.resolve("node-0.jfr"));
        RunProfile p = RunProfile.read(dir);

        String text = TextReport.render(p, "µs", "\n");
        int user = text.indexOf("worker-1");
        int own = text.indexOf("the runtime's own remote calls");
        assertTrue(user >= 0 && own > user, text);
        assertTrue(text.indexOf("cumulus.names") > own && text.indexOf("cumulus.ArrayService") > own, text);
        assertFalse(text.contains("p50 µs"), "no column fixes µs: " + text);
        assertTrue(text.contains("  columns: "), "a legend: " + text);
        assertTrue(text.matches("(?s).*worker-1\\s+work\\s+1\\s+0\\s+0\\s+[0-9.]+ (ns|µs|ms|s)\\s.*"), text);

        String html = HtmlReport.render(p);
        int heading = html.indexOf("The runtime's own objects");
        assertTrue(heading > html.indexOf("<td>worker-1</td>"), "the program's table first");
        assertTrue(html.indexOf("<td>cumulus.names</td>") > heading, "the runtime's below its heading");
        assertFalse(html.contains("calls/s"), "counts per interval, not extrapolated rates");
        RunProfileTest.svgs(html);
    }

    @Test
    void aRunWithoutProfileSaysSoOnce() throws Exception {
        Files.writeString(dir.resolve("launch.properties"), "cumulus.nodes=3\ncumulus.profile=false\n");
        RunProfile p = RunProfile.read(dir);
        assertEquals(1, p.problems().size(), p.problems().toString());
        assertTrue(p.problems().getFirst().contains("without --profile"), p.problems().toString());
        assertFalse(TextReport.render(p, "µs", "\n").contains("killed"));
    }

    @Test
    void aHeatMapsCaptionFitsItsPictureHoweverFewItsPartitions() throws Exception {
        String svg = Svg.heatMap("array A", List.of("node 0", "node 1"), List.of("0", "1"),
            new long[][] {{1, 0}, {0, 12345}}, new String[][] {{"a", "b"}, {"c", "d"}});
        Document d = RunProfileTest.svgs(svg).getFirst();
        int width = Integer.parseInt(d.getDocumentElement().getAttribute("width"));
        NodeList texts = d.getElementsByTagName("text");
        org.w3c.dom.Element caption = (org.w3c.dom.Element) texts.item(texts.getLength() - 1);
        assertTrue(caption.getTextContent().startsWith("partition (darker: more misses; max 12345)"));
        assertEquals("ll", caption.getAttribute("class"), "anchored at its start, not its middle");
        double x = Double.parseDouble(caption.getAttribute("x"));
        assertTrue(x >= 0 && x + 7 * caption.getTextContent().length() <= width, "inside the picture: " + width);
    }

    @Test
    void arrayMissesCarryTheirBytes() throws Exception {
        Recording r = TestEvents.start();
        TestEvents.miss(0, "A", 3);
        TestEvents.miss(0, "A", 3);
        TestEvents.dump(r, dir.resolve("node-0.jfr"));
        RunProfile p = RunProfile.read(dir);
        assertEquals(512, p.arrays().get("A").partitions().get(3).get(0).bytes());
        assertEquals(512, p.arrays().get("A").nodes().get(0).bytesReceived());
    }

    @Test
    void aCallIsJoinedToItsServingEndByCallerAndId() throws Exception {
        Recording r0 = TestEvents.start();
        TestEvents.RemoteCall call = new TestEvents.RemoteCall();
        call.begin();
        TestEvents.RemoteCallServed served = new TestEvents.RemoteCallServed();
        served.begin();
        served.end();
        call.end();
        call.callerNode = 0;
        call.targetNode = 1;
        call.callId = 7;
        call.object = "worker-1";
        call.method = "work";
        call.outcome = "ok";
        call.commit();
        served.callerNode = 0;
        served.servingNode = 1;
        served.callId = 7;
        served.object = "worker-1";
        served.method = "work";
        served.outcome = "ok";
        served.commit();
        TestEvents.RemoteCallServed other = new TestEvents.RemoteCallServed();
        other.callerNode = 2; // the same id from another caller: not this call
        other.servingNode = 1;
        other.callId = 7;
        other.object = "worker-1";
        other.method = "work";
        other.commit();
        TestEvents.dump(r0, dir.resolve("node-0.jfr"));
        RunProfile p = RunProfile.read(dir);

        List<CallTimeline.Call> calls = p.callTimeline().calls();
        assertEquals(1, calls.size());
        CallTimeline.Call c = calls.getFirst();
        assertNotNull(c.served());
        assertEquals(0, c.served().callerNode());
        assertEquals(1, c.served().targetNode());
        assertTrue(c.served().durationNs() <= c.caller().durationNs());
        assertEquals(c.caller().durationNs() - c.served().durationNs(), c.outsideNs());
        assertEquals(1, p.callTimeline().window(10).size());
        assertTrue(p.other().isEmpty(), "the serving end is no 'other' event: " + p.other().keySet());
        String html = HtmlReport.render(p);
        assertTrue(html.contains("<section id=\"calls\">") && html.contains("class=\"calls\""), "a timeline");
        assertTrue(TextReport.render(p, "µs", "\n").contains("slowest remote calls with both ends recorded"));
    }

    @Test
    void aFlameGraphHasAFrameForEachPathWithItsShare() throws Exception {
        StackTree t = new StackTree("all");
        t.add(List.of("app.Main.main", "app.Work.run", "app.Work.inner"));
        t.add(List.of("app.Main.main", "app.Work.run", "app.Work.inner"));
        t.add(List.of("app.Main.main", "app.Work.run"));
        t.add(List.of("app.Main.main", "java.util.HashMap.put"));
        assertEquals(4, t.total());
        assertEquals(3, t.child("app.Main.main").child("app.Work.run").total());
        assertEquals(1, t.child("app.Main.main").child("app.Work.run").self());
        assertEquals(2L, t.selfByFrame().get("app.Work.inner"));

        Document svg = RunProfileTest.svgs(FlameGraph.svg("node 0", t, 400)).getFirst();
        NodeList titles = svg.getElementsByTagName("title");
        List<String> tips = new ArrayList<>();
        for (int i = 0; i < titles.getLength(); i++) {
            tips.add(titles.item(i).getTextContent());
        }
        assertTrue(tips.contains("all samples: 4 samples (100.0%)"), tips.toString());
        assertTrue(tips.contains("app.Work.run: 3 samples (75.0%), 1 running here"), tips.toString());
        assertTrue(tips.contains("app.Work.inner: 2 samples (50.0%), 2 running here"), tips.toString());
        assertTrue(tips.contains("java.util.HashMap.put: 1 samples (25.0%), 1 running here"), tips.toString());
        NodeList rects = svg.getElementsByTagName("rect");
        assertEquals(5, rects.getLength(), "one frame per tree node");
        assertEquals("200.0", ((org.w3c.dom.Element) rects.item(3)).getAttribute("width").replace("199.5", "200.0"),
            "app.Work.inner: half of 400 px");
    }

    @Test
    void theGcSummaryEqualsTheRecordedCollections() throws Exception {
        Recording r = new Recording();
        r.enable("jdk.GarbageCollection");
        r.enable("jdk.GCHeapSummary");
        r.start();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Path file = dir.resolve("node-0.jfr");
        r.stop();
        r.dump(file);
        r.close();
        long count = 0;
        long pauses = 0;
        long longest = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals("jdk.GarbageCollection")) {
                count++;
                pauses += e.getDuration("sumOfPauses").toNanos();
                longest = Math.max(longest, e.getDuration("longestPause").toNanos());
            }
        }
        assertTrue(count >= 1, "System.gc() collects unless the JVM disables explicit GC");

        JvmStats j = RunProfile.read(dir).jvm().get(0);
        assertEquals(count, j.collections());
        assertEquals(pauses, j.pauseNs());
        assertEquals(longest, j.longestPauseNs());
        assertTrue(j.maxHeapAfterGcBytes() > 0);
        assertTrue(TextReport.render(RunProfile.read(dir), "µs", "\n").contains("garbage collection"));
    }

    @Test
    void cpuSamplesOfAKnownMethodLandInTheTree() throws Exception {
        Path file = dir.resolve("node-0.jfr");
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        JvmStats j;
        do {
            Recording r = new Recording();
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
            r.start();
            Spinner.spinUntilSampled(r);
            r.stop();
            r.dump(file);
            r.close();
            j = RunProfile.read(dir).jvm().get(0);
        } while ((j == null || j.hotMethods(50).stream().noneMatch(e -> e.name().endsWith("Spinner.spin")))
            && System.nanoTime() < deadline);
        assertNotNull(j);
        assertTrue(j.hotMethods(50).stream().anyMatch(e -> e.name().equals(Spinner.class.getName() + ".spin")),
            j.hotMethods(50).toString());
        StackTree root = j.samples();
        assertTrue(root.total() > 0);
        assertTrue(HtmlReport.render(RunProfile.read(dir)).contains("class=\"flame\""));
    }

    /** Burns CPU in one known method. */
    static final class Spinner {
        static volatile long sink;

        /** Spins in {@link #spin} for a fixed amount of work (no clock: the recording samples it). */
        static void spinUntilSampled(Recording r) {
            for (int i = 0; i < 200; i++) {
                sink += spin(200_000);
            }
        }

        static long spin(int n) {
            long x = sink;
            for (int i = 0; i < n; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            return x;
        }
    }
}
