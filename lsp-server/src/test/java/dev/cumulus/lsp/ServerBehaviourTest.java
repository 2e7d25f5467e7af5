package dev.cumulus.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.lsp.model.LineMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionContext;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.ProfileReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Behaviour over the wire: broken files, a project without the API, quick fixes, lenses, commands. */
@Timeout(120)
class ServerBehaviourTest {
    @TempDir
    Path dir;

    private static final String BROKEN = """
            package demo;

            import dev.cumulus.Cloud;

            public class Clock implements Cloud.Root {
                static int ticks = 0;
                private long stamp;

                public void touch() { stamp = System.currentTimeMillis(); }

                public void broken() { stamp = ; if ( }

                public long stamp() { return stamp; }
            }
            """;

    @Test
    void brokenMethodStillGivesTheOtherMembersDiagnosticsAndHints() throws Exception {
        Path f = write("src/demo/Clock.java", BROKEN);
        try (Harness h = Harness.inProcess()) {
            h.initialize(dir, Harness.options(true, 0));
            String uri = h.open(f);
            List<Diagnostic> d = h.client.awaitDiagnostics(uri, 1).getDiagnostics();
            List<String> got = d.stream().filter(x -> x.getCode() != null)
                    .map(x -> x.getCode().getLeft() + "@" + (x.getRange().getStart().getLine() + 1)).sorted().toList();
            assertEquals(List.of("CUM104@6", "CUM107@9"), got);
            // and the compiler's own errors, on the broken line only
            List<Diagnostic> java = d.stream().filter(x -> x.getCode() == null).toList();
            assertFalse(java.isEmpty(), d.toString());
            assertTrue(java.stream().allMatch(x -> x.getRange().getStart().getLine() == 10
                    && "cumulus".equals(x.getSource()) && x.getSeverity() == DiagnosticSeverity.Error), java.toString());
            var hints = h.inlayHints(uri).stream().map(x -> x.getLabel().getLeft() + "@"
                    + (x.getPosition().getLine() + 1)).sorted().toList();
            assertTrue(hints.containsAll(List.of("W@9", "R@13")), hints.toString());
            // still alive and answering after more broken edits
            h.change(uri, 2, BROKEN.replace("public long stamp()", "public long stamp( {"));
            h.client.awaitDiagnostics(uri, 2);
            h.change(uri, 3, "class {{{ ");
            List<Diagnostic> last = h.client.awaitDiagnostics(uri, 3).getDiagnostics();
            assertTrue(!last.isEmpty() && last.stream().allMatch(x -> x.getCode() == null), last.toString());
            assertEquals(0, h.shutdown());
        }
    }

    @Test
    void projectWithoutTheApiGetsOneClearMessage() throws Exception {
        Path a = write("A.java", "public class A { static int x; int get() { return x; } }");
        Path b = write("B.java", "public class B { long t() { return System.nanoTime(); } }");
        try (Harness h = Harness.inProcess()) {
            h.initialize(dir, Harness.options(false, 0));
            var messages = h.client.await(() -> h.client.read(() -> List.copyOf(h.client.messages)),
                    m -> !m.isEmpty(), 30_000);
            String ua = h.open(a);
            String ub = h.open(b);
            assertEquals(List.of(), h.client.awaitDiagnostics(ua, 1).getDiagnostics());
            assertEquals(List.of(), h.client.awaitDiagnostics(ub, 1).getDiagnostics());
            h.change(ua, 2, Files.readString(a) + "\n");
            h.client.awaitDiagnostics(ua, 2);
            List<MessageParams> all = h.client.read(() -> List.copyOf(h.client.messages));
            assertEquals(1, all.size(), all.toString());
            assertEquals(MessageType.Warning, messages.getFirst().getType());
            assertTrue(messages.getFirst().getMessage().contains("Cumulus API")
                    && messages.getFirst().getMessage().contains("cumulusClasspath"), messages.getFirst().getMessage());
        }
    }

    @Test
    void quickFixesRemoveStaticAndPassTheTimeIn() throws Exception {
        Path f = write("demo/Clock.java", BROKEN.replace("    public void broken() { stamp = ; if ( }\n", ""));
        try (Harness h = Harness.inProcess()) {
            h.initialize(dir, Harness.options(true, 0));
            String uri = h.open(f);
            h.client.awaitDiagnostics(uri, 1);
            String text = Files.readString(f);
            List<CodeAction> actions = actions(h, uri);
            assertEquals(2, actions.size(), actions.toString());
            String afterStatic = apply(text, edits(actions, "CUM104"));
            assertTrue(afterStatic.contains("\n    int ticks = 0;"), afterStatic);
            String afterTime = apply(text, edits(actions, "CUM107"));
            assertTrue(afterTime.contains("public void touch(long nowMs) { stamp = nowMs; }"), afterTime);
            // the fixed text has neither finding
            h.change(uri, 2, apply(afterStatic, List.of()));
            h.change(uri, 3, apply(apply(text, edits(actions, "CUM104")), List.of()).replace(
                    "public void touch() { stamp = System.currentTimeMillis(); }",
                    "public void touch(long nowMs) { stamp = nowMs; }"));
            assertEquals(List.of(), h.client.awaitDiagnostics(uri, 3).getDiagnostics());
        }
    }

    @Test
    void lensesShowNoRunYetThenLiveFigures() throws Exception {
        Path f = write("demo/Best.java", """
                package demo;

                import dev.cumulus.Cloud;
                import dev.cumulus.Cluster;

                public class Best implements Cloud.Root {
                    private int min = Integer.MAX_VALUE;

                    public synchronized void set(int m) { if (m < min) min = m; }

                    public int get() { return min; }

                    static Best create(Cluster cluster) {
                        return cluster.replicated("best", Best::new);
                    }
                }
                """);
        // a run whose launcher prints the profile channel: one live window, then the report
        Path fake = write("bin/cumulus", """
                #!/bin/sh
                echo '@cumulus-profile {"type":"window","version":2,"node":0,"sentMs":1,"windowMs":1000,"objects":[{"kind":"cloud","name":"best","className":"demo.Best","writes":1200,"writesPerSec":1200,"p50WriteUs":20,"p99WriteUs":35.5,"bytes":0,"migrations":3}]}'
                echo '@cumulus-profile {"type":"figures","version":2,"tMs":1,"nodes":[0],"sequencerMigrations":3,"objects":[{"kind":"cloud","name":"best","className":"demo.Best","operation":"writes","operations":1200,"operationsPerSec":1200,"p50Us":20,"p99Us":35.5,"bytes":0}],"internal":[]}'
                echo '@cumulus-profile {"type":"report","version":2,"runDir":"/tmp/r1","remote":[]}'
                """);
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (Harness h = Harness.inProcess()) {
            var o = Harness.options(true, 0);
            o.addProperty("cumulusCommand", fake.toString());
            h.initialize(dir, o);
            String uri = h.open(f);
            h.client.awaitDiagnostics(uri, 1);
            List<String> before = lenses(h, uri);
            assertEquals(List.of("best: no run yet", "cloud: no run yet"), before);
            assertEquals(Boolean.TRUE, h.server.getWorkspaceService().executeCommand(new ExecuteCommandParams(
                    CumulusProtocol.RUN, List.of(1, "demo.Best"))).get(30, TimeUnit.SECONDS));
            var records = h.client.await(() -> h.client.read(() -> List.copyOf(h.client.profile)),
                    r -> r.size() == 2, 30_000);
            assertEquals("best", ((LiveFigures) records.getFirst()).objects().getFirst().name(),
                    "the cluster's figures reach the client typed, over JSON-RPC");
            assertEquals("/tmp/r1", ((ProfileReport) records.getLast()).runDir());
            h.client.await(() -> h.client.read(() -> h.client.lensRefreshes), n -> n > 0, 10_000);
            List<String> after = lenses(h, uri);
            String live = "best: 1,200 writes/s · p99 36 µs";
            assertEquals(List.of(live, live), after);
        }
    }

    @Test
    void commandsRunThroughTheCumulusCommandAndFailClearlyWithoutIt() throws Exception {
        Path f = write("demo/Main.java", "package demo;\npublic class Main { public static void main(String[] a) { } }\n");
        Path fake = write("bin/cumulus", """
                #!/bin/sh
                if [ "$1" = new ]; then echo "created $3 from $2"; exit 0; fi
                echo "[0] hello from node 0"
                echo "[1] hello from node 1"
                echo "cumulus: run r1 directory: /tmp/r1" >&2
                exit 3
                """);
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (Harness h = Harness.inProcess()) {
            var o = Harness.options(true, 0);
            o.addProperty("cumulusCommand", fake.toString());
            h.initialize(dir, o);
            String uri = h.open(f);
            h.client.awaitDiagnostics(uri, 1);
            var ws = h.server.getWorkspaceService();
            assertEquals(Boolean.TRUE, ws.executeCommand(new ExecuteCommandParams(CumulusProtocol.RUN,
                    List.of(2, "demo.Main"))).get(30, TimeUnit.SECONDS));
            var statuses = h.client.await(() -> h.client.read(() -> List.copyOf(h.client.statuses)),
                    s -> s.stream().anyMatch(x -> x.exitCode() != null), 30_000);
            assertEquals(List.of("starting", "running", "failed"), statuses.stream().map(CumulusProtocol.RunStatus::state)
                    .toList());
            assertEquals(3, statuses.getLast().exitCode());
            assertEquals("/tmp/r1", statuses.getLast().runDir());
            var out = h.client.read(() -> List.copyOf(h.client.output));
            assertTrue(out.contains(new CumulusProtocol.NodeOutput(1, "hello from node 1", "stdout")), out.toString());
            assertEquals("created /tmp/x from replicated", ws.executeCommand(new ExecuteCommandParams(
                    CumulusProtocol.NEW_PROJECT, List.of("replicated", "/tmp/x", "p"))).get(30, TimeUnit.SECONDS)
                    .toString().replace("\"", ""));
            ExecutionException e = assertThrows(ExecutionException.class, () -> ws.executeCommand(
                    new ExecuteCommandParams(CumulusProtocol.RUN, List.of())).get(30, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof ResponseErrorException r && r.getMessage().contains("[nodes, mainClass]"));
        }
        try (Harness h = Harness.inProcess()) {
            h.initialize(dir, Harness.options(true, 0));
            ExecutionException e = assertThrows(ExecutionException.class, () -> h.server.getWorkspaceService()
                    .executeCommand(new ExecuteCommandParams(CumulusProtocol.NEW_PROJECT, List.of("replicated", "x")))
                    .get(30, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().contains("no 'cumulus' command found"), e.getCause().getMessage());
        }
    }

    @Test
    void aMainThatJoinsAClusterGetsRunAndDebugLensesAndADebugRunTellsWhereEachNodeListens() throws Exception {
        Path joins = write("demo/App.java", """
                package demo;
                import dev.cumulus.Cluster;
                public class App {
                    public static void main(String[] args) {
                        try (Cluster c = Cluster.join()) {
                            System.out.println(c.nodeId());
                        }
                    }
                    static void main(int notAMain) { }
                }
                """);
        Path plain = write("demo/Plain.java", """
                package demo;
                public class Plain {
                    public static void main(String... args) { System.out.println("no cluster here"); }
                }
                """);
        Path fake = write("bin/cumulus", """
                #!/bin/sh
                echo "args: $*"
                echo "@cumulus-debug node=1 host=127.0.0.1 port=41234"
                echo "[1] Listening for transport dt_socket at address: 41234"
                exit 0
                """);
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (Harness h = Harness.inProcess()) {
            var o = Harness.options(true, 0);
            o.addProperty("cumulusCommand", fake.toString());
            h.initialize(dir, o);
            String uri = h.open(joins);
            h.client.awaitDiagnostics(uri, 1);
            List<? extends CodeLens> lenses = h.server.getTextDocumentService().codeLens(new CodeLensParams(
                    new TextDocumentIdentifier(uri))).get(30, TimeUnit.SECONDS);
            assertEquals(List.of(CodeLensHandler.RUN_TITLE, CodeLensHandler.DEBUG_TITLE),
                    lenses.stream().map(l -> l.getCommand().getTitle()).toList());
            assertEquals(List.of(CodeLensHandler.RUN_ON_CLUSTER, CodeLensHandler.DEBUG_ON_CLUSTER),
                    lenses.stream().map(l -> l.getCommand().getCommand()).toList());
            assertEquals(3, lenses.getFirst().getRange().getStart().getLine(), "over main, not over main(int)");
            assertTrue(lenses.getFirst().getCommand().getArguments().toString().contains("demo.App"),
                    lenses.getFirst().getCommand().getArguments().toString());
            String plainUri = h.open(plain);
            h.client.awaitDiagnostics(plainUri, 1);
            assertEquals(List.of(), h.server.getTextDocumentService().codeLens(new CodeLensParams(
                    new TextDocumentIdentifier(plainUri))).get(30, TimeUnit.SECONDS), "no cluster, no lens");

            var ws = h.server.getWorkspaceService();
            assertEquals(Boolean.TRUE, ws.executeCommand(new ExecuteCommandParams(CumulusProtocol.RUN,
                    List.of(2, "demo.App", "1"))).get(30, TimeUnit.SECONDS));
            var ready = h.client.await(() -> h.client.read(() -> List.copyOf(h.client.debugReady)),
                    r -> !r.isEmpty(), 30_000);
            assertEquals(List.of(new CumulusProtocol.DebugReady(1, "127.0.0.1", 41234)), ready);
            var out = h.client.await(() -> h.client.read(() -> List.copyOf(h.client.output)),
                    l -> l.stream().anyMatch(x -> x.line().startsWith("args: ")), 30_000);
            String args = out.stream().filter(x -> x.line().startsWith("args: ")).findFirst().orElseThrow().line();
            assertTrue(args.contains("--debug 1 ") && args.endsWith("demo.App"), args);
            h.client.await(() -> h.client.read(() -> List.copyOf(h.client.statuses)),
                    s -> s.stream().anyMatch(x -> x.exitCode() != null), 30_000);

            ExecutionException e = assertThrows(ExecutionException.class, () -> ws.executeCommand(
                    new ExecuteCommandParams(CumulusProtocol.RUN, List.of(2, "demo.App", "2"))).get(30, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().contains("node 2 cannot be debugged in a run of 2 nodes"),
                    e.getCause().getMessage());
        }
    }

    // ------------------------------------------------------------------ helpers

    private Path write(String rel, String text) throws Exception {
        Path f = dir.resolve(rel);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
        return f;
    }

    private static List<CodeAction> actions(Harness h, String uri) throws Exception {
        CodeActionParams p = new CodeActionParams(new TextDocumentIdentifier(uri),
                new Range(new Position(0, 0), new Position(1000, 0)), new CodeActionContext(List.of()));
        return h.server.getTextDocumentService().codeAction(p).get(30, TimeUnit.SECONDS).stream()
                .map(Either::getRight).toList();
    }

    private static List<TextEdit> edits(List<CodeAction> actions, String rule) {
        CodeAction a = actions.stream().filter(x -> x.getDiagnostics().getFirst().getCode().getLeft().equals(rule))
                .findFirst().orElseThrow();
        return a.getEdit().getChanges().values().iterator().next();
    }

    static String apply(String text, List<TextEdit> edits) {
        var lines = new LineMap(text);
        List<TextEdit> sorted = new ArrayList<>(edits);
        sorted.sort(Comparator.comparingInt((TextEdit e) -> lines.offset(e.getRange().getStart().getLine(),
                e.getRange().getStart().getCharacter())).reversed());
        String out = text;
        for (TextEdit e : sorted) {
            int s = lines.offset(e.getRange().getStart().getLine(), e.getRange().getStart().getCharacter());
            int en = lines.offset(e.getRange().getEnd().getLine(), e.getRange().getEnd().getCharacter());
            out = out.substring(0, s) + e.getNewText() + out.substring(en);
        }
        return out;
    }

    private static List<String> lenses(Harness h, String uri) throws Exception {
        List<? extends CodeLens> l = h.server.getTextDocumentService().codeLens(new CodeLensParams(
                new TextDocumentIdentifier(uri))).get(30, TimeUnit.SECONDS);
        assertFalse(l.isEmpty());
        return l.stream().map(x -> x.getCommand().getTitle()).sorted().toList();
    }
}
