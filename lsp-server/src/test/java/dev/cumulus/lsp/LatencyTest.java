package dev.cumulus.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Edits on a generated project of about 2,000 lines (40 cloud classes): each of 20 edits gets its own
 * {@code publishDiagnostics} with the right findings and the hints stay, and the time from {@code didChange} to the
 * matching {@code publishDiagnostics} (including the 200 ms debounce) and inlay-hint latency are printed. The figures
 * are information, not assertions: a test asserts behaviour, and a loaded box says nothing about latency.
 */
@Timeout(300)
class LatencyTest {
    static final int CLASSES = 40;

    @TempDir
    Path dir;

    static String cloudClass(int i, boolean impure) {
        StringBuilder b = new StringBuilder();
        b.append("package gen;\n\nimport dev.cumulus.Cloud;\nimport java.util.ArrayList;\nimport java.util.List;\n\n");
        b.append("/** Generated cloud class ").append(i).append(". */\n");
        b.append("public class Counter").append(i).append(" implements Cloud.Root {\n");
        b.append("    private int count;\n    private long total;\n    private final List<String> names = new ArrayList<>();\n\n");
        b.append("    public synchronized void add(int n) {\n        count++;\n        total += n;\n    }\n\n");
        b.append("    public int count() {\n        return count;\n    }\n\n");
        b.append("    public long total() {\n        return total;\n    }\n\n");
        b.append("    public synchronized void name(String s) {\n        names.add(s);\n    }\n\n");
        b.append("    public int names() {\n        return names.size();\n    }\n\n");
        b.append("    public synchronized void addTwice(int n) {\n        add(n);\n        add(n);\n    }\n\n");
        b.append("    public double mean() {\n        if (count == 0) {\n            return 0;\n        }\n");
        b.append("        return (double) total / count;\n    }\n\n");
        b.append("    public long stamp() {\n        return ").append(impure ? "System.nanoTime()" : "total")
                .append(";\n    }\n\n");
        b.append("    public int peek() {\n        int c = count;\n        for (int k = 0; k < 3; k++) {\n");
        b.append("            c += k;\n        }\n        return c;\n    }\n}\n");
        return b.toString();
    }

    @Test
    void didChangeToPublishDiagnosticsOnATwoThousandLineProject() throws Exception {
        int lines = 0;
        for (int i = 0; i < CLASSES; i++) {
            String text = cloudClass(i, false);
            lines += (int) text.lines().count();
            Path f = dir.resolve("src/gen/Counter" + i + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, text);
        }
        try (Harness h = Harness.inProcess()) {
            h.initialize(dir, Harness.options(true, 200));
            Path edited = dir.resolve("src/gen/Counter0.java");
            String uri = h.open(edited);
            h.client.awaitDiagnostics(uri, 1);
            List<Long> publishMs = new ArrayList<>();
            List<Long> hintMs = new ArrayList<>();
            for (int v = 2; v < 22; v++) {
                boolean impure = v % 2 == 0;
                long t0 = System.nanoTime();
                h.change(uri, v, cloudClass(0, impure));
                var d = h.client.awaitDiagnostics(uri, v);
                publishMs.add((System.nanoTime() - t0) / 1_000_000);
                assertEquals(impure ? 1 : 0, d.getDiagnostics().size(), "edit " + v);
                long t1 = System.nanoTime();
                int hints = h.inlayHints(uri).size();
                hintMs.add((System.nanoTime() - t1) / 1_000_000);
                assertEquals(9, hints);
            }
            var snap = h.local.latestSnapshot();
            System.out.printf("latency on %d lines in %d classes (debounce 200 ms): didChange->publishDiagnostics "
                            + "p50 %d ms, p95 %d ms; inlayHint p50 %d ms, p95 %d ms; last analysis: compile %d ms, "
                            + "analyse+place %d ms%n", lines, CLASSES, pct(publishMs, 50), pct(publishMs, 95),
                    pct(hintMs, 50), pct(hintMs, 95), snap.compileMillis(), snap.analyzeMillis());
            assertTrue(lines >= 1900, "generated " + lines + " lines");
        }
    }

    static long pct(List<Long> values, int p) {
        List<Long> s = values.stream().sorted().toList();
        return s.get(Math.min(s.size() - 1, (int) Math.ceil(p / 100.0 * s.size()) - 1));
    }
}
