package dev.cumulus.lsp;

import dev.cumulus.profiler.channel.ProfileRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.ProgressParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.WorkDoneProgressCreateParams;

/** Records what the server sends; tests wait on conditions over the records (no sleeps). */
final class TestClient implements CumulusProtocol.Client {
    private final Object lock = new Object();
    final Map<String, PublishDiagnosticsParams> diagnostics = new HashMap<>();
    final List<PublishDiagnosticsParams> allDiagnostics = new ArrayList<>();
    final List<MessageParams> messages = new ArrayList<>();
    final List<CumulusProtocol.NodeOutput> output = new ArrayList<>();
    final List<CumulusProtocol.RunStatus> statuses = new ArrayList<>();
    final List<ProfileRecord> profile = new ArrayList<>();
    final List<CumulusProtocol.DebugReady> debugReady = new ArrayList<>();
    int lensRefreshes;

    /** Waits until {@code condition} holds over this client (checked after every message), or fails after timeout. */
    <T> T await(Supplier<T> value, Predicate<T> condition, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        synchronized (lock) {
            while (true) {
                T v = value.get();
                if (condition.test(v)) {
                    return v;
                }
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new AssertionError("timed out waiting; last value: " + v);
                }
                lock.wait(left);
            }
        }
    }

    /** The diagnostics published for {@code uri} with at least {@code version}. */
    PublishDiagnosticsParams awaitDiagnostics(String uri, int version) throws InterruptedException {
        return await(() -> {
            synchronized (lock) {
                return diagnostics.get(uri);
            }
        }, p -> p != null && (p.getVersion() == null || p.getVersion() >= version), 60_000);
    }

    private void record(Runnable r) {
        synchronized (lock) {
            r.run();
            lock.notifyAll();
        }
    }

    <T> T read(Supplier<T> s) {
        synchronized (lock) {
            return s.get();
        }
    }

    @Override
    public void publishDiagnostics(PublishDiagnosticsParams p) {
        record(() -> {
            diagnostics.put(p.getUri(), p);
            allDiagnostics.add(p);
        });
    }

    @Override
    public void showMessage(MessageParams p) {
        record(() -> messages.add(p));
    }

    @Override
    public void nodeOutput(CumulusProtocol.NodeOutput o) {
        record(() -> output.add(o));
    }

    @Override
    public void runStatus(CumulusProtocol.RunStatus s) {
        record(() -> statuses.add(s));
    }

    @Override
    public void profile(ProfileRecord r) {
        record(() -> profile.add(r));
    }

    @Override
    public void debugReady(CumulusProtocol.DebugReady r) {
        record(() -> debugReady.add(r));
    }

    @Override
    public CompletableFuture<Void> refreshCodeLenses() {
        record(() -> lensRefreshes++);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> createProgress(WorkDoneProgressCreateParams params) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void notifyProgress(ProgressParams params) {
    }

    @Override
    public void telemetryEvent(Object object) {
    }

    @Override
    public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams requestParams) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void logMessage(MessageParams message) {
    }
}
