package dev.cumulus.lsp.model;

import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.ObjectFigures;
import dev.cumulus.profiler.channel.ProfileReport;
import dev.cumulus.profiler.figures.FigureText;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The current run's per-object figures for the code lenses, exactly as the profiler made them: while the run goes the
 * newest {@link LiveFigures} (every node's newest second, summed), after it the report's {@code objects} (the whole
 * run), and after a single-VM run its heap's figures per class and field. Objects are keyed by the object's name (the
 * name given to {@code cluster.replicated("best", ...)}, {@code sharedDoubleArray("A", ...)}, ...); the runtime's own
 * objects are included, so a lens never lacks them, but nothing lists them. Nothing here computes a figure. Thread-safe.
 */
public final class ProfileFigures {
    private volatile Map<String, ObjectFigures> byObject = Map.of();
    private volatile List<ProfileReport.HeapField> heapFields = List.of();
    private volatile boolean live = true;
    private volatile boolean running;

    /** The cluster's newest figures replace all before; returns whether anything changed. */
    public boolean update(LiveFigures f) {
        return replace(f.objects(), f.internal(), true);
    }

    /**
     * The run's figures from its report replace the live ones; a report without figures (written by hand or by an
     * older profiler) changes nothing. Returns whether anything changed.
     */
    public boolean update(ProfileReport r) {
        if (r.objects() == null && r.internal() == null && r.singleVm() == null) {
            return false;
        }
        List<ProfileReport.HeapField> heap = r.singleVm() == null || r.singleVm().fields() == null ? List.of()
                : r.singleVm().fields().stream().filter(f -> f != null && f.className() != null && f.field() != null)
                .toList();
        boolean heapChanged = !heap.equals(heapFields);
        heapFields = heap;
        return replace(r.objects(), r.internal(), false) | heapChanged;
    }

    private boolean replace(List<ObjectFigures> objects, List<ObjectFigures> internal, boolean isLive) {
        Map<String, ObjectFigures> m = new HashMap<>();
        for (List<ObjectFigures> l : new List[] {internal, objects}) {
            if (l != null) {
                for (ObjectFigures f : l) {
                    if (f != null && f.name() != null) {
                        m.put(f.name(), f);
                    }
                }
            }
        }
        boolean changed = live != isLive || !m.equals(byObject);
        byObject = Map.copyOf(m);
        live = isLive;
        return changed;
    }

    /** Forgets every figure (a new run starts). */
    public void reset() {
        byObject = Map.of();
        heapFields = List.of();
        live = true;
    }

    public void running(boolean running) {
        this.running = running;
    }

    /** The object's figures, or null. */
    public ObjectFigures get(String object) {
        return byObject.get(object);
    }

    /** Figures of clouds whose root class is {@code className} (binary name with dots). */
    public List<ObjectFigures> ofClass(String className) {
        return byObject.values().stream().filter(f -> className.equals(f.className()))
                .sorted(Comparator.comparing(ObjectFigures::name)).toList();
    }

    /**
     * The single-VM heap's fields of the newest report ({@code cumulus run --single-vm}): fetches and write-backs per
     * class and field, empty before such a report.
     */
    public List<ProfileReport.HeapField> heapFields() {
        return heapFields;
    }

    public boolean hasAny() {
        return !byObject.isEmpty() || running;
    }

    /** Whether the figures are of the newest second (a run going) rather than of a whole finished run. */
    public boolean live() {
        return live;
    }

    /** One line for a code lens ({@link FigureText}): {@code best: 1,200 writes/s · p99 35 µs}. */
    public String describe(ObjectFigures f) {
        return FigureText.describe(f, live);
    }
}
