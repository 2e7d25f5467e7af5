package dev.cumulus.profiler.report;

import dev.cumulus.profiler.TestEvents;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileReport;
import dev.cumulus.profiler.figures.FigureText;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The single-VM events become per-field, per-class and per-node figures in the text, HTML and JSON reports, and a
 * field's lens text.
 */
@Timeout(60)
class SingleVmHeapTest {
    @TempDir
    Path dir;

    @Test
    void fetchesAndWriteBacksPerFieldLockWaitsPerClassInvalidationsPerNode() throws Exception {
        Recording r = TestEvents.start();
        fetch("app.Pool", "size", 3);
        fetch("app.Pool", "size", 3);
        fetch("[J", "[]", 1024);
        TestEvents.SingleVmWriteBack w = new TestEvents.SingleVmWriteBack();
        w.begin();
        w.node = 1;
        w.homeNode = 0;
        w.className = "app.Pool";
        w.fields = "size,working";
        w.entries = 2;
        w.callObjects = 1;
        w.commit();
        for (String field : new String[] {"a", "a", "b", "c"}) {
            TestEvents.SingleVmWriteBack shared = new TestEvents.SingleVmWriteBack();
            shared.begin();
            shared.node = 1;
            shared.homeNode = 0;
            shared.className = "app.Cell";
            shared.fields = field;
            shared.entries = 1;
            shared.callObjects = 4;
            shared.commit();
        }
        TestEvents.SingleVmLockWait l = new TestEvents.SingleVmLockWait();
        l.begin();
        l.node = 1;
        l.homeNode = 0;
        l.className = "app.Pool";
        l.commit();
        for (long n : new long[] {5, 9}) {
            TestEvents.SingleVmInvalidations i = new TestEvents.SingleVmInvalidations();
            i.node = 1;
            i.invalidations = n;
            i.commit();
        }
        TestEvents.dump(r, dir.resolve("node-1.jfr"));
        RunProfile p = RunProfile.read(dir);

        SingleVmHeap h = p.singleVm();
        SingleVmHeap.FieldStats size = h.fields().get("app.Pool").get("size");
        assertEquals(2, size.fetches());
        assertEquals(6, size.fetchedEntries());
        assertEquals(1, size.writeBacks());
        assertEquals(1, h.fields().get("app.Pool").get("working").writeBacks());
        assertEquals(1024, h.fields().get("[J").get("[]").fetchedEntries());
        long aNs = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(dir.resolve("node-1.jfr"))) {
            if (e.getEventType().getName().equals(SingleVmHeap.WRITE_BACK) && "a".equals(e.getString("fields"))) {
                aNs += e.getDuration().toNanos() / 4;
            }
        }
        assertEquals(2, h.fields().get("app.Cell").get("a").writeBacks());
        assertEquals(aNs, h.fields().get("app.Cell").get("a").writeBackNs(),
            "a call that carried four objects counts a quarter of its time for each");
        assertEquals(1, h.locks().get("app.Pool").waits());
        assertEquals(9L, h.invalidations().get(1), "cumulative counters: the largest counts");

        String text = TextReport.render(p, "µs", "\n");
        assertTrue(text.matches("(?s).*single-VM heap: fetches and write-backs per field.*\n  app\\.Pool\\s+size\\s+2\\s+"
            + "[0-9.]+ (ns|µs|ms|s)\\s+6\\s+1\\s.*"), text);
        assertTrue(text.contains("single-VM heap: cache invalidations (acquires) per node: node 1 9"), text);
        ProfileReport.SingleVm json = ((ProfileReport) ProfileGson.read(JsonReport.render(p))).singleVm();
        assertEquals(new ProfileReport.HeapField("app.Pool", "size", 2, json.fields().get(4).fetchMs(), 6, 1,
            json.fields().get(4).writeBackMs(), List.of(1), List.of(0)), json.fields().get(4), "--json: " + json);
        assertEquals(List.of("[J []", "app.Cell a", "app.Cell b", "app.Cell c", "app.Pool size", "app.Pool working"),
            json.fields().stream().map(f -> f.className() + " " + f.field()).toList());
        assertEquals(1, json.locks().getFirst().waits());
        assertEquals(List.of(new ProfileReport.HeapInvalidations(1, 9)), json.invalidations());
        assertEquals("2 remote fetches · 1 write-back · nodes 1 ↔ home 0", FigureText.describe(json.fields().get(4)));
        assertNull(JsonReport.of(RunProfile.read(Files.createDirectories(dir.resolve("empty")))).singleVm(),
            "absent without the events");

        String html = HtmlReport.render(p);
        assertTrue(html.contains("<section id=\"singlevm\">") && html.contains("<td>size</td>"), html);
    }

    private static void fetch(String className, String field, int entries) {
        TestEvents.SingleVmFetch f = new TestEvents.SingleVmFetch();
        f.begin();
        f.node = 1;
        f.homeNode = 0;
        f.className = className;
        f.field = field;
        f.entries = entries;
        f.commit();
    }
}
