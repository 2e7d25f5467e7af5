package dev.cumulus.cli.profile;

import dev.cumulus.LocalCluster;
import dev.cumulus.Migration;
import dev.cumulus.Remote;
import dev.cumulus.internal.migration.MigrationEvent;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import dev.cumulus.profiler.Events;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.report.HtmlReport;
import dev.cumulus.profiler.report.JsonReport;
import dev.cumulus.profiler.report.Placements;
import dev.cumulus.profiler.report.RunProfile;
import dev.cumulus.profiler.report.TextReport;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The profiler on a recording of a real run (three nodes in this JVM) in which a remote object migrates: the location
 * timeline and the move rows equal the runtime's {@code dev.cumulus.Migration} events, the calls by caller node equal
 * its {@code dev.cumulus.RemoteCall} events (the call through the forwarding address counted as forwarded), and the
 * suggested move follows from them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MigrationProfileTest {
    @TempDir
    Path dir;

    @Test
    void locationMovesAndCallersAreTheRunsEvents() throws Exception {
        Path file = dir.resolve("node-0.jfr");
        try (Recording r = new Recording()) {
            r.enable(RemoteCallEvent.NAME).withoutThreshold();
            r.enable(MigrationEvent.NAME).withoutThreshold();
            r.start();
            LocalCluster.run(3, cluster -> {
                int me = cluster.nodeId();
                if (me == 0) {
                    cluster.export(new Counter.Impl(), Counter.class, "c3");
                }
                cluster.barrier();
                Counter c3 = cluster.lookup("c3", Counter.class);
                for (int i = 0; i < (me == 1 ? 2 : me == 2 ? 10 : 0); i++) {
                    c3.add(1);
                }
                cluster.barrier();
                if (me == 0) {
                    Remote.migrate(c3, 1, Migration.DELAYED);
                }
                cluster.barrier();
                if (me == 2) {
                    assertEquals(13, c3.add(1), "through node 0's forwarding address to node 1");
                    assertEquals(1, Remote.nodeOf(c3));
                }
                cluster.barrier();
            });
            r.stop();
            r.dump(file);
        }
        Files.writeString(dir.resolve("launch.properties"), "cumulus.nodes=1\n");
        List<RecordedEvent> moves = events(file, MigrationEvent.NAME);
        List<RecordedEvent> calls = events(file, RemoteCallEvent.NAME);

        RunProfile p = RunProfile.read(dir);

        assertEquals(List.of(), p.problems());
        Placements.ObjectPlacement c3 = p.placements().objects().get("c3");
        assertEquals(1, moves.size(), "one migration, recorded by node 0");
        RecordedEvent m = moves.getFirst();
        assertEquals(List.of(new Placements.Move("c3", Events.endEpochNs(m), "DELAYED", 0, 1,
            m.getLong("stateBytes"), m.getLong("pauseNs"), m.getInt("callsHeld"), "requested", "moved")), c3.moves());
        assertTrue(m.getLong("stateBytes") > 0, "the state moved by value");
        long movedNs = Events.endEpochNs(m);
        assertEquals(List.of(new Placements.Stay(0, p.firstNs(), movedNs), new Placements.Stay(1, movedNs,
            p.lastNs())), c3.location(p.firstNs(), p.lastNs()), "node 0 from the run's start, node 1 after the move");
        assertEquals(1, c3.node());

        Map<Integer, long[]> byCaller = new TreeMap<>();
        for (RecordedEvent e : calls) {
            if (e.getString("object").equals("c3")) {
                long[] c = byCaller.computeIfAbsent(e.getInt("callerNode"), k -> new long[2]);
                c[e.getString("outcome").equals("moved") ? 1 : 0]++;
            }
        }
        assertEquals("{1=[2, 0], 2=[11, 1]}", render(byCaller), "what the program did, as the events say");
        Map<Integer, long[]> profiled = new TreeMap<>();
        c3.callers().forEach((n, c) -> profiled.put(n, new long[] {c.calls(), c.forwarded()}));
        assertEquals(render(byCaller), render(profiled));
        assertEquals(13, c3.calls());
        assertEquals(1, c3.forwarded());
        assertEquals(13, p.calls().get("c3").get("add").calls(), "the forwarded hop is not a call of its own");
        assertEquals(0, p.calls().get("c3").get("add").failedCalls());

        assertEquals(List.of("c3"), List.copyOf(p.placements().objects().keySet()), "the runtime's own objects left out");
        assertEquals(1, p.placements().suggestions().size());
        Placements.Suggestion s = p.placements().suggestions().getFirst();
        assertEquals("c3 lives on node 1 but node 2 makes 85 % of its calls (11 of 13): "
            + "Remote.migrate(c3, 2, Migration.DELAYED)", s.message());

        var json = ((dev.cumulus.profiler.channel.ProfileReport) ProfileGson.read(JsonReport.render(p))).placements()
            .stream().filter(x -> x.object().equals("c3")).findFirst().orElseThrow();
        assertEquals(List.of(0, 1), json.location().stream().map(x -> x.node()).toList());
        assertEquals(movedNs / 1_000_000, json.moves().getFirst().tMs());
        assertTrue(TextReport.render(p, "us", "\n").contains("suggestion: " + s.message()));
        assertTrue(HtmlReport.render(p).contains("<section id=\"placements\">"));
    }

    private static List<RecordedEvent> events(Path file, String name) throws Exception {
        return RecordingFile.readAllEvents(file).stream().filter(e -> e.getEventType().getName().equals(name))
            .toList();
    }

    private static String render(Map<Integer, long[]> m) {
        StringBuilder sb = new StringBuilder("{");
        m.forEach((k, v) -> sb.append(sb.length() > 1 ? ", " : "").append(k).append("=[").append(v[0]).append(", ")
            .append(v[1]).append(']'));
        return sb.append('}').toString();
    }
}
