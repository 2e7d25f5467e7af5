package dev.cumulus.profiler.report;

import dev.cumulus.profiler.TestEvents;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The single-VM events become per-field, per-class and per-node figures in the text and HTML reports. */
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
        w.commit();
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
        assertEquals(1, h.locks().get("app.Pool").waits());
        assertEquals(9L, h.invalidations().get(1), "cumulative counters: the largest counts");

        String text = TextReport.render(p, "µs", "\n");
        assertTrue(text.matches("(?s).*single-VM heap: fetches and write-backs per field.*\n  app\\.Pool\\s+size\\s+2\\s+"
            + "[0-9.]+ (ns|µs|ms|s)\\s+6\\s+1\\s.*"), text);
        assertTrue(text.contains("single-VM heap: cache invalidations (acquires) per node: node 1 9"), text);
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
