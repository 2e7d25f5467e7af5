package dev.cumulus.lsp.model;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live per-object figures of the current run, as streamed by the profiler (one update per object and period). Keyed
 * by the object's name (the name given to {@code cluster.replicated("best", ...)}, {@code sharedDoubleArray("A", ...)},
 * ...). Thread-safe.
 */
public final class ProfileFigures {

    /**
     * The newest figures of one object. Absent numbers are {@code null}.
     *
     * @param object        the object's name
     * @param kind          {@code cloud}, {@code array}, {@code tuple}, {@code remote}, ...
     * @param className     the object's class (binary name with dots), if the profiler knows it
     * @param writesPerSec  writes (broadcasts, remote writes) per second
     * @param p99WriteUs    99th percentile write latency, microseconds
     * @param migrations    sequencer or object migrations so far
     * @param misses        coherence misses so far
     */
    public record Figures(String object, String kind, String className, Double writesPerSec, Double p99WriteUs,
                          Long migrations, Long misses) {
    }

    private final Map<String, Figures> byObject = new ConcurrentHashMap<>();
    private volatile boolean running;

    /** Records one update (replacing the object's previous figures); ignores updates without an object name. */
    public boolean update(Figures f) {
        if (f == null || f.object() == null || f.object().isBlank()) {
            return false;
        }
        byObject.put(f.object(), f);
        return true;
    }

    /** Forgets every figure (a new run starts). */
    public void reset() {
        byObject.clear();
    }

    public void running(boolean running) {
        this.running = running;
    }

    public Figures get(String object) {
        return byObject.get(object);
    }

    /** Figures of objects whose class is {@code className} (binary name with dots). */
    public List<Figures> ofClass(String className) {
        return byObject.values().stream().filter(f -> className.equals(f.className()))
                .sorted(Comparator.comparing(Figures::object)).toList();
    }

    public boolean hasAny() {
        return !byObject.isEmpty() || running;
    }

    /** One line for a code lens: {@code best: 1,234 writes/s · p99 write 35 µs · 2 migrations · 0 misses}. */
    public static String describe(Figures f) {
        StringBuilder b = new StringBuilder(f.object()).append(':');
        String sep = " ";
        if (f.writesPerSec() != null) {
            b.append(sep).append(String.format(Locale.ROOT, "%,.0f writes/s", f.writesPerSec()));
            sep = " · ";
        }
        if (f.p99WriteUs() != null) {
            b.append(sep).append(String.format(Locale.ROOT, "p99 write %,.1f µs", f.p99WriteUs()));
            sep = " · ";
        }
        if (f.migrations() != null) {
            b.append(sep).append(f.migrations()).append(f.migrations() == 1 ? " migration" : " migrations");
            sep = " · ";
        }
        if (f.misses() != null) {
            b.append(sep).append(f.misses()).append(f.misses() == 1 ? " miss" : " misses");
            sep = " · ";
        }
        if (sep.equals(" ")) {
            b.append(" no figures yet");
        }
        return b.toString();
    }
}
