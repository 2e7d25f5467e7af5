package dev.cumulus.lsp.model;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs {@link WorkspaceAnalysis} on one thread ({@code cumulus-analysis}), debounced: each {@link #requestAnalysis()}
 * postpones the next run by the debounce delay, so a burst of keystrokes costs one analysis. Nothing runs until the
 * classpath is known ({@link #classpathReady}).
 *
 * <p>{@link #current()} is what requests wait on: the snapshot that will include every edit made so far (the pending
 * run's future), or the newest snapshot if nothing is pending. A failed run logs, keeps the previous snapshot and never
 * stops the thread.
 */
public final class AnalysisScheduler implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(AnalysisScheduler.class.getName());

    private final Workspace workspace;
    private final WorkspaceAnalysis analysis = new WorkspaceAnalysis();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cumulus-analysis");
        t.setDaemon(true);
        return t;
    });
    private final Consumer<Snapshot> listener;
    private final long debounceMs;
    private final CompletableFuture<ClasspathInfo> classpath = new CompletableFuture<>();
    private final AtomicReference<Snapshot> latest = new AtomicReference<>(Snapshot.empty());
    private final Object lock = new Object();
    private CompletableFuture<Snapshot> pending;
    private volatile boolean fullNext;
    private volatile boolean singleVm;
    private ScheduledFuture<?> scheduled;

    /**
     * @param listener   called on the analysis thread with every new snapshot
     * @param debounceMs delay after the last edit before analysing
     */
    public AnalysisScheduler(Workspace workspace, long debounceMs, Consumer<Snapshot> listener) {
        this.workspace = workspace;
        this.debounceMs = debounceMs;
        this.listener = listener;
    }

    /** Sets the classpath (once); analyses requested before run now. */
    public void classpathReady(ClasspathInfo info) {
        if (classpath.complete(info)) {
            requestAnalysis(0);
        }
    }

    public CompletableFuture<ClasspathInfo> classpath() {
        return classpath;
    }

    /**
     * Whether the workspace is a single-VM program, whose analyses check the single-VM rules (CUM2xx) too; a change
     * schedules an analysis at once.
     */
    public void singleVm(boolean on) {
        if (on != singleVm) {
            singleVm = on;
            requestAnalysis(0);
        }
    }

    public boolean singleVm() {
        return singleVm;
    }

    /** Makes the next analysis recompile every unit (after a save or a change on disk), and schedules it. */
    public void fullAnalysis() {
        fullNext = true;
        requestAnalysis();
    }

    /** Schedules an analysis after the debounce delay (restarting the delay if one is pending). */
    public CompletableFuture<Snapshot> requestAnalysis() {
        return requestAnalysis(debounceMs);
    }

    /** Schedules an analysis after {@code delayMs}. */
    public CompletableFuture<Snapshot> requestAnalysis(long delayMs) {
        synchronized (lock) {
            if (pending == null) {
                pending = new CompletableFuture<>();
            }
            if (scheduled != null) {
                scheduled.cancel(false);
            }
            if (classpath.isDone()) {
                scheduled = thread.schedule(this::run, delayMs, TimeUnit.MILLISECONDS);
            }
            return pending;
        }
    }

    /** The snapshot covering every edit so far: the pending analysis, or the newest one. */
    public CompletableFuture<Snapshot> current() {
        synchronized (lock) {
            return pending != null ? pending : CompletableFuture.completedFuture(latest.get());
        }
    }

    /** The newest finished snapshot (may lag behind edits). */
    public Snapshot latest() {
        return latest.get();
    }

    private void run() {
        CompletableFuture<Snapshot> done;
        synchronized (lock) {
            done = pending;
            pending = null;
            scheduled = null;
        }
        if (done == null) {
            return;
        }
        Snapshot s = latest.get();
        try {
            Map<String, Integer> versions = new HashMap<>();
            Map<String, Workspace.OpenDocument> open = workspace.openDocuments();
            open.forEach((uri, d) -> versions.put(uri, d.version()));
            boolean full = fullNext;
            fullNext = false;
            s = analysis.analyze(workspace.sources(open), versions, classpath.join(), full, singleVm);
            latest.set(s);
            listener.accept(s);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "analysis failed; keeping the previous results", e);
        } finally {
            done.complete(latest.get());
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
        analysis.close();
    }
}
