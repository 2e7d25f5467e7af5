package dev.cumulus.lsp;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.cumulus.lsp.model.AnalysisScheduler;
import dev.cumulus.lsp.model.ClasspathDiscovery;
import dev.cumulus.lsp.model.ClasspathInfo;
import dev.cumulus.lsp.model.CumulusTool;
import dev.cumulus.lsp.model.LineMap;
import dev.cumulus.lsp.model.ProfileFigures;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.lsp.model.RunController;
import dev.cumulus.lsp.model.Snapshot;
import dev.cumulus.lsp.model.Workspace;
import dev.cumulus.profiler.channel.ProfileRecord;
import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionOptions;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensOptions;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.ExecuteCommandOptions;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.InlayHint;
import org.eclipse.lsp4j.InlayHintParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.ServerInfo;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.WorkDoneProgressBegin;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;
import org.eclipse.lsp4j.WorkDoneProgressEnd;
import org.eclipse.lsp4j.WorkDoneProgressReport;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageClientAware;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The Cumulus language server: restriction diagnostics, read/write inlay hints and hovers, quick fixes, profile
 * lenses and run commands for cloud classes, over LSP on stdio.
 *
 * <pre>
 * java -jar lsp-server/target/cumulus-lsp.jar [--cumulus-classpath CP] [--cumulus-command PATH]
 * </pre>
 *
 * <p>Initialization options (all optional): {@code cumulusClasspath} (string with the platform's path separator, or
 * an array: the Cumulus API jars, e.g. the output of {@code cumulus classpath}), {@code cumulusCommand} (path of
 * {@code cumulus}; {@code "none"} disables it), {@code rulesDocsBase} (URL prefix of the rule pages),
 * {@code debounceMs} (default 200), {@code javaErrors} (publish Java compile errors; default true),
 * {@code classpathCacheDir} (where the resolved Maven classpath is cached; default {@code ~/.cache/cumulus/lsp}),
 * {@code singleVm} (the workspace is a single-VM program, run with {@code cumulus run --single-vm}: also check rules
 * CUM201-CUM207; default false).
 * {@code workspace/didChangeConfiguration} with {@code {"cumulus": {"javaErrors": bool, "singleVm": bool}}} switches
 * Java errors and the single-VM rules later.
 * See {@code lsp-server/README.md}.
 *
 * <p>Threads: LSP4J's reader thread calls the services; analysis runs on {@code cumulus-analysis}
 * ({@link AnalysisScheduler}); requests return futures chained on the analysis that covers the latest edit.
 * Every handler degrades to an empty result and logs (to stderr; stdout is the protocol).
 */
public final class CumulusLanguageServer implements LanguageServer, LanguageClientAware, CumulusProtocol {
    static final Logger LOG = Logger.getLogger("dev.cumulus.lsp");
    private static final long REQUEST_WAIT_MS = 3000;

    private final String argClasspath;
    private final String argCommand;
    private final Runnable exitHook;
    private volatile CumulusProtocol.Client client = new NullClient();
    private volatile Workspace workspace = new Workspace(null);
    private volatile AnalysisScheduler scheduler;
    private final ProfileFigures figures = new ProfileFigures();
    private final RunController runs = new RunController();
    private final AtomicBoolean apiWarned = new AtomicBoolean();
    private final AtomicBoolean lensRefreshQueued = new AtomicBoolean();
    private volatile boolean lensRefreshSupported;
    private volatile boolean progressSupported;
    private volatile DiagnosticsHandler diagnostics = new DiagnosticsHandler(defaultDocsBase());
    private final InlayHintHandler inlayHints = new InlayHintHandler();
    private final HoverHandler hovers = new HoverHandler();
    private volatile CodeActionHandler codeActions = new CodeActionHandler(diagnostics);
    private final CodeLensHandler codeLenses = new CodeLensHandler();
    private volatile ExecuteCommandHandler commands;
    private volatile Path cumulusTool;
    private volatile String givenClasspath;
    private volatile String givenCommand;
    private volatile long debounceMs = 200;
    private volatile Path classpathCache;
    private final long startNanos = System.nanoTime();

    /**
     * @param cumulusClasspath the Cumulus API classpath from the command line, or {@code null}
     * @param cumulusCommand   the {@code cumulus} command from the command line, or {@code null}
     * @param exitHook         what the {@code exit} notification does (the main method exits the JVM)
     */
    public CumulusLanguageServer(String cumulusClasspath, String cumulusCommand, Runnable exitHook) {
        this.argClasspath = cumulusClasspath;
        this.argCommand = cumulusCommand;
        this.exitHook = exitHook;
    }

    /** Starts the server on stdin/stdout. */
    public static void main(String[] args) throws Exception {
        String cp = null;
        String cmd = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cumulus-classpath" -> cp = args[++i];
                case "--cumulus-command" -> cmd = args[++i];
                case "--help", "-h" -> {
                    System.err.println("usage: cumulus-lsp [--cumulus-classpath CP] [--cumulus-command PATH]  "
                            + "(speaks LSP on stdin/stdout)");
                    return;
                }
                default -> {
                    // editors add their own flags (e.g. --stdio); stdio is the only transport
                }
            }
        }
        InputStream in = System.in;
        PrintStream out = System.out;
        System.setOut(System.err); // nothing but the protocol may reach stdout
        boolean[] shutdown = new boolean[1];
        CumulusLanguageServer server = new CumulusLanguageServer(cp, cmd, () -> System.exit(shutdown[0] ? 0 : 1));
        server.onShutdown = () -> shutdown[0] = true;
        Launcher<CumulusProtocol.Client> launcher = launch(server, in, out);
        launcher.startListening().get();
        System.exit(shutdown[0] ? 0 : 1);
    }

    /** Connects a server to a client over streams (used by main and by tests). */
    public static Launcher<CumulusProtocol.Client> launch(CumulusLanguageServer server, InputStream in,
                                                          OutputStream out) {
        Launcher<CumulusProtocol.Client> launcher = new LSPLauncher.Builder<CumulusProtocol.Client>()
                .setLocalService(server).setRemoteInterface(CumulusProtocol.Client.class)
                .setInput(in).setOutput(out).configureGson(ProfileGson::register).create();
        server.connect(launcher.getRemoteProxy());
        return launcher;
    }

    private volatile Runnable onShutdown = () -> { };

    @Override
    public void connect(LanguageClient languageClient) {
        this.client = languageClient instanceof CumulusProtocol.Client c ? c : new NullClient();
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
        Path root = rootOf(params);
        JsonObject options = params.getInitializationOptions() instanceof JsonObject o ? o : new JsonObject();
        givenClasspath = joinClasspath(options.get(CumulusProtocol.Options.CUMULUS_CLASSPATH), argClasspath);
        givenCommand = string(options.get(CumulusProtocol.Options.CUMULUS_COMMAND), argCommand);
        if (options.has(CumulusProtocol.Options.DEBOUNCE_MS)) {
            debounceMs = Math.max(0, options.get(CumulusProtocol.Options.DEBOUNCE_MS).getAsLong());
        }
        String docs = string(options.get(CumulusProtocol.Options.RULES_DOCS_BASE), null);
        String cacheDir = string(options.get(CumulusProtocol.Options.CLASSPATH_CACHE_DIR), null);
        classpathCache = cacheDir != null && !cacheDir.isBlank() ? Path.of(cacheDir)
                : ClasspathDiscovery.defaultCache();
        cumulusTool = CumulusTool.find(givenCommand, root);
        diagnostics = new DiagnosticsHandler(docs != null ? docs : docsBase(cumulusTool));
        Boolean java = javaErrors(options.get(CumulusProtocol.Options.JAVA_ERRORS));
        if (java != null) {
            diagnostics.javaErrors(java);
        }
        codeActions = new CodeActionHandler(diagnostics);
        workspace = new Workspace(root);
        scheduler = new AnalysisScheduler(workspace, debounceMs, this::published);
        Boolean single = flag(options.get(CumulusProtocol.Options.SINGLE_VM));
        if (single != null) {
            scheduler.singleVm(single);
        }
        commands = new ExecuteCommandHandler(() -> cumulusTool, root, this::currentSnapshot, runs, figures,
                () -> client, this::refreshLenses, () -> scheduler.singleVm());
        var caps = params.getCapabilities();
        lensRefreshSupported = caps != null && caps.getWorkspace() != null && caps.getWorkspace().getCodeLens() != null
                && Boolean.TRUE.equals(caps.getWorkspace().getCodeLens().getRefreshSupport());
        progressSupported = caps != null && caps.getWindow() != null
                && Boolean.TRUE.equals(caps.getWindow().getWorkDoneProgress());

        ServerCapabilities sc = new ServerCapabilities();
        sc.setTextDocumentSync(TextDocumentSyncKind.Full);
        sc.setInlayHintProvider(true);
        sc.setHoverProvider(true);
        sc.setCodeActionProvider(new CodeActionOptions(List.of(CodeActionKind.QuickFix)));
        sc.setCodeLensProvider(new CodeLensOptions(false));
        sc.setExecuteCommandProvider(new ExecuteCommandOptions(CumulusProtocol.COMMANDS));
        InitializeResult result = new InitializeResult(sc, new ServerInfo("cumulus-lsp", "0.1.0"));
        LOG.info(() -> "initialize: root " + root + ", cumulus command " + cumulusTool + ", started in "
                + (System.nanoTime() - startNanos) / 1_000_000 + " ms");
        return CompletableFuture.completedFuture(result);
    }

    @Override
    public void initialized(InitializedParams params) {
        AnalysisScheduler s = scheduler;
        if (s == null) {
            return;
        }
        Thread t = new Thread(() -> discoverClasspath(s), "cumulus-classpath");
        t.setDaemon(true);
        t.start();
    }

    private void discoverClasspath(AnalysisScheduler s) {
        String token = "cumulus-classpath";
        boolean progress = progressSupported;
        try {
            if (progress) {
                client.createProgress(new WorkDoneProgressCreateParams(Either.forLeft(token))).get(10, TimeUnit.SECONDS);
                WorkDoneProgressBegin b = new WorkDoneProgressBegin();
                b.setTitle("Cumulus: resolving the project classpath");
                client.notifyProgress(new ProgressParams(Either.forLeft(token), Either.forLeft(b)));
            }
        } catch (Exception e) {
            progress = false;
        }
        boolean reporting = progress;
        ClasspathInfo info;
        try {
            info = ClasspathDiscovery.discover(workspace.root(), givenClasspath, cumulusTool, classpathCache, m -> {
                LOG.info(m);
                if (reporting) {
                    WorkDoneProgressReport r = new WorkDoneProgressReport();
                    r.setMessage(m);
                    client.notifyProgress(new ProgressParams(Either.forLeft(token), Either.forLeft(r)));
                }
            });
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "classpath discovery failed", e);
            info = ClasspathInfo.none();
        }
        if (reporting) {
            WorkDoneProgressEnd end = new WorkDoneProgressEnd();
            end.setMessage(info.entries().size() + " classpath entries");
            client.notifyProgress(new ProgressParams(Either.forLeft(token), Either.forLeft(end)));
        }
        if (!info.apiPresent() && apiWarned.compareAndSet(false, true)) {
            client.showMessage(new MessageParams(MessageType.Warning, noApiMessage(info)));
        }
        ClasspathInfo done = info;
        LOG.info(() -> "classpath from " + done.origin() + ": " + done.entries().size() + " entries, Cumulus API "
                + (done.apiPresent() ? "found" : "missing"));
        s.classpathReady(info);
    }

    static String noApiMessage(ClasspathInfo info) {
        return "Cumulus: the Cumulus API (dev.cumulus.Cloud) is not on this project's classpath (from "
                + info.origin() + "), so cloud classes are not checked. Add the cumulus-runtime dependency to "
                + "pom.xml, or set the initialization option 'cumulusClasspath' to the output of "
                + "'cumulus classpath'.";
    }

    @Override
    public CompletableFuture<Object> shutdown() {
        onShutdown.run();
        runs.stop(3000);
        AnalysisScheduler s = scheduler;
        if (s != null) {
            s.close();
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void exit() {
        exitHook.run();
    }

    // ------------------------------------------------------------------ analysis results

    private void published(Snapshot s) {
        LOG.fine(() -> "analysis " + s.generation() + ": compile " + s.compileMillis() + " ms, analyse "
                + s.analyzeMillis() + " ms");
        for (PublishDiagnosticsParams p : diagnostics.publish(s, workspace.openDocuments())) {
            try {
                client.publishDiagnostics(p);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "cannot publish (client gone?)", e);
                return;
            }
        }
    }

    private CompletableFuture<Snapshot> currentSnapshot() {
        AnalysisScheduler s = scheduler;
        if (s == null) {
            return CompletableFuture.completedFuture(Snapshot.empty());
        }
        return s.current().copy().completeOnTimeout(s.latest(), REQUEST_WAIT_MS, TimeUnit.MILLISECONDS);
    }

    /** Runs a handler on the snapshot covering the latest edit; any failure gives {@code empty}. */
    private <T> CompletableFuture<T> onSnapshot(Function<Snapshot, T> handler, T empty) {
        return currentSnapshot().thenApply(handler).exceptionally(e -> {
            LOG.log(Level.WARNING, "request failed", e);
            return empty;
        });
    }

    // ------------------------------------------------------------------ custom protocol

    @Override
    public void profileReset(Object ignored) {
        figures.reset();
        refreshLenses();
    }

    /** Asks the client to re-request lenses, at most one pending ask at a time. */
    private void refreshLenses() {
        if (lensRefreshSupported && lensRefreshQueued.compareAndSet(false, true)) {
            CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS).execute(() -> {
                lensRefreshQueued.set(false);
                try {
                    client.refreshCodeLenses();
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "code lens refresh", e);
                }
            });
        }
    }

    /** The newest finished analysis (tests and embedders). */
    public Snapshot latestSnapshot() {
        AnalysisScheduler s = scheduler;
        return s == null ? Snapshot.empty() : s.latest();
    }

    /** The figures store (tests and embedders). */
    public ProfileFigures figures() {
        return figures;
    }

    // ------------------------------------------------------------------ services

    @Override
    public TextDocumentService getTextDocumentService() {
        return EmptyAnswers.wrap(TextDocumentService.class, new TextDocumentService() {
            @Override
            public void didOpen(DidOpenTextDocumentParams params) {
                var d = params.getTextDocument();
                workspace.open(d.getUri(), d.getVersion(), d.getText());
                analyse();
            }

            @Override
            public void didChange(DidChangeTextDocumentParams params) {
                String uri = params.getTextDocument().getUri();
                Workspace.OpenDocument old = workspace.openDocument(uri);
                String text = old == null ? "" : old.text();
                for (TextDocumentContentChangeEvent c : params.getContentChanges()) {
                    text = apply(text, c);
                }
                workspace.change(uri, params.getTextDocument().getVersion(), text);
                analyse();
            }

            @Override
            public void didClose(DidCloseTextDocumentParams params) {
                String uri = params.getTextDocument().getUri();
                workspace.close(uri);
                client.publishDiagnostics(new PublishDiagnosticsParams(uri, List.of()));
                analyse();
            }

            @Override
            public void didSave(DidSaveTextDocumentParams params) {
                workspace.diskChanged();
                AnalysisScheduler s = scheduler;
                if (s != null) {
                    s.fullAnalysis();
                }
            }

            @Override
            public CompletableFuture<List<InlayHint>> inlayHint(InlayHintParams params) {
                return onSnapshot(s -> inlayHints.hints(s, params), List.of());
            }

            @Override
            public CompletableFuture<Hover> hover(HoverParams params) {
                return onSnapshot(s -> hovers.hover(s, params), null);
            }

            @Override
            public CompletableFuture<List<Either<Command, CodeAction>>> codeAction(CodeActionParams params) {
                return onSnapshot(s -> codeActions.actions(s, workspace.openDocument(params.getTextDocument().getUri()),
                        params), List.of());
            }

            @Override
            public CompletableFuture<List<? extends CodeLens>> codeLens(CodeLensParams params) {
                return onSnapshot(s -> codeLenses.lenses(s, params, figures), List.of());
            }
        });
    }

    private void analyse() {
        AnalysisScheduler s = scheduler;
        if (s != null) {
            s.requestAnalysis();
        }
    }

    @Override
    public WorkspaceService getWorkspaceService() {
        return EmptyAnswers.wrap(WorkspaceService.class, new WorkspaceService() {
            @Override
            public void didChangeConfiguration(DidChangeConfigurationParams params) {
                if (params.getSettings() instanceof JsonObject all
                        && all.get(CumulusProtocol.Options.SETTINGS_SECTION) instanceof JsonObject c) {
                    Boolean java = javaErrors(c.get(CumulusProtocol.Options.JAVA_ERRORS));
                    if (java != null && java != diagnostics.javaErrors()) {
                        diagnostics.javaErrors(java);
                        published(latestSnapshot());
                    }
                    Boolean single = flag(c.get(CumulusProtocol.Options.SINGLE_VM));
                    AnalysisScheduler s = scheduler;
                    if (single != null && s != null) {
                        s.singleVm(single);
                    }
                }
            }

            @Override
            public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {
                workspace.diskChanged();
                AnalysisScheduler s = scheduler;
                if (s != null) {
                    s.fullAnalysis();
                }
            }

            @Override
            public CompletableFuture<Object> executeCommand(ExecuteCommandParams params) {
                ExecuteCommandHandler h = commands;
                if (h == null) {
                    return CompletableFuture.completedFuture(null);
                }
                return h.execute(params);
            }
        });
    }

    // ------------------------------------------------------------------ helpers

    /** Applies one content change (full text, or a range edit if the client sends one anyway). */
    static String apply(String text, TextDocumentContentChangeEvent c) {
        if (c.getRange() == null) {
            return c.getText();
        }
        var lines = new LineMap(text);
        int start = lines.offset(c.getRange().getStart().getLine(), c.getRange().getStart().getCharacter());
        int end = lines.offset(c.getRange().getEnd().getLine(), c.getRange().getEnd().getCharacter());
        return text.substring(0, start) + c.getText() + text.substring(Math.max(start, end));
    }

    private static Path rootOf(InitializeParams params) {
        try {
            if (params.getWorkspaceFolders() != null && !params.getWorkspaceFolders().isEmpty()) {
                return Workspace.pathOf(params.getWorkspaceFolders().getFirst().getUri());
            }
            @SuppressWarnings("deprecation")
            String rootUri = params.getRootUri();
            if (rootUri != null) {
                return Workspace.pathOf(rootUri);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "bad workspace root", e);
        }
        return null;
    }

    private static String joinClasspath(JsonElement option, String fallback) {
        if (option instanceof JsonArray a) {
            List<String> parts = new ArrayList<>();
            a.forEach(e -> parts.add(e.getAsString()));
            return String.join(File.pathSeparator, parts);
        }
        return string(option, fallback);
    }

    /**
     * {@code true}, {@code "on"} or {@code "auto"} (a client resolves auto itself; the server alone cannot tell which
     * other Java servers run) give true; {@code false} or {@code "off"} give false; anything else null.
     */
    static Boolean javaErrors(JsonElement e) {
        if (e == null || !e.isJsonPrimitive()) {
            return null;
        }
        if (e.getAsJsonPrimitive().isBoolean()) {
            return e.getAsBoolean();
        }
        return switch (e.getAsString()) {
            case "on", "auto" -> true;
            case "off" -> false;
            default -> null;
        };
    }

    /** A boolean setting: {@code true} or {@code false}; anything else null. */
    static Boolean flag(JsonElement e) {
        return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isBoolean() ? e.getAsBoolean() : null;
    }

    private static String string(JsonElement e, String fallback) {
        return e != null && e.isJsonPrimitive() ? e.getAsString() : fallback;
    }

    private static String defaultDocsBase() {
        return "https://cumulus.dev/docs/rules/";
    }

    /** The rule pages of a Cumulus checkout next to the tool or the server, as a file URI; else the web pages. */
    private static String docsBase(Path tool) {
        List<Path> starts = new ArrayList<>();
        if (tool != null) {
            starts.add(tool.toAbsolutePath().getParent());
        }
        try {
            starts.add(Path.of(CumulusLanguageServer.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (Exception e) {
            // no code source: only the tool's folder
        }
        for (Path start : starts) {
            for (Path d = start; d != null; d = d.getParent()) {
                if (Files.isRegularFile(d.resolve("docs/rules/CUM104.md"))) {
                    return d.resolve("docs/rules").toUri().toString().replaceAll("/?$", "/");
                }
            }
        }
        return defaultDocsBase();
    }

    /** A client that drops everything (before connect). */
    private static final class NullClient implements CumulusProtocol.Client {
        @Override public void nodeOutput(NodeOutput output) { }
        @Override public void runStatus(RunStatus status) { }
        @Override public void profile(ProfileRecord record) { }
        @Override public void debugReady(DebugReady ready) { }
        @Override public void telemetryEvent(Object object) { }
        @Override public void publishDiagnostics(PublishDiagnosticsParams diagnostics) { }
        @Override public void showMessage(MessageParams messageParams) { }
        @Override public CompletableFuture<MessageActionItem> showMessageRequest(
                ShowMessageRequestParams requestParams) {
            return CompletableFuture.completedFuture(null);
        }
        @Override public void logMessage(MessageParams message) { }
    }
}
