package dev.cumulus.profiler.report;

import dev.cumulus.profiler.Events;
import dev.cumulus.profiler.TestEvents;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileReport;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Remote objects' placement from recordings made in this JVM with the runtime's event names and fields: location over
 * time, moves, calls by caller (forwarded calls apart) and the suggested moves. The runtime's own events, from a run in
 * which an object migrates, are covered by the CLI's {@code MigrationProfileTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PlacementsTest {
    @TempDir
    Path dir;

    @BeforeEach
    void record() throws Exception {
        Recording r0 = TestEvents.start();
        for (int i = 0; i < 3; i++) {
            TestEvents.call(1, 0, "w", "add", false, 40, 8, "ok");
        }
        TestEvents.call(2, 0, "w", "add", false, 40, 8, "ok");
        TestEvents.move("w", "DELAYED", 0, 1, 64, 2_000_000, 1, "moved");
        for (int i = 0; i < 10; i++) {
            TestEvents.call(2, 0, "c3", "get", false, 20, 8, "ok");
        }
        TestEvents.call(1, 0, "c3", "get", false, 20, 8, "ok");
        TestEvents.call(1, 0, "c3", "get", false, 20, 8, "ok");
        for (int i = 0; i < 10; i++) {
            TestEvents.call(i < 6 ? 2 : 1, 0, "edge", "get", false, 20, 8, "ok");
            TestEvents.call(1, 1, "home", "get", false, 20, 8, "ok");
        }
        for (int i = 0; i < 3; i++) {
            TestEvents.call(2, 0, "few", "get", false, 20, 8, "ok");
        }
        for (int i = 0; i < 10; i++) {
            TestEvents.call(2, 0, "cumulus.names", "resolve", false, 20, 8, "ok");
        }
        TestEvents.dump(r0, dir.resolve("node-0.jfr"));

        Recording r1 = TestEvents.start();
        TestEvents.call(2, 0, "w", "add", false, 40, 60, Events.MOVED);
        TestEvents.call(2, 1, "w", "add", false, 40, 8, "ok");
        TestEvents.move("w", "IDLE", 1, 2, 0, 5_000, 0, "stayed");
        TestEvents.move("w", "SAFE_POINT", 1, 2, 72, 3_000_000, 2, "moved");
        TestEvents.dump(r1, dir.resolve("node-1.jfr"));
        Files.writeString(dir.resolve("launch.properties"), "cumulus.nodes=3\n");
    }

    @Test
    void theLocationTimelineAndTheMovesAreTheEvents() throws Exception {
        RunProfile p = RunProfile.read(dir);
        List<RecordedEvent> recorded = migrations(dir);
        assertEquals(3, recorded.size());

        Placements.ObjectPlacement w = p.placements().objects().get("w");
        List<Placements.Move> expected = new ArrayList<>();
        for (RecordedEvent e : recorded) {
            expected.add(new Placements.Move(e.getString("object"), Events.endEpochNs(e), e.getString("kind"),
                e.getInt("fromNode"), e.getInt("toNode"), e.getLong("stateBytes"), e.getLong("pauseNs"),
                e.getInt("callsHeld"), e.getString("reason"), e.getString("outcome")));
        }
        assertEquals(expected, w.moves());
        assertEquals(expected, p.placements().moves());
        long t1 = Events.endEpochNs(recorded.get(0));
        long t3 = Events.endEpochNs(recorded.get(2));
        assertEquals(List.of(new Placements.Stay(0, p.firstNs(), t1), new Placements.Stay(1, t1, t3),
            new Placements.Stay(2, t3, p.lastNs())), w.location(p.firstNs(), p.lastNs()),
            "node 0 from the start, node 1 after the first move, node 2 after the safe-point one; the refused IDLE "
                + "move changes nothing");
        assertEquals(2, w.node());
    }

    @Test
    void aCallThroughAForwardingAddressIsForwardedNotACallNorAFailure() {
        RunProfile p = RunProfile.read(dir);
        Placements.ObjectPlacement w = p.placements().objects().get("w");
        assertEquals(5, w.calls());
        assertEquals(1, w.forwarded());
        assertEquals(3, w.callers().get(1).calls());
        assertEquals(0, w.callers().get(1).forwarded());
        assertEquals(2, w.callers().get(2).calls());
        assertEquals(1, w.callers().get(2).forwarded());
        RunProfile.CallStats add = p.calls().get("w").get("add");
        assertEquals(5, add.calls());
        assertEquals(0, add.failedCalls());
        assertEquals("[0, 1]", add.targets().toString());
        assertEquals(2 + 10 + 6 + 3 + 10, p.nodes().get(2).remoteCalls(),
            "node 2's calls: w twice (the forwarded hop is not a call), c3 10, edge 6, few 3, cumulus.names 10");
        assertTrue(!p.placements().objects().containsKey("cumulus.names"), "the runtime's own objects never move");
        assertEquals(10, p.calls().get("cumulus.names").get("resolve").calls());
    }

    @Test
    void suggestsAMoveWhereOneNodeMakesMostCallsOfAnObjectThatLivesElsewhere() {
        List<Placements.Suggestion> s = RunProfile.read(dir).placements().suggestions();
        assertEquals(List.of(new Placements.Suggestion("c3", 0, 2, 10, 12), new Placements.Suggestion("edge", 0, 2, 6,
            10)), s, "c3 (83 %) and edge (exactly the threshold); not few (3 calls), home (lives on its caller), w "
            + "(no caller has 60 %), cumulus.names (the runtime's own)");
        assertEquals("c3 lives on node 0 but node 2 makes 83 % of its calls (10 of 12): "
            + "Remote.migrate(c3, 2, Migration.DELAYED)", s.getFirst().message());
        assertEquals(0.60, Placements.SUGGEST_SHARE);
    }

    @Test
    void jsonCarriesPlacementsAndSuggestions() throws Exception {
        RunProfile p = RunProfile.read(dir);
        ProfileReport r = (ProfileReport) ProfileGson.read(JsonReport.render(p));
        ProfileReport.Placement w = r.placements().stream().filter(x -> x.object().equals("w")).findFirst()
            .orElseThrow();
        List<RecordedEvent> recorded = migrations(dir);
        long t1 = Events.endEpochNs(recorded.get(0)) / 1_000_000;
        long t3 = Events.endEpochNs(recorded.get(2)) / 1_000_000;
        assertEquals(List.of(new ProfileReport.Stay(0, r.startMs(), t1), new ProfileReport.Stay(1, t1, t3),
            new ProfileReport.Stay(2, t3, r.endMs())), w.location());
        assertEquals(new ProfileReport.Move(t1, "DELAYED", 0, 1, 64, 2000.0, 1, "requested", "moved"),
            w.moves().getFirst());
        assertEquals("stayed", w.moves().get(1).outcome());
        assertEquals(List.of(new ProfileReport.Caller(1, 3, 0, 60), new ProfileReport.Caller(2, 2, 1, 40)), w.callers());
        assertEquals(2, w.node());
        assertEquals(5, w.calls());
        assertEquals(1, w.forwarded());
        ProfileReport.Suggestion c3 = r.suggestions().getFirst();
        assertEquals(new ProfileReport.Suggestion("c3", 0, 2, 100.0 * 10 / 12, 10, 12,
            "Remote.migrate(c3, 2, Migration.DELAYED)", "c3 lives on node 0 but node 2 makes 83 % of its calls "
            + "(10 of 12): Remote.migrate(c3, 2, Migration.DELAYED)"), c3);
        assertEquals(2, r.suggestions().size());
    }

    @Test
    void textAndHtmlShowLocationsMovesCallersAndSuggestions() throws Exception {
        RunProfile p = RunProfile.read(dir);
        String text = TextReport.render(p, "us", "\n");
        assertTrue(text.contains("suggestion: c3 lives on node 0 but node 2 makes 83 % of its calls"), text);
        assertTrue(text.matches("(?s).*\\n  w +5 +1 +1: 3 \\(60%\\), 2: 2 \\(40%\\) \\+1 fwd +node 0 0\\.000-\\S+s -> "
            + "node 1 \\S+ -> node 2 \\S+\\n.*"), text);
        assertTrue(text.matches("(?s).*\\+\\S+s +w +DELAYED +0 -> 1 +64 +2\\.00 ms +1 +requested +moved\\n.*"), text);
        assertTrue(text.matches("(?s).*\\+\\S+s +w +IDLE +1 -> 2 +0 +5\\.00 us +0 +requested +stayed\\n.*"), text);

        String html = HtmlReport.render(p);
        assertTrue(html.contains("<section id=\"placements\">"), html);
        assertTrue(html.contains("Suggestion: c3 lives on node 0 but node 2 makes 83 % of its calls"), html);
        assertTrue(html.contains("<th>from node 1</th><th>from node 2</th>"), "a column per caller node");
        List<org.w3c.dom.Document> strips = RunProfileTest.svgs(html).stream()
            .filter(d -> d.getDocumentElement().getAttribute("class").equals("strips")).toList();
        assertEquals(1, strips.size());
        org.w3c.dom.NodeList rects = strips.getFirst().getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
        assertEquals(3 + 4, rects.getLength(), "w: three stays; c3, edge, few, home: one each");
    }

    /** The Migration events of the run directory's recordings, by end time. */
    private static List<RecordedEvent> migrations(Path dir) throws Exception {
        List<RecordedEvent> out = new ArrayList<>();
        for (String f : List.of("node-0.jfr", "node-1.jfr")) {
            for (RecordedEvent e : RecordingFile.readAllEvents(dir.resolve(f))) {
                if (e.getEventType().getName().equals(Events.MIGRATION)) {
                    out.add(e);
                }
            }
        }
        out.sort(Comparator.comparingLong(Events::endEpochNs));
        return out;
    }
}
