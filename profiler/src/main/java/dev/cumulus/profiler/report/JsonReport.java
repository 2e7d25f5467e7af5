package dev.cumulus.profiler.report;

import dev.cumulus.profiler.Json;
import dev.cumulus.profiler.report.RunProfile.ArrayNode;
import dev.cumulus.profiler.report.RunProfile.ArrayStats;
import dev.cumulus.profiler.report.RunProfile.CallStats;
import dev.cumulus.profiler.report.RunProfile.Cell;
import dev.cumulus.profiler.report.RunProfile.Lifecycle;
import dev.cumulus.profiler.report.RunProfile.Migration;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@link RunProfile} as one JSON object, for the editor and scripts (documented in docs/design/PROFILER.md):
 * {@code {"version":1,"runDir","recordings","problems","remote":[...],"clouds":[...],"sequencer":{...},
 * "elements":[...],"arrays":[...],"other":[...],"nodes":[...],"lifecycle":[...]}}. Latencies in microseconds, times in
 * milliseconds since the epoch.
 */
public final class JsonReport {
    private JsonReport() {
    }

    public static String render(RunProfile p) {
        Json.Writer w = new Json.Writer();
        w.beginObject();
        w.value("version", 1);
        w.value("runDir", p.runDir().toString());
        w.value("startMs", p.firstNs() / 1_000_000);
        w.value("endMs", p.lastNs() / 1_000_000);
        w.beginArray("recordings");
        p.recordings().forEach(w::value);
        w.endArray();
        w.beginArray("problems");
        p.problems().forEach(w::value);
        w.endArray();

        w.beginArray("remote");
        p.calls().forEach((object, methods) -> methods.forEach((method, s) -> {
            w.beginObject().value("object", object).value("method", method).value("calls", s.calls())
                .value("async", s.asyncCalls()).value("failed", s.failedCalls());
            latency(w, s);
            w.value("requestBytes", s.requestBytes()).value("replyBytes", s.replyBytes());
            ids(w, "callers", s.callers());
            ids(w, "targets", s.targets());
            w.endObject();
        }));
        w.endArray();

        w.beginArray("clouds");
        TreeSet<String> clouds = new TreeSet<>(p.writes().keySet());
        clouds.addAll(p.restarts().keySet());
        for (String cloud : clouds) {
            Map<String, CallStats> methods = p.writes().getOrDefault(cloud, Map.of());
            long writes = methods.values().stream().mapToLong(CallStats::calls).sum();
            long bytes = methods.values().stream().mapToLong(CallStats::requestBytes).sum();
            TreeSet<Integer> writers = new TreeSet<>();
            methods.values().forEach(s -> writers.addAll(s.callers()));
            w.beginObject().value("cloud", cloud).value("writes", writes).value("restarts", p.restarts(cloud))
                .value("bytes", bytes);
            ids(w, "writers", writers);
            w.beginArray("methods");
            methods.forEach((method, s) -> {
                w.beginObject().value("method", method).value("writes", s.calls());
                latency(w, s);
                w.value("bytes", s.requestBytes());
                ids(w, "writers", s.callers());
                w.endObject();
            });
            w.endArray();
            w.endObject();
        }
        w.endArray();

        w.beginObject("sequencer");
        w.value("migrations", p.migrations().size());
        w.beginObject("arrivals");
        p.sequencerArrivals().forEach((n, c) -> w.value(Integer.toString(n), c));
        w.endObject();
        w.beginArray("timeline");
        for (Migration m : p.migrations()) {
            w.beginObject().value("tMs", m.timeNs() / 1_000_000).value("from", m.from()).value("to", m.to())
                .value("nextSeq", m.nextSeq()).endObject();
        }
        w.endArray();
        w.endObject();

        w.beginArray("elements");
        p.elements().forEach((name, s) -> {
            w.beginObject().value("element", name).value("moves", s.moves()).value("observes", s.observes())
                .value("remoteOperations", s.remoteOperations()).value("blockedMs", s.blockedNs() / 1e6)
                .value("remoteP99Us", s.remoteLatenciesNs().percentile(99) / 1000.0).value("bytes", s.bytes())
                .value("errors", s.errors()).value("maxDistance", s.maxDistance());
            ids(w, "homes", s.homes());
            ids(w, "callers", s.callers());
            w.endObject();
        });
        w.endArray();

        w.beginArray("arrays");
        for (Map.Entry<String, ArrayStats> en : p.arrays().entrySet()) {
            ArrayStats a = en.getValue();
            w.beginObject().value("array", en.getKey()).value("hits", a.hits()).value("misses", a.misses())
                .value("invalidations", a.invalidations()).value("bytes", a.bytes())
                .value("ownershipTransfers", a.ownershipTransfers())
                .value("p50MissUs", a.missLatenciesNs().percentile(50) / 1000.0)
                .value("p99MissUs", a.missLatenciesNs().percentile(99) / 1000.0);
            w.beginArray("nodes");
            for (Map.Entry<Integer, ArrayNode> n : a.nodes().entrySet()) {
                ArrayNode an = n.getValue();
                w.beginObject().value("node", n.getKey()).value("hits", an.hits()).value("misses", an.misses())
                    .value("invalidations", an.invalidations()).value("bytes", an.bytes()).endObject();
            }
            w.endArray();
            w.beginArray("partitions");
            for (Map.Entry<Integer, TreeMap<Integer, Cell>> part : a.partitions().entrySet()) {
                for (Map.Entry<Integer, Cell> c : part.getValue().entrySet()) {
                    w.beginObject().value("partition", part.getKey()).value("node", c.getKey())
                        .value("misses", c.getValue().misses()).value("invalidations", c.getValue().invalidations())
                        .value("ownershipTransfers", c.getValue().ownershipTransfers())
                        .value("bytes", c.getValue().bytes()).endObject();
                }
            }
            w.endArray();
            w.endObject();
        }
        w.endArray();

        w.beginArray("other");
        p.other().forEach((k, s) -> {
            w.beginObject().value("event", k).value("count", s.count()).value("totalMs", s.totalDurationNs() / 1e6)
                .value("maxUs", s.maxDurationNs() / 1000.0).value("bytes", s.bytes());
            ids(w, "nodes", s.nodes());
            w.endObject();
        });
        w.endArray();

        w.beginArray("nodes");
        p.nodes().forEach((n, t) -> w.beginObject().value("node", n).value("events", t.events())
            .value("remoteCalls", t.remoteCalls()).value("failedCalls", t.failedCalls()).value("writes", t.writes())
            .value("sequencerArrivals", t.sequencerArrivals()).value("tupleOperations", t.tupleOperations())
            .value("arrayMisses", t.arrayMisses()).value("bytes", t.bytes()).endObject());
        w.endArray();

        w.beginArray("lifecycle");
        for (Lifecycle l : p.lifecycle()) {
            w.beginObject().value("tMs", l.time().toEpochMilli()).value("node", l.node()).value("phase", l.phase())
                .value("subject", l.subject()).value("detail", l.detail()).endObject();
        }
        w.endArray();
        w.endObject();
        return w.toString();
    }

    private static void latency(Json.Writer w, CallStats s) {
        w.value("p50Us", s.percentileMicros(50)).value("p99Us", s.percentileMicros(99));
    }

    private static void ids(Json.Writer w, String key, TreeSet<Integer> ids) {
        w.beginArray(key);
        ids.forEach(i -> w.value((long) i));
        w.endArray();
    }
}
