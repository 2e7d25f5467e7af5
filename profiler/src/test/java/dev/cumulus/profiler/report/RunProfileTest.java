package dev.cumulus.profiler.report;

import dev.cumulus.profiler.Latencies;
import dev.cumulus.profiler.channel.ObjectFigures;
import dev.cumulus.profiler.figures.ReportFigures;
import java.util.Set;
import java.util.TreeMap;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileReport;
import dev.cumulus.profiler.TestEvents;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Aggregation and presentation of a run directory whose recordings are made in this JVM. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunProfileTest {
    @TempDir
    Path dir;

    @BeforeEach
    void recordTwoNodes() throws Exception {
        Recording r0 = TestEvents.start();
        TestEvents.call(0, 1, "worker-1", "work", false, 100, 10, "ok");
        TestEvents.call(0, 1, "worker-1", "work", true, 100, 10, "ok");
        TestEvents.call(0, 1, "worker-1", "work", false, 100, 0, "timeout");
        TestEvents.write(0, "best", "set", 1, 40);
        TestEvents.write(0, "best", "set", 2, 40);
        TestEvents.migrate(1, 0, 1);
        TestEvents.CloudSummary cs = new TestEvents.CloudSummary();
        cs.node = 0;
        cs.cloud = "best";
        cs.writes = 2;
        cs.restarts = 3;
        cs.commit();
        TestEvents.PastSetOperation op = new TestEvents.PastSetOperation();
        op.begin();
        op.element = "row";
        op.operation = "move";
        op.callerNode = 0;
        op.homeNode = 1;
        op.bytes = 64;
        op.blockedNs = 2_000_000;
        op.outcome = "ok";
        op.commit();
        TestEvents.miss(0, "A", 3);
        TestEvents.miss(0, "A", 3);
        TestEvents.miss(0, "A", 5);
        TestEvents.BarrierWait bw = new TestEvents.BarrierWait();
        bw.begin();
        bw.node = 0;
        bw.barrier = "stage";
        bw.role = "proxy";
        bw.commit();
        TestEvents.dump(r0, dir.resolve("node-0.jfr"));

        Recording r1 = TestEvents.start();
        TestEvents.write(1, "best", "set", 3, 40);
        TestEvents.migrate(0, 1, 3);
        TestEvents.miss(1, "A", 3);
        TestEvents.ArrayInvalidation inv = new TestEvents.ArrayInvalidation();
        inv.node = 1;
        inv.array = "A";
        inv.partition = 3;
        inv.sharers = 1;
        inv.commit();
        TestEvents.ArraySummary as = new TestEvents.ArraySummary();
        as.node = 1;
        as.array = "A";
        as.hits = 500;
        as.readMisses = 1;
        as.bytesMoved = 4096;
        as.commit();
        TestEvents.PastSetSummary ps = new TestEvents.PastSetSummary();
        ps.node = 1;
        ps.element = "row";
        ps.moves = 5;
        ps.observes = 4;
        ps.remoteOperations = 1;
        ps.blockedNs = 3_000_000;
        ps.distance = 2;
        ps.commit();
        TestEvents.NodeLifecycle lc = new TestEvents.NodeLifecycle();
        lc.node = 1;
        lc.phase = "joined";
        lc.subject = 1;
        lc.detail = "";
        lc.commit();
        TestEvents.dump(r1, dir.resolve("node-1.jfr"));
        Files.writeString(dir.resolve("launch.properties"), "cumulus.nodes=3\n");
    }

    @Test
    void aggregatesPerObjectAndNode() {
        RunProfile p = RunProfile.read(dir);

        assertEquals(List.of("node-0.jfr", "node-1.jfr"), p.recordings());
        assertEquals(1, p.problems().size(), "node-2.jfr is missing: " + p.problems());
        RunProfile.CallStats work = p.calls().get("worker-1").get("work");
        assertEquals(3, work.calls());
        assertEquals(1, work.asyncCalls());
        assertEquals(1, work.failedCalls());
        assertEquals(300, work.requestBytes());
        assertEquals(20, work.replyBytes());
        assertEquals("[0] -> [1]", work.callers() + " -> " + work.targets());

        RunProfile.CallStats set = p.writes().get("best").get("set");
        assertEquals(3, set.calls());
        assertEquals(120, set.requestBytes());
        assertEquals("[0, 1]", set.callers().toString());
        assertEquals(3, p.restarts("best"));
        assertEquals(Map.of(0, 1L, 1, 1L), p.sequencerArrivals());
        List<long[]> where = p.sequencerLocation();
        assertEquals(List.of(1L, 0L, 1L), where.stream().map(s -> s[1]).toList(), "starts at node 1, then 0, then 1");

        RunProfile.ElementStats row = p.elements().get("row");
        assertEquals(5, row.moves());
        assertEquals(4, row.observes());
        assertEquals(64, row.bytes());
        assertEquals(3_000_000, row.blockedNs());

        RunProfile.ArrayStats a = p.arrays().get("A");
        assertEquals(2, a.partitions().get(3).get(0).misses());
        assertEquals(1, a.partitions().get(3).get(1).misses());
        assertEquals(1, a.partitions().get(3).get(1).invalidations());
        assertEquals(1, a.partitions().get(5).get(0).misses());
        assertEquals(500, a.nodes().get(1).hits());
        assertEquals(4096, a.nodes().get(1).bytes());
        assertEquals(4, a.misses());

        assertEquals(1, p.other().get("BarrierWait stage").count());
        assertEquals(3, p.nodes().get(0).remoteCalls());
        assertEquals(1, p.nodes().get(0).failedCalls());
        assertEquals(2, p.nodes().get(0).writes());
        assertEquals(3, p.nodes().get(0).arrayMisses());
        assertEquals(1, p.nodes().get(1).sequencerArrivals());
        assertEquals(1, p.lifecycle().size());
    }

    @Test
    void theReportsFiguresCountEachKindsOperationOverTheRun() {
        RunProfile p = RunProfile.read(dir);
        ProfileReport r = (ProfileReport) ProfileGson.read(JsonReport.render(p));
        Map<String, ObjectFigures> byName = new TreeMap<>();
        r.objects().forEach(f -> byName.put(f.name(), f));
        assertEquals(List.of(), r.internal());
        assertEquals(Set.of("best", "worker-1", "row", "A", "BarrierWait stage"), byName.keySet());
        ObjectFigures best = byName.get("best");
        assertEquals(List.of("cloud", "writes", 3L, 3L, 120L), List.of(best.kind(), best.operation(), best.operations(),
            best.restarts(), best.bytes()));
        Latencies writes = new Latencies();
        p.writes().get("best").values().forEach(s -> writes.addAll(s.latenciesNs()));
        assertEquals(writes.percentileMicros(99), best.p99Us(), "every write of the cloud, its methods merged");
        ObjectFigures worker = byName.get("worker-1");
        assertEquals(List.of("calls", 3L, 1L), List.of(worker.operation(), worker.operations(), worker.failed()));
        ObjectFigures row = byName.get("row");
        assertEquals(List.of("operations", 9L), List.of(row.operation(), row.operations()), "moves and observes at home");
        ObjectFigures a = byName.get("A");
        assertEquals(List.of("misses", 4L, 500L), List.of(a.operation(), a.operations(), a.hits()));
        assertEquals(List.of("events", 1L), List.of(byName.get("BarrierWait stage").operation(),
            byName.get("BarrierWait stage").operations()));
        assertEquals(null, byName.get("BarrierWait stage").p99Us(), "no latency for other events");
        long spanNs = p.lastNs() - p.firstNs();
        for (ObjectFigures f : r.objects()) {
            if (spanNs < ReportFigures.MIN_SPAN_NS || f.operations() < ReportFigures.MIN_OPERATIONS) {
                assertEquals(null, f.operationsPerSec(), f.name() + ": no rate over a span under a second, nor for "
                    + "a few operations");
            } else {
                assertEquals(f.operations() / (spanNs / 1e9), f.operationsPerSec(), 1e-9, f.name());
            }
        }
    }

    @Test
    void textHasEveryTable() {
        String text = TextReport.render(RunProfile.read(dir), "us", "\n");
        assertTrue(text.contains("2 recordings (node-0.jfr, node-1.jfr)"), text);
        assertTrue(text.contains("warning: node-2.jfr is missing"), text);
        assertTrue(Pattern.compile("worker-1\\s+work\\s+3\\s+1\\s+1\\s+[0-9.]+ \\S+\\s+[0-9.]+ \\S+\\s+300\\s+20\\s+"
            + "0 -> 1\n")
            .matcher(text).find(), text);
        assertTrue(Pattern.compile("best\\s+set\\s+3\\s+3\\s").matcher(text).find(), text);
        assertTrue(text.contains("sequencer migrations: 2 (arrivals per node: 0=1, 1=1)"), text);
        assertTrue(text.contains("sequencer location: node 1 (+"), text);
        assertTrue(text.contains("tuple elements (PastSet):"), text);
        assertTrue(text.contains("shared arrays by node"), text);
        assertTrue(text.contains("other Cumulus events:"), text);
        assertTrue(text.contains("per node totals"), text);
    }

    @Test
    void aTupleElementsBlockedTimeCoversAllItsOperationsAndNamesTheRemotePart() {
        RunProfile p = RunProfile.read(dir);
        RunProfile.ElementStats row = p.elements().get("row");
        assertEquals(3_000_000, row.blockedNs(), "the home's summaries: local and remote operations");
        assertEquals(2_000_000, row.remoteBlockedNs(), "the caller's move waited 2 ms at the home");
        assertEquals(5, row.moves());
        String text = TextReport.render(p, "µs", "\n");
        assertTrue(Pattern.compile("row\\s+5\\s+4\\s+1\\s+3\\.00 ms\\s+2\\.00 ms\\s").matcher(text).find(), text);
    }

    @Test
    void jsonIsOneParsableObject() {
        ProfileReport m = (ProfileReport) ProfileGson.read(JsonReport.render(RunProfile.read(dir)));
        assertEquals(2, m.version());
        assertEquals("report", m.type());
        assertEquals("worker-1", m.remote().getFirst().object());
        assertEquals(3L, m.remote().getFirst().calls());
        assertEquals(2L, m.sequencer().migrations());
        ProfileReport.Array array = m.arrays().getFirst();
        assertEquals("A", array.array());
        assertEquals(3, array.partitions().size(), "partition 3 on nodes 0 and 1, 5 on node 0");
        assertEquals(2, m.nodes().size());
    }

    @Test
    void htmlHasTheSectionsAndWellFormedSvg() throws Exception {
        String html = HtmlReport.render(RunProfile.read(dir));

        for (String id : List.of("clouds", "sequencer", "remote", "arrays", "elements", "other", "nodes",
            "lifecycle")) {
            assertTrue(html.contains("<section id=\"" + id + "\">"), id);
        }
        assertFalse(html.contains("http://") && html.replace("http://www.w3.org/2000/svg", "").contains("http://"),
            "nothing fetched from the network");
        assertFalse(html.contains("<link") || html.contains("src=\""), "self-contained");
        List<Document> svgs = svgs(html);
        assertTrue(svgs.size() >= 5, "writes, apply latency, sequencer, call latency, call rate, heat map: "
            + svgs.size());
        assertTrue(svgs.stream().anyMatch(d -> d.getDocumentElement().getAttribute("class").equals("heat")));
        assertTrue(html.contains("array A"), "heat map per array");
        assertTrue(html.contains("sequencer location (2 migrations)"));
    }

    @Test
    void htmlWithoutArraysSaysSo() throws Exception {
        Path empty = dir.resolve("empty");
        Files.createDirectories(empty);
        Recording r = TestEvents.start();
        TestEvents.call(0, 1, "w", "m", false, 1, 1, "ok");
        TestEvents.dump(r, empty.resolve("node-0.jfr"));

        String html = HtmlReport.render(RunProfile.read(empty));

        assertTrue(html.contains("No shared-array misses were recorded in this run"), html);
        assertTrue(html.contains("The sequencer never migrated"), html);
        svgs(html);
    }

    @Test
    void aDirectoryWithoutRecordingsIsAnEmptyReport() {
        Path none = dir.resolve("none");
        RunProfile p = RunProfile.read(none);
        assertTrue(p.isEmpty());
        assertEquals(1, p.problems().size(), p.problems().toString());
        String text = TextReport.render(p, "us", "\n");
        assertTrue(text.contains("no recordings"), text);
        assertTrue(HtmlReport.render(p).contains("No Cumulus events were recorded"));
    }

    /** Every inline {@code <svg>} element parsed as XML. */
    static List<Document> svgs(String html) throws Exception {
        Matcher m = Pattern.compile("(?s)<svg .*?</svg>").matcher(html);
        List<Document> docs = new ArrayList<>();
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        while (m.find()) {
            Document d = f.newDocumentBuilder().parse(new ByteArrayInputStream(m.group().getBytes(StandardCharsets.UTF_8)));
            assertEquals("svg", d.getDocumentElement().getLocalName());
            assertEquals("http://www.w3.org/2000/svg", d.getDocumentElement().getNamespaceURI());
            docs.add(d);
        }
        return docs;
    }
}
