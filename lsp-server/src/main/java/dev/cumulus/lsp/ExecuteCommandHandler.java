package dev.cumulus.lsp;

import com.google.gson.JsonElement;
import com.google.gson.JsonPrimitive;
import dev.cumulus.lsp.model.CompileError;
import dev.cumulus.lsp.model.ProfileFigures;
import dev.cumulus.lsp.model.RunController;
import dev.cumulus.lsp.model.Snapshot;
import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.LiveWindow;
import dev.cumulus.profiler.channel.ProfileRecord;
import dev.cumulus.profiler.channel.ProfileReport;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * {@code workspace/executeCommand} for {@link CumulusProtocol#COMMANDS}. A command that cannot run answers with a
 * response error whose message says what to do (no {@code cumulus} command found, bad arguments, a run already
 * going); it never throws anything else.
 */
final class ExecuteCommandHandler {
    private final Supplier<Path> cumulus;
    private final Path root;
    private final Supplier<CompletableFuture<Snapshot>> snapshot;
    private final RunController runs;
    private final ProfileFigures figures;
    private final Supplier<CumulusProtocol.Client> client;
    private final Runnable lensRefresh;
    private final BooleanSupplier singleVm;

    /** {@code singleVm}: whether the workspace is a single-VM program now (runs get {@code --single-vm}). */
    ExecuteCommandHandler(Supplier<Path> cumulus, Path root, Supplier<CompletableFuture<Snapshot>> snapshot,
                          RunController runs, ProfileFigures figures, Supplier<CumulusProtocol.Client> client,
                          Runnable lensRefresh, BooleanSupplier singleVm) {
        this.lensRefresh = lensRefresh;
        this.singleVm = singleVm;
        this.cumulus = cumulus;
        this.root = root;
        this.snapshot = snapshot;
        this.runs = runs;
        this.figures = figures;
        this.client = client;
    }

    CompletableFuture<Object> execute(ExecuteCommandParams params) {
        try {
            List<String> args = new ArrayList<>();
            if (params.getArguments() != null) {
                for (Object o : params.getArguments()) {
                    args.add(o instanceof JsonPrimitive p ? p.getAsString() : o instanceof JsonElement e ? e.toString()
                            : String.valueOf(o));
                }
            }
            return switch (params.getCommand()) {
                case CumulusProtocol.RUN -> run(args);
                case CumulusProtocol.STOP -> CompletableFuture.supplyAsync(() -> runs.stop(5000));
                case CumulusProtocol.NEW_PROJECT -> CompletableFuture.supplyAsync(() -> newProject(args));
                case CumulusProtocol.SHOW_PROFILE -> CompletableFuture.completedFuture(
                        args.isEmpty() ? null : figures.get(args.getFirst()));
                default -> failed("unknown command " + params.getCommand() + "; known: " + CumulusProtocol.COMMANDS);
            };
        } catch (ResponseErrorException e) {
            return CompletableFuture.failedFuture(e);
        } catch (RuntimeException e) {
            CumulusLanguageServer.LOG.log(Level.WARNING, "command " + params.getCommand(), e);
            return failed(params.getCommand() + " failed: " + e);
        }
    }

    private CompletableFuture<Object> run(List<String> args) {
        if (args.size() < 2) {
            return failed("cumulus.run needs [nodes, mainClass], e.g. [4, \"com.example.Main\"]");
        }
        int nodes;
        try {
            nodes = (int) Double.parseDouble(args.get(0));
        } catch (NumberFormatException e) {
            return failed("cumulus.run: node count '" + args.get(0) + "' is not a number");
        }
        if (nodes < 1) {
            return failed("cumulus.run: node count must be at least 1");
        }
        String main = args.get(1);
        List<Integer> debugNodes = new ArrayList<>();
        if (args.size() > 2 && !args.get(2).isBlank()) {
            try {
                for (String n : args.get(2).split(",")) {
                    debugNodes.add(Integer.parseInt(n.trim()));
                }
            } catch (NumberFormatException e) {
                return failed("cumulus.run: nodes to debug '" + args.get(2) + "' are not node numbers like \"1\" or \"0,2\"");
            }
            for (int n : debugNodes) {
                if (n < 0 || n >= nodes) {
                    return failed("cumulus.run: node " + n + " cannot be debugged in a run of " + nodes
                            + " nodes (they are 0 to " + (nodes - 1) + ")");
                }
            }
        }
        Path tool = cumulus.get();
        if (tool == null) {
            return failed("cannot run: no 'cumulus' command found (set the initialization option cumulusCommand, or "
                    + "put the project next to a Cumulus checkout)");
        }
        return snapshot.get().thenApply(s -> {
            if (!s.compileErrors().isEmpty()) {
                Map.Entry<String, List<CompileError>> e = s.compileErrors().entrySet().iterator().next();
                CompileError first = e.getValue().getFirst();
                throw error("cannot run: the project does not compile (" + Path.of(URI.create(e.getKey()))
                        .getFileName() + ":" + first.line() + ": " + first.message() + ")");
            }
            try {
                Path work = Files.createTempDirectory("cumulus-lsp-run");
                figures.reset();
                figures.running(true);
                runs.start(tool, root, nodes, main, debugNodes, singleVm.getAsBoolean(), s.classes(),
                        s.classpath().entries(), work,
                        new RunController.Listener() {
                            @Override
                            public void onOutput(int node, String line, String stream) {
                                client.get().nodeOutput(new CumulusProtocol.NodeOutput(node, line, stream));
                            }

                            @Override
                            public void onProfile(ProfileRecord record) {
                                acceptProfile(record);
                            }

                            @Override
                            public void onDebugReady(int node, String host, int port) {
                                client.get().debugReady(new CumulusProtocol.DebugReady(node, host, port));
                            }

                            @Override
                            public void onStatus(String state, Integer exitCode, String runDir, String message) {
                                if (exitCode != null) {
                                    figures.running(false);
                                    deleteQuietly(work); // the run's copy of the classes: its nodes have ended
                                }
                                client.get().runStatus(new CumulusProtocol.RunStatus(state, exitCode, runDir, message));
                            }
                        });
                return (Object) Boolean.TRUE;
            } catch (IOException | IllegalStateException e) {
                figures.running(false);
                client.get().runStatus(new CumulusProtocol.RunStatus("failed", null, null, e.getMessage()));
                throw error("cannot run: " + e.getMessage());
            }
        });
    }

    /** Deletes a directory tree the server made; what cannot be deleted stays (the OS cleans its temp folder). */
    private static void deleteQuietly(Path dir) {
        try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException e) {
            // a left temp folder is not worth failing a run's report for
        }
    }

    private Object newProject(List<String> args) {
        if (args.size() < 2) {
            throw error("cumulus.newProject needs [template, dir, package?]");
        }
        Path tool = cumulus.get();
        if (tool == null) {
            throw error("cannot create a project: no 'cumulus' command found (set the initialization option "
                    + "cumulusCommand)");
        }
        List<String> cmd = new ArrayList<>(List.of(tool.toString(), "new", args.get(0), args.get(1)));
        if (args.size() > 2 && !args.get(2).isBlank()) {
            cmd.addAll(List.of("--package", args.get(2)));
        }
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .directory(root == null ? null : root.toFile()).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = p.waitFor();
            if (code != 0) {
                throw error("cumulus new failed (exit " + code + "): " + out.strip()
                        + (out.contains("Unmatched argument") || out.contains("Unknown") ? " (this Cumulus has no "
                        + "'new' command yet)" : ""));
            }
            return out.strip();
        } catch (IOException e) {
            throw error("cannot run cumulus new: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw error("interrupted");
        }
    }

    private static ResponseErrorException error(String message) {
        return new ResponseErrorException(new ResponseError(ResponseErrorCode.InvalidParams, message, null));
    }

    private static CompletableFuture<Object> failed(String message) {
        return CompletableFuture.failedFuture(error(message));
    }

    /**
     * One record of the run's profile channel. The cluster's live figures and the run's report update the lenses and go
     * on to the client unchanged ({@code cumulus/profile}), where the profile view shows them; a single node's window
     * stays here (the figures made from it are what the editor shows).
     */
    void acceptProfile(ProfileRecord record) {
        boolean changed = switch (record) {
            case LiveFigures f -> figures.update(f);
            case ProfileReport r -> figures.update(r);
            case LiveWindow w -> false;
        };
        if (changed) {
            lensRefresh.run();
        }
        if (!(record instanceof LiveWindow)) {
            client.get().profile(record);
        }
    }
}
