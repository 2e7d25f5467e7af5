package dev.cumulus.profiler.figures;

import dev.cumulus.profiler.Latencies;
import dev.cumulus.profiler.channel.ObjectFigures;
import dev.cumulus.profiler.report.Placements;
import dev.cumulus.profiler.report.RunProfile;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * A finished run's figures per object ({@link ObjectFigures}, the report's {@code objects} and {@code internal}):
 * counts over the whole run, the rate as the count over the run's span (from its first event to its last; absent when
 * that is shorter than {@link #MIN_SPAN_NS} or the object counted fewer than {@link #MIN_OPERATIONS} operations, where
 * a rate would be an extrapolation: the count says it then), and latency percentiles over
 * every operation of the object (all its methods in one histogram).
 */
public final class ReportFigures {
    /** Shortest span a rate is given for. */
    public static final long MIN_SPAN_NS = 1_000_000_000L;
    /** Fewest operations a rate is given for. */
    public static final long MIN_OPERATIONS = 20;

    /** The program's objects and the runtime's own, each busiest first. */
    public record Split(List<ObjectFigures> objects, List<ObjectFigures> internal) {
    }

    private ReportFigures() {
    }

    /** The figures of every object of {@code p}. */
    public static Split of(RunProfile p) {
        long spanNs = p.lastNs() - p.firstNs();
        Double spanSec = spanNs >= MIN_SPAN_NS ? spanNs / 1e9 : null;
        List<ObjectFigures> all = new ArrayList<>();
        p.calls().forEach((object, methods) -> {
            Latencies l = merged(methods.values().stream().map(RunProfile.CallStats::latenciesNs).toList());
            long calls = sum(methods.values(), RunProfile.CallStats::calls);
            Placements.ObjectPlacement placed = p.placements().objects().get(object);
            Long moves = placed == null ? null
                : placed.moves().stream().filter(m -> m.outcome().equals("moved")).count();
            all.add(new ObjectFigures("remote", object, null, Operations.of("remote"), calls, rate(calls, spanSec),
                p50(l), p99(l), sum(methods.values(), s -> s.requestBytes() + s.replyBytes()),
                sum(methods.values(), RunProfile.CallStats::failedCalls), null, null, null, moves,
                placed == null ? null : placed.node()));
        });
        TreeSet<String> clouds = new TreeSet<>(p.writes().keySet());
        clouds.addAll(p.restarts().keySet());
        for (String cloud : clouds) {
            Map<String, RunProfile.CallStats> methods = p.writes().getOrDefault(cloud, Map.of());
            Latencies l = merged(methods.values().stream().map(RunProfile.CallStats::latenciesNs).toList());
            long writes = sum(methods.values(), RunProfile.CallStats::calls);
            all.add(new ObjectFigures("cloud", cloud, p.cloudClasses().get(cloud), Operations.of("cloud"), writes,
                rate(writes, spanSec), p50(l), p99(l), sum(methods.values(), RunProfile.CallStats::requestBytes), null,
                null, null, p.restarts().containsKey(cloud) ? p.restarts(cloud) : null, null, null));
        }
        p.elements().forEach((name, e) -> {
            long ops = e.moves() + e.observes();
            Latencies l = e.remoteLatenciesNs();
            all.add(new ObjectFigures("tuple", name, null, Operations.of("tuple"), ops, rate(ops, spanSec), p50(l),
                p99(l), e.bytes(), null, null, null, null, null, null));
        });
        p.arrays().forEach((name, a) -> {
            Latencies l = a.missLatenciesNs();
            all.add(new ObjectFigures("array", name, null, Operations.of("array"), a.misses(),
                rate(a.misses(), spanSec), p50(l), p99(l), a.bytes(), null, a.hits(), a.invalidations(), null, null,
                null));
        });
        p.other().forEach((name, o) -> all.add(new ObjectFigures("other", name, null, Operations.of("other"),
            o.count(), rate(o.count(), spanSec), null, null, o.bytes(), null, null, null, null, null, null)));
        List<ObjectFigures> objects = new ArrayList<>();
        List<ObjectFigures> internal = new ArrayList<>();
        for (ObjectFigures f : all) {
            (RuntimeObjects.isInternal(f.kind(), f.name()) ? internal : objects).add(f);
        }
        objects.sort(Operations.BUSIEST_FIRST);
        internal.sort(Operations.BUSIEST_FIRST);
        return new Split(objects, internal);
    }

    /** The rate of {@code count} operations over {@code spanSec}, or null when either is too small for one. */
    static Double rate(long count, Double spanSec) {
        return spanSec == null || count < MIN_OPERATIONS ? null : count / spanSec;
    }

    private static Latencies merged(Collection<Latencies> parts) {
        Latencies all = new Latencies();
        parts.forEach(all::addAll);
        return all;
    }

    private static Double p50(Latencies l) {
        return l.isEmpty() ? null : l.percentileMicros(50);
    }

    private static Double p99(Latencies l) {
        return l.isEmpty() ? null : l.percentileMicros(99);
    }

    private static <T> long sum(Collection<T> items, ToLongFunction<T> f) {
        return items.stream().mapToLong(f).sum();
    }
}
