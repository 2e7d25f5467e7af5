package dev.cumulus.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single-VM rules (CUM2xx) show as diagnostics when the workspace is a single-VM program (setting
 * {@code cumulus.singleVm}), without the Cumulus API on the classpath, and go when the setting is turned off.
 */
@Timeout(120)
class SingleVmDiagnosticsTest {
    @TempDir
    Path dir;

    private static final String PROGRAM = """
            package demo;

            import java.util.HashMap;
            import java.util.Map;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;

            public class Main {
                static final Map<String, Integer> TOTALS = new HashMap<>();

                public static void main(String[] args) throws Exception {
                    Thread t = new Thread(() -> TOTALS.put("t", 1));
                    t.start();
                    t.join();
                    ExecutorService pool = Executors.newFixedThreadPool(2);
                    pool.shutdown();
                }

                enum Level { LOW; int hits; void hit() { hits++; } }

                interface Tables { int[] TABLE = new int[1]; }

                static void locked() { synchronized ("lock") { } }
            }
            """;

    @Test
    void theSettingTurnsTheSingleVmRulesOnAndOff() throws Exception {
        Path f = Files.createDirectories(dir.resolve("src/demo")).resolve("Main.java");
        Files.writeString(f, PROGRAM);
        try (Harness h = Harness.inProcess()) {
            JsonObject o = Harness.options(false, 0);
            o.addProperty("singleVm", true);
            h.initialize(dir, o);
            String uri = h.open(f);
            List<Diagnostic> d = h.client.awaitDiagnostics(uri, 1).getDiagnostics();
            List<String> got = d.stream().map(x -> x.getCode().getLeft() + " " + x.getSeverity() + " "
                    + (x.getRange().getStart().getLine() + 1) + ":" + x.getRange().getStart().getCharacter()).toList();
            // on the field name (hits, TABLE) and on the synchronized statement
            String w = " " + DiagnosticSeverity.Warning + " ";
            assertEquals(List.of("CUM201" + w + "9:38", "CUM203" + w + "15:8", "CUM204" + w + "19:26",
                    "CUM205" + w + "21:29", "CUM206" + w + "23:27"), got.stream().sorted().toList(), d.toString());
            Diagnostic escape = d.stream().filter(x -> x.getCode().getLeft().equals("CUM201")).findFirst().orElseThrow();
            assertEquals("field 'TOTALS' holds a HashMap, which cannot leave the node that made it, and thread code "
                    + "touches it (a lambda of Main at Main.java:12); with --single-vm that thread may run on "
                    + "another node, where the access fails (use a shared collection (SingleVm.list, SingleVm.map, "
                    + "SingleVm.priorityQueue) or a program class, or make the object inside the thread)",
                    escape.getMessage().getLeft());

            JsonObject cumulus = new JsonObject();
            cumulus.addProperty("singleVm", false);
            JsonObject settings = new JsonObject();
            settings.add("cumulus", cumulus);
            h.server.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(settings));
            PublishDiagnosticsParams off = h.client.await(() -> h.client.read(() -> h.client.diagnostics.get(uri)),
                    p -> p.getDiagnostics().isEmpty(), 30_000);
            assertEquals(List.of(), off.getDiagnostics());
        }
    }
}
