package dev.cumulus.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CompletionParams;
import org.eclipse.lsp4j.DefinitionParams;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DocumentSymbolParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.ReferenceContext;
import org.eclipse.lsp4j.ReferenceParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.jsonrpc.services.JsonRequest;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Java compile errors as diagnostics (and the switch that leaves them to another Java server); no error responses. */
@Timeout(120)
class JavaErrorsAndUnservedRequestsTest {
    @TempDir
    Path dir;

    private static final String UNRESOLVED = """
            package demo;

            public class Main {
                public static void main(String[] args) {
                    int n = undefinedHelper(args.length);
                    System.out.println(n)
                }
            }
            """;

    @Test
    void compileErrorsAreShownWithTheCompilersMessagesUntilTheClientTurnsThemOff() throws Exception {
        Path f = write("src/demo/Main.java", UNRESOLVED);
        try (Harness h = Harness.inProcess()) {
            h.initialize(dir, Harness.options(true, 0));
            String uri = h.open(f);
            List<Diagnostic> d = h.client.awaitDiagnostics(uri, 1).getDiagnostics();
            List<String> got = d.stream().map(x -> (x.getRange().getStart().getLine() + 1) + " " + x.getSource() + " "
                    + x.getMessage().getLeft()).toList();
            assertTrue(got.contains("5 cumulus The method undefinedHelper(int) is undefined for the type Main"),
                    got.toString());
            assertTrue(got.stream().anyMatch(x -> x.startsWith("6 cumulus Syntax error")), got.toString());
            Diagnostic call = d.stream().filter(x -> x.getMessage().getLeft().contains("undefinedHelper")).findFirst().orElseThrow();
            assertEquals(new Position(4, 16), call.getRange().getStart(), "on the call, not the whole line");

            JsonObject cumulus = new JsonObject();
            cumulus.addProperty("javaErrors", false);
            JsonObject settings = new JsonObject();
            settings.add("cumulus", cumulus);
            h.server.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(settings));
            h.client.await(() -> h.client.read(() -> h.client.diagnostics.get(uri)),
                    p -> p.getDiagnostics().isEmpty(), 30_000);
            cumulus.addProperty("javaErrors", "on");
            h.server.getWorkspaceService().didChangeConfiguration(new DidChangeConfigurationParams(settings));
            h.client.await(() -> h.client.read(() -> h.client.diagnostics.get(uri)),
                    p -> p.getDiagnostics().size() == d.size(), 30_000);
        }
    }

    @Test
    void theInitializationOptionLeavesJavaErrorsToAnotherServer() throws Exception {
        Path f = write("src/demo/Main.java", UNRESOLVED);
        try (Harness h = Harness.inProcess()) {
            JsonObject o = Harness.options(true, 0);
            o.addProperty("javaErrors", false);
            h.initialize(dir, o);
            String uri = h.open(f);
            assertEquals(List.of(), h.client.awaitDiagnostics(uri, 1).getDiagnostics());
        }
    }

    @Test
    void requestsTheServerDoesNotServeAnswerEmptyOverTheWire() throws Exception {
        Path f = write("src/demo/Main.java", UNRESOLVED);
        try (Harness h = Harness.inProcess()) {
            var caps = h.initialize(dir, Harness.options(true, 0)).getCapabilities();
            String uri = h.open(f);
            h.client.awaitDiagnostics(uri, 1);
            assertNull(caps.getCompletionProvider(), "completion is not advertised");
            assertNull(caps.getDefinitionProvider(), "definition is not advertised");
            TextDocumentIdentifier doc = new TextDocumentIdentifier(uri);
            Position at = new Position(4, 20);
            TextDocumentService td = h.server.getTextDocumentService();
            assertNull(td.completion(new CompletionParams(doc, at)).get(30, TimeUnit.SECONDS));
            assertNull(td.definition(new DefinitionParams(doc, at)).get(30, TimeUnit.SECONDS));
            assertEquals(List.of(), td.references(new ReferenceParams(doc, at, new ReferenceContext(true)))
                    .get(30, TimeUnit.SECONDS));
            assertEquals(List.of(), td.documentSymbol(new DocumentSymbolParams(doc)).get(30, TimeUnit.SECONDS));
            assertEquals(0, h.shutdown());
        }
    }

    /** Before initialize and with no parameters at all: served requests degrade to empty, the others answer empty. */
    @Test
    void everyLspRequestHasAnAnswerWithoutAnException() throws Exception {
        CumulusLanguageServer server = new CumulusLanguageServer(null, null, () -> { });
        List<String> failed = new ArrayList<>();
        check(TextDocumentService.class, server.getTextDocumentService(), failed);
        check(WorkspaceService.class, server.getWorkspaceService(), failed);
        assertEquals(List.of(), failed);
    }

    private static <T> void check(Class<T> service, T impl, List<String> failed) {
        for (Method m : service.getMethods()) {
            if (!m.isAnnotationPresent(JsonRequest.class)) {
                continue;
            }
            try {
                Object r = m.invoke(impl, new Object[m.getParameterCount()]);
                ((CompletableFuture<?>) r).get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                failed.add(service.getSimpleName() + "." + m.getName() + ": " + e);
            }
        }
    }

    private Path write(String rel, String text) throws Exception {
        Path p = dir.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }
}
