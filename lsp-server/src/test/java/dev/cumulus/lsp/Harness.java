package dev.cumulus.lsp;

import com.google.gson.JsonObject;
import dev.cumulus.profiler.channel.ProfileGson;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeLensWorkspaceCapabilities;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.InlayHint;
import org.eclipse.lsp4j.InlayHintParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceClientCapabilities;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageServer;

/** A server and a recording client connected over a real JSON-RPC wire (a loopback socket), or the server as a child. */
final class Harness implements AutoCloseable {
    /** What the client sees of the server: LSP plus the Cumulus requests. */
    interface Remote extends LanguageServer, CumulusProtocol {
    }

    static final Path REPO = Path.of(System.getProperty("cumulus.repo", "..")).toAbsolutePath().normalize();
    static final Path CORPUS = REPO.resolve("runtime/analysis/src/test/corpus");

    final TestClient client;
    final Remote server;
    final CumulusLanguageServer local;
    private final Process process;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    private Harness(TestClient client, Remote server, CumulusLanguageServer local, Process process) {
        this.client = client;
        this.server = server;
        this.local = local;
        this.process = process;
    }

    /** The Cumulus API classes from the test classpath (cumulus-runtime, without its dependencies). */
    static String apiClasspath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(p -> p.contains("cumulus-runtime") || p.replace('\\', '/').contains("runtime/core/target/classes"))
                .findFirst().orElseThrow(() -> new IllegalStateException("cumulus-runtime not on the test classpath"));
    }

    /**
     * In-process server over a loopback socket (a real byte stream; piped streams break when a writing thread ends,
     * and the server writes from several threads).
     */
    static Harness inProcess() throws IOException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        Socket serverSide;
        Socket clientSide;
        try (ServerSocket ss = new ServerSocket(0, 1, lo)) {
            clientSide = new Socket(lo, ss.getLocalPort());
            serverSide = ss.accept();
        }
        clientSide.setTcpNoDelay(true); // like a pipe: no Nagle delay on small JSON-RPC messages
        serverSide.setTcpNoDelay(true);
        CumulusLanguageServer server = new CumulusLanguageServer(null, null, () -> { });
        Launcher<CumulusProtocol.Client> sl = CumulusLanguageServer.launch(server, serverSide.getInputStream(),
                serverSide.getOutputStream());
        var serverListening = sl.startListening();
        TestClient client = new TestClient();
        Harness h = connect(client, clientSide.getInputStream(), clientSide.getOutputStream(), server, null);
        h.closeables.add(() -> serverListening.cancel(true));
        h.closeables.add(clientSide);
        h.closeables.add(serverSide);
        return h;
    }

    /** The server as a child JVM speaking over its stdin/stdout. */
    static Harness childProcess() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "dev.cumulus.lsp.CumulusLanguageServer").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        return connect(new TestClient(), p.getInputStream(), p.getOutputStream(), null, p);
    }

    private static Harness connect(TestClient client, InputStream in, OutputStream out, CumulusLanguageServer local,
                                   Process p) {
        Launcher<Remote> cl = new LSPLauncher.Builder<Remote>().setLocalService(client).setRemoteInterface(Remote.class)
                .setInput(in).setOutput(out).configureGson(ProfileGson::register).create();
        var listening = cl.startListening();
        Harness h = new Harness(client, cl.getRemoteProxy(), local, p);
        h.closeables.add(() -> listening.cancel(true));
        return h;
    }

    /** Options for a workspace with the Cumulus API and no cumulus command. */
    static JsonObject options(boolean withApi, int debounceMs) {
        JsonObject o = new JsonObject();
        if (withApi) {
            o.addProperty("cumulusClasspath", apiClasspath());
        }
        o.addProperty("cumulusCommand", "none");
        o.addProperty("debounceMs", debounceMs);
        o.addProperty("rulesDocsBase", "https://example.invalid/rules/");
        return o;
    }

    InitializeResult initialize(Path root, JsonObject options) throws Exception {
        InitializeParams p = new InitializeParams();
        p.setWorkspaceFolders(List.of(new WorkspaceFolder(root.toUri().toString(), "ws")));
        p.setInitializationOptions(options);
        ClientCapabilities caps = new ClientCapabilities();
        WorkspaceClientCapabilities ws = new WorkspaceClientCapabilities();
        ws.setCodeLens(new CodeLensWorkspaceCapabilities(true));
        caps.setWorkspace(ws);
        p.setCapabilities(caps);
        InitializeResult result = server.initialize(p).get(60, TimeUnit.SECONDS);
        server.initialized(new InitializedParams());
        return result;
    }

    String open(Path file) throws IOException {
        String uri = file.toUri().toString();
        server.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(
                new TextDocumentItem(uri, "java", 1, Files.readString(file))));
        return uri;
    }

    void change(String uri, int version, String text) {
        server.getTextDocumentService().didChange(new DidChangeTextDocumentParams(
                new VersionedTextDocumentIdentifier(uri, version), List.of(new TextDocumentContentChangeEvent(text))));
    }

    List<InlayHint> inlayHints(String uri) throws Exception {
        return server.getTextDocumentService().inlayHint(new InlayHintParams(new TextDocumentIdentifier(uri),
                new Range(new Position(0, 0), new Position(100_000, 0)))).get(30, TimeUnit.SECONDS);
    }

    /** Shuts the server down; for a child process, waits for its exit code. */
    int shutdown() throws Exception {
        server.shutdown().get(30, TimeUnit.SECONDS);
        server.exit();
        if (process != null) {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        }
        return 0;
    }

    @Override
    public void close() {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort
            }
        }
        if (process != null) {
            process.destroyForcibly();
        }
    }
}
